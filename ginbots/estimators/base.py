"""The estimator interface and the two bounds: uniform (no model) and omniscient (the truth)."""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from ginbots.game.knowledge import Knowledge

from .snapshot import (
    Snapshot,
    bits,
    normalise,
    sample_hands,
    sample_masks,
    snapshot_rows,
    with_known_cards,
)


class Estimator(ABC):
    """Per card, the probability that the opponent holds it.

    ``raw`` is the model's own output with known cards pinned to 0/1 (what the
    evaluation scores, as the document does); ``probabilities`` normalises it
    so the 52 values sum to 10 and lie in [0, 1] (what players use).
    """

    name = "estimator"

    @abstractmethod
    def raw(self, snap: Snapshot) -> np.ndarray:
        """(B, 52) estimates for a batch of observations."""

    def probabilities(self, snap: Snapshot) -> np.ndarray:
        return normalise(snap, self.raw(snap))

    def raw_one(self, knowledge: Knowledge) -> np.ndarray:
        """(52,) raw model output for one live seat (known cards pinned to 0/1)."""
        return self.raw(snapshot_rows([knowledge]))[0]

    def estimate(self, knowledge: Knowledge) -> np.ndarray:
        """(52,) normalised probabilities for one live seat."""
        return self.probabilities(snapshot_rows([knowledge]))[0]

    def sample(self, knowledge: Knowledge, count: int, rng: np.random.Generator,
               probabilities: np.ndarray | None = None) -> np.ndarray:
        """(count, 52) bool: complete opponent hands consistent with what we know.

        ``probabilities``: this seat's ``estimate``, when the caller already has it.
        """
        snap, probabilities = self._row(knowledge, probabilities)
        return sample_hands(probabilities, snap, count, rng)

    def sample_masks(self, knowledge: Knowledge, count: int, rng: np.random.Generator,
                     probabilities: np.ndarray | None = None) -> np.ndarray:
        """(count,) int64: ``sample``'s hands as card sets (the same hands for the same ``rng`` state)."""
        snap, probabilities = self._row(knowledge, probabilities)
        return sample_masks(probabilities, snap, count, rng)

    def _row(self, knowledge: Knowledge, probabilities: np.ndarray | None = None) -> tuple[Snapshot, np.ndarray]:
        """(this seat's snapshot row, ``probabilities``, or its normalised estimate when None)."""
        snap = snapshot_rows([knowledge])
        return snap, self.probabilities(snap)[0] if probabilities is None else probabilities


class UniformEstimator(Estimator):
    """Every unknown card equally likely: the null model every estimator must beat."""

    name = "uniform"

    def raw(self, snap: Snapshot) -> np.ndarray:
        unknown = bits(snap.unknown & ~snap.opp_known)
        share = snap.opp_unknown_count / np.maximum(1, unknown.sum(axis=1))
        return with_known_cards(snap, unknown * share[:, None].astype(np.float32))


class OmniscientEstimator(Estimator):
    """Reads the recorded true hand: the upper bound in evaluation, never usable in play."""

    name = "omniscient"

    def raw(self, snap: Snapshot) -> np.ndarray:
        if (snap.truth < 0).any():
            raise ValueError("the omniscient estimator needs recorded true hands (evaluation only)")
        return bits(snap.truth)
