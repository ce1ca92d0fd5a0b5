"""A learned evaluation of the hand each discard leaves, for players that add it to their own discard values.

The evaluation is document 000's offensive score (``dual_inception``): a network trained on hands the
compiled self-play core played (``ginbots offense generate``), fed the hand after the discard, the
ISRU estimate of the opponent's hand and the hand's macro features, and giving the hand's expected
signed score in points. The champion's ``learned_discard`` option adds it, weighted, to the
heuristic's discard values: the playouts score discards poorly (their Simple-rule continuations
undervalue hand building), and a network trained on many finished hands sees what they miss.
"""

from __future__ import annotations

import numpy as np

from ginbots.estimators import shared_estimator

from .dual_inception import (
    DATASETS,
    ESTIMATOR,
    VARIANT_DATASETS,
    network_files,
    offence_after_discards,
    prepare_network,
    shared_offensive_score,
)

#: Networks the option can load: any shipped Dual Inception offensive score.
LEARNED_NETS = DATASETS + VARIANT_DATASETS


def learned_offence(hand: int, candidates: list[int], knowledge, dataset: str) -> np.ndarray:
    """The predicted signed score (points) of the hand left by each of ``candidates``, centred on their mean
    so that only the differences between discards count."""
    score = shared_offensive_score("dual-inception", dataset)
    likelihood = shared_estimator(ESTIMATOR).raw_one(knowledge)
    offence = offence_after_discards(score, hand, candidates, likelihood, score.features).astype(np.float64)
    return offence - offence.mean()


def learned_weight_files(dataset: str) -> list:
    """The files the evaluation loads (``dual_inception.network_files``)."""
    return network_files("dual-inception", dataset)


def prepare_learned(dataset: str) -> None:
    prepare_network("dual-inception", dataset)
