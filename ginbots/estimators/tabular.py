"""A tabular estimator: gradient-boosted trees over per-card features (``gbt``).

The networks read the whole table at once and must learn that suits are
interchangeable; the trees instead score one card at a time from what the
observer sees around it (where its run neighbours and same-rank cards are, when
the opponent threw or passed them), so every card of every observation is a
training example and suit symmetry is built in. Trained with scikit-learn and
exported with skl2onnx (extra ``sklearn``); playing reads the ONNX file with
onnxruntime like every other estimator.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ginbots.game.cards import NUM_CARDS, NUM_RANKS, card

from .base import Estimator
from .snapshot import MAX_TURN, Snapshot, bits, with_known_cards
from .weights import OnnxNet, find_weights

GBT_FILE = "gbt.onnx"

#: Where a card lies as the observer sees it; the first that applies wins.
OFF_BOARD, OWN, OPP_HELD, OPP_DISCARDED, OPP_DECLINED, DEAD, UNKNOWN = range(7)
LOCATIONS = ("off_board", "own", "opp_held", "opp_discarded", "opp_declined", "dead", "unknown")
RUN_OFFSETS = (-2, -1, 1, 2)  # the same-suit cards that can share a run with a card

_RANK = np.arange(NUM_CARDS) % NUM_RANKS
_RUN_NEIGHBOURS = np.array([[c + d if 0 <= _RANK[c] + d < NUM_RANKS else NUM_CARDS for d in RUN_OFFSETS]
                            for c in range(NUM_CARDS)])  # index NUM_CARDS: the off-board column
_SAME_RANK = np.array([[card(c % NUM_RANKS, s) for s in range(4) if s != c // NUM_RANKS] for c in range(NUM_CARDS)])

FEATURE_NAMES = tuple(
    [f"run{d:+d}_{loc}" for d in RUN_OFFSETS for loc in LOCATIONS]
    + [f"same_rank_{loc}" for loc in LOCATIONS[1:]]
    + ["run-1_discard_turn", "run+1_discard_turn", "same_rank_first_discard_turn", "same_rank_last_decline_turn",
       "rank", "opp_turns", "stock", "prior", "opp_pickups", "opp_discards", "opp_declines"])


def locations(snap: Snapshot) -> np.ndarray:
    """(B, 52) int8: each card's location category (``LOCATIONS``)."""
    loc = np.full((len(snap), NUM_CARDS), DEAD, dtype=np.int8)
    loc[bits(snap.unknown & ~snap.opp_known) > 0] = UNKNOWN
    loc[snap.declined > 0] = OPP_DECLINED
    loc[snap.discarded > 0] = OPP_DISCARDED
    loc[bits(snap.opp_known) > 0] = OPP_HELD
    loc[bits(snap.hand) > 0] = OWN
    return loc


def card_features(snap: Snapshot) -> np.ndarray:
    """(B, 52, F) float32: ``FEATURE_NAMES`` for every card of every observation."""
    b = len(snap)
    loc = np.concatenate([locations(snap), np.full((b, 1), OFF_BOARD, dtype=np.int8)], axis=1)
    run_loc = loc[:, _RUN_NEIGHBOURS]                                   # (B, 52, 4)
    run_onehot = (run_loc[..., None] == np.arange(len(LOCATIONS))).reshape(b, NUM_CARDS, -1)
    same_loc = loc[:, _SAME_RANK]                                       # (B, 52, 3)
    same_counts = (same_loc[..., None] == np.arange(1, len(LOCATIONS))).sum(axis=2)
    discarded = np.concatenate([snap.discarded, np.zeros((b, 1), snap.discarded.dtype)], axis=1).astype(np.float32)
    same_disc = discarded[:, _SAME_RANK]
    first_disc = np.where(same_disc > 0, same_disc, MAX_TURN + 1).min(axis=2)
    first_disc[first_disc > MAX_TURN] = 0
    last_decl = snap.declined[:, _SAME_RANK].max(axis=2)
    unknown = bits(snap.unknown & ~snap.opp_known).sum(axis=1)
    prior = snap.opp_unknown_count / np.maximum(1.0, unknown)
    per_row = np.stack([snap.opp_turns, snap.stock, prior, (snap.picked > 0).sum(axis=1),
                        (snap.discarded > 0).sum(axis=1), (snap.declined > 0).sum(axis=1)], axis=1)
    return np.concatenate([
        run_onehot, same_counts,
        discarded[:, _RUN_NEIGHBOURS[:, 1]][..., None], discarded[:, _RUN_NEIGHBOURS[:, 2]][..., None],
        first_disc[..., None], last_decl[..., None],
        np.broadcast_to(_RANK, (b, NUM_CARDS))[..., None],
        np.broadcast_to(per_row[:, None, :], (b, NUM_CARDS, per_row.shape[1]))], axis=2).astype(np.float32)


def training_pairs(snap: Snapshot) -> tuple[np.ndarray, np.ndarray]:
    """(features, held) over the cards the observer cannot place: the trees' examples."""
    feats = card_features(snap)
    mask = bits(snap.unknown & ~snap.opp_known) > 0
    return feats[mask], (bits(snap.truth) > 0)[mask].astype(np.int8)


class TreeEstimator(Estimator):
    """``gbt``: one probability per unknown card from the exported trees."""

    name = "gbt"

    def __init__(self, path: str | Path | None = None) -> None:
        self.net = OnnxNet(path or find_weights(GBT_FILE), output="probabilities")

    def raw(self, snap: Snapshot) -> np.ndarray:
        feats = card_features(snap)
        held = self.net(feats.reshape(-1, feats.shape[2]))[:, 1]
        return with_known_cards(snap, held.reshape(len(snap), NUM_CARDS))
