"""Bayesian estimation from abstracted play data (document 001; also document 000's defence).

After each opponent turn every unknown card's estimate is multiplied by a
likelihood read from self-play frequencies, then renormalised and squashed.
The abstraction (documents 001 and 000): whether the face-up card was taken,
its rank, the discard's rank, the candidate card's rank, and whether the
candidate shares a suit with the face-up card and/or the discard.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from ginbots.game.cards import NUM_CARDS

from .base import Estimator
from .snapshot import Snapshot, bits, with_known_cards

NONE_RANK = 13  # "no card": no face-up card seen that turn
TABLE_SHAPE = (2, 14, 14, 13, 4)  # took, face-up rank, discard rank, card rank, suit relation
MIN_OBSERVATIONS = 50  # document 001: no update from fewer abstracted observations
ISRU_ALPHA = 1.0  # document 000's g(o) = o / sqrt(alpha + o^2)

_RANK = np.arange(NUM_CARDS) % 13
_SUIT = np.arange(NUM_CARDS) // 13


def _turn_cards(snap: Snapshot, turn: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: (took face-up, face-up card or -1, discard or -1) on opponent turn ``turn``."""
    mark = turn + 1
    picked = snap.picked == mark
    declined = snap.declined == mark
    took = picked.any(axis=1)
    face_up = np.where(took, picked.argmax(axis=1), np.where(declined.any(axis=1), declined.argmax(axis=1), -1))
    disc = snap.discarded == mark
    discard = np.where(disc.any(axis=1), disc.argmax(axis=1), -1)
    return took, face_up, discard


def _keys(took: np.ndarray, face_up: np.ndarray, discard: np.ndarray) -> np.ndarray:
    """(B, 52) flat table index of every candidate card for one turn per row."""
    fu_rank = np.where(face_up >= 0, face_up % 13, NONE_RANK)
    dc_rank = np.where(discard >= 0, discard % 13, NONE_RANK)
    same_fu = (face_up[:, None] >= 0) & (_SUIT[None, :] == (face_up[:, None] // 13))
    same_dc = (discard[:, None] >= 0) & (_SUIT[None, :] == (discard[:, None] // 13))
    relation = same_fu.astype(np.int64) + 2 * same_dc.astype(np.int64)
    idx = np.ravel_multi_index(
        (np.broadcast_to(took.astype(np.int64)[:, None], relation.shape),
         np.broadcast_to(fu_rank[:, None], relation.shape),
         np.broadcast_to(dc_rank[:, None], relation.shape),
         np.broadcast_to(_RANK[None, :], relation.shape), relation),
        TABLE_SHAPE)
    return idx


def count_tables(snap: Snapshot) -> tuple[np.ndarray, np.ndarray]:
    """(held, seen) counts from recorded rows taken right after an opponent turn.

    Each row contributes its latest opponent turn; a card counts when it was
    unknown to the observer then, and as held when the opponent held it.
    """
    rows = snap.opp_turns > 0
    snap = snap.select(rows)
    size = int(np.prod(TABLE_SHAPE))
    held = np.zeros(size, dtype=np.int64)
    seen = np.zeros(size, dtype=np.int64)
    for turn in np.unique(snap.opp_turns):
        part = snap.select(snap.opp_turns == turn)
        took, face_up, discard = _turn_cards(part, int(turn) - 1)
        keys = _keys(took, face_up, discard)
        candidate = bits(part.unknown & ~part.opp_known) > 0
        truth = bits(part.truth) > 0
        seen += np.bincount(keys[candidate], minlength=size)
        held += np.bincount(keys[candidate & truth], minlength=size)
    return held, seen


def save_tables(path: str | Path, held: np.ndarray, seen: np.ndarray, meta: dict) -> None:
    np.savez_compressed(path, held=held.reshape(TABLE_SHAPE), seen=seen.reshape(TABLE_SHAPE),
                        meta=np.array(json.dumps(meta)))


class BayesianEstimator(Estimator):
    """Document 001's estimator (``squash="logistic"``) or document 000's (``"isru"``)."""

    def __init__(self, held: np.ndarray, seen: np.ndarray, squash: str = "logistic",
                 min_observations: int = MIN_OBSERVATIONS) -> None:
        if squash not in ("logistic", "isru"):
            raise ValueError(f"squash must be 'logistic' or 'isru', got {squash!r}")
        held = np.asarray(held, dtype=np.float64).ravel()
        seen = np.asarray(seen, dtype=np.float64).ravel()
        base = held.sum() / max(1.0, seen.sum())
        rate = np.divide(held, seen, out=np.full_like(held, base), where=seen > 0)
        # Likelihood relative to the average held rate; cells with too little data leave cards as they are.
        self.likelihood = np.where(seen >= min_observations, rate / base, 1.0)
        self.squash = squash
        self.name = "bayes" if squash == "logistic" else "bayes-isru"

    @classmethod
    def load(cls, path: str | Path, squash: str = "logistic") -> "BayesianEstimator":
        from .weights import WeightsError, check_weights

        check_weights(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls(data["held"], data["seen"], squash)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError) as exc:
            raise WeightsError(f"weights file {path} is not the Bayesian tables (.npz with 'held' and 'seen'): "
                               f"{type(exc).__name__}: {exc}") from None

    def raw(self, snap: Snapshot) -> np.ndarray:
        candidate = bits(snap.unknown & ~snap.opp_known) > 0
        count = np.maximum(1, candidate.sum(axis=1))
        target = snap.opp_unknown_count
        p = np.where(candidate, (target / count)[:, None], 0.0)
        for turn in range(int(snap.opp_turns.max(initial=0))):
            active = snap.opp_turns > turn
            took, face_up, discard = _turn_cards(snap, turn)
            factor = self.likelihood[_keys(took, face_up, discard)]
            p = np.where(active[:, None] & candidate, p * factor, p)
            total = p.sum(axis=1)
            p = p * np.divide(target, total, out=np.zeros_like(total), where=total > 0)[:, None]
        if self.squash == "logistic":
            p = np.tanh(p)  # the logistic curve through 0 with slope 1: keeps small values, caps at 1
        else:
            p = p / np.sqrt(ISRU_ALPHA + p * p)
        return with_known_cards(snap, p.astype(np.float32))
