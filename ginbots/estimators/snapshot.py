"""One seat's knowledge as numpy arrays, batched: what every estimator reads.

A ``Snapshot`` is a struct of arrays with one row per observation, built
either from a live ``Knowledge`` (one row, at play time) or from recorded
self-play (many rows, for training and evaluation), so both paths share one
encoding.  Also the two operations every estimate needs: normalising to the
opponent's card count, and sampling whole opponent hands.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from ginbots.game.cards import HAND_SIZE, NUM_CARDS
from ginbots.game.knowledge import Knowledge

CARD_BITS = np.arange(NUM_CARDS, dtype=np.int64)
CARD_WEIGHTS = np.int64(1) << CARD_BITS
MAX_TURN = 30  # turn numbers are clipped here in features (hands rarely run longer)
#: The compiled twins of one row's pinning, normalising and sampling (``snapshot_kernels``), once installed.
_KERNELS: Any = None


def use_kernels(kernels: Any) -> None:
    """Pin, normalise and sample one row in ``kernels`` (``ginbots.estimators.snapshot_kernels``; None:
    numpy) in this process. They give the same numbers from the same draws, so the games are the same."""
    global _KERNELS
    _KERNELS = kernels


def bits(masks: np.ndarray) -> np.ndarray:
    """(B,) card-set ints -> (B, 52) float32 0/1."""
    return ((np.asarray(masks, dtype=np.int64)[:, None] >> CARD_BITS) & 1).astype(np.float32)


def masks_of(rows: np.ndarray) -> np.ndarray:
    """(B, 52) 0/1 -> (B,) card-set ints."""
    return (np.asarray(rows, dtype=np.int64) * CARD_WEIGHTS).sum(axis=1)


@dataclass
class Snapshot:
    """Observations, one per row.  Turn arrays hold 1 + the opponent turn on
    which the card was picked / declined / discarded (0: never)."""

    hand: np.ndarray        # (B,) int64: our cards
    pile: np.ndarray        # (B,) int64: every card in the discard pile
    top: np.ndarray         # (B,) int8: the face-up card, -1 if none
    opp_known: np.ndarray   # (B,) int64: cards the opponent surely holds
    unknown: np.ndarray     # (B,) int64: cards in the stock or the opponent's hand
    picked: np.ndarray      # (B, 52) int8
    declined: np.ndarray    # (B, 52) int8
    discarded: np.ndarray   # (B, 52) int8
    opp_turns: np.ndarray   # (B,) int16: opponent turns completed
    stock: np.ndarray       # (B,) int16: stock size
    truth: np.ndarray       # (B,) int64: the opponent's real hand (-1 when not recorded)
    episode: np.ndarray     # (B,) int32: which hand and observer the row belongs to
    step: np.ndarray        # (B,) int16: row order within its episode

    def __len__(self) -> int:
        return len(self.hand)

    @property
    def opp_unknown_count(self) -> np.ndarray:
        return HAND_SIZE - bits(self.opp_known).sum(axis=1).astype(np.int64)

    def select(self, index: Any) -> "Snapshot":
        return Snapshot(**{f.name: getattr(self, f.name)[index] for f in fields(self)})

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_arrays(cls, arrays: Any) -> "Snapshot":
        return cls(**{f.name: np.asarray(arrays[f.name]) for f in fields(cls)})

    @classmethod
    def concat(cls, parts: list["Snapshot"]) -> "Snapshot":
        return cls(**{f.name: np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(cls)})


def _turn_rows(events: list[list[tuple[int, int]]]) -> np.ndarray:
    return np.stack([_turn_row(e) for e in events]) if events else np.zeros((0, NUM_CARDS), dtype=np.int8)


def _turn_row(events: list[tuple[int, int]]) -> np.ndarray:
    row = np.zeros(NUM_CARDS, dtype=np.int8)
    for card, turn in events:
        row[card] = min(turn, MAX_TURN - 1) + 1
    return row


def snapshot_rows(knowledges: list[Knowledge], truths: list[int] | None = None,
                  episodes: list[int] | None = None, steps: list[int] | None = None) -> Snapshot:
    """Encode live trackers (one row each); ``truths`` only when recording self-play."""
    if len(knowledges) == 1 and truths is None and episodes is None and steps is None:
        return _snapshot_row(knowledges[0])
    n = len(knowledges)
    pile = [0] * n
    for i, k in enumerate(knowledges):
        for c in k.pile:
            pile[i] |= 1 << c
    return Snapshot(
        hand=np.array([k.hand for k in knowledges], dtype=np.int64),
        pile=np.array(pile, dtype=np.int64),
        top=np.array([k.pile[-1] if k.pile else -1 for k in knowledges], dtype=np.int8),
        opp_known=np.array([k.opp_known for k in knowledges], dtype=np.int64),
        unknown=np.array([k.unknown for k in knowledges], dtype=np.int64),
        picked=_turn_rows([k.opp_picked for k in knowledges]),
        declined=_turn_rows([k.opp_declined for k in knowledges]),
        discarded=_turn_rows([k.opp_discards for k in knowledges]),
        opp_turns=np.array([k.opp_turns for k in knowledges], dtype=np.int16),
        stock=np.array([k.stock_size for k in knowledges], dtype=np.int16),
        truth=np.array(truths if truths is not None else [-1] * n, dtype=np.int64),
        episode=np.array(episodes if episodes is not None else [0] * n, dtype=np.int32),
        step=np.array(steps if steps is not None else [0] * n, dtype=np.int16),
    )


def _snapshot_row(k: Knowledge) -> Snapshot:
    """``snapshot_rows([k])`` for one live seat (what play asks for every decision), built with fewer
    small arrays: the same values and types."""
    pile = 0
    for c in k.pile:
        pile |= 1 << c
    ints = np.array([k.hand, pile, k.opp_known, k.unknown, -1], dtype=np.int64)
    return Snapshot(
        hand=ints[0:1], pile=ints[1:2], top=np.array([k.pile[-1] if k.pile else -1], dtype=np.int8),
        opp_known=ints[2:3], unknown=ints[3:4],
        picked=_turn_row(k.opp_picked)[None], declined=_turn_row(k.opp_declined)[None],
        discarded=_turn_row(k.opp_discards)[None],
        opp_turns=np.array([k.opp_turns], dtype=np.int16), stock=np.array([k.stock_size], dtype=np.int16),
        truth=ints[4:5], episode=np.zeros(1, dtype=np.int32), step=np.zeros(1, dtype=np.int16))


def with_known_cards(snap: Snapshot, raw: np.ndarray) -> np.ndarray:
    """``raw`` (B, 52) with known cards pinned: 1 for the opponent's known cards,
    0 for every card it cannot hold; unknown cards keep their estimate."""
    if _KERNELS is not None and len(snap) == 1:
        return _KERNELS.with_known_cards_row(raw, int(snap.unknown[0]), int(snap.opp_known[0]))[None]
    unknown = bits(snap.unknown & ~snap.opp_known)
    return np.where(unknown > 0, raw, bits(snap.opp_known)).astype(np.float32)


def normalise(snap: Snapshot, raw: np.ndarray) -> np.ndarray:
    """Probabilities that sum to 10 with every value in [0, 1]: known cards 0/1,
    unknown cards scaled to the opponent's unknown count, capped at 1 with the
    excess spread over the rest (water filling)."""
    if _KERNELS is not None and len(snap) == 1:
        return _KERNELS.normalise_row(raw, int(snap.unknown[0]), int(snap.opp_known[0]))[None]
    unknown = bits(snap.unknown & ~snap.opp_known) > 0
    target = snap.opp_unknown_count.astype(np.float64)
    p = np.where(unknown, np.maximum(np.asarray(raw, dtype=np.float64), 1e-9), 0.0)
    capped = np.zeros_like(unknown)
    for _ in range(NUM_CARDS):
        free = unknown & ~capped
        want = target - capped.sum(axis=1)
        total = np.where(free, p, 0.0).sum(axis=1)
        scale = np.divide(want, total, out=np.zeros_like(want), where=total > 0)
        p = np.where(free, p * scale[:, None], np.where(capped, 1.0, 0.0))
        over = free & (p > 1.0)
        if not over.any():
            break
        capped |= over
    p = np.where(unknown, p, 0.0)
    return np.where(bits(snap.opp_known) > 0, 1.0, p).astype(np.float32)


def sample_hands(probs: np.ndarray, snap_row: Snapshot, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` complete opponent hands as (count, 52) bool: the known cards plus
    ``opp_unknown_count`` unknown cards drawn without replacement with weights
    proportional to each card's odds p / (1 - p) (Gumbel top-k, all at once)."""
    known = bits(snap_row.opp_known)[0] > 0
    unknown = (bits(snap_row.unknown & ~snap_row.opp_known)[0] > 0)
    need = int(snap_row.opp_unknown_count[0])
    pool = np.flatnonzero(unknown)
    hands = np.zeros((count, NUM_CARDS), dtype=bool)
    hands[:, known] = True
    need = min(need, len(pool))
    if need == 0:
        return hands
    p = np.clip(np.asarray(probs, dtype=np.float64)[pool], 1e-6, 1 - 1e-6)
    keys = np.log(p / (1 - p)) + rng.gumbel(size=(count, len(pool)))
    chosen = np.argpartition(-keys, need - 1, axis=1)[:, :need]
    rows = np.repeat(np.arange(count), need)
    hands[rows, pool[chosen.ravel()]] = True
    return hands


def sample_masks(probs: np.ndarray, snap_row: Snapshot, count: int, rng: np.random.Generator) -> np.ndarray:
    """``masks_of(sample_hands(...))`` for the same generator state, without the (count, 52) matrix:
    the same Gumbel draws and the same chosen cards, summed straight into (count,) int64 hands."""
    opp_known = int(snap_row.opp_known[0])
    free = int(snap_row.unknown[0]) & ~opp_known
    pool = CARD_BITS[(free >> CARD_BITS) & 1 == 1]
    need = min(int(snap_row.opp_unknown_count[0]), len(pool))
    if need == 0:
        return np.full(count, opp_known, dtype=np.int64)
    p = np.clip(np.asarray(probs, dtype=np.float64)[pool], 1e-6, 1 - 1e-6)
    log_odds, gumbel = np.log(p / (1 - p)), rng.gumbel(size=(count, len(pool)))
    if _KERNELS is not None:
        hands = _KERNELS.select_masks(log_odds, gumbel, pool, need, opp_known)
        if hands is not None:
            return hands
    chosen = np.argpartition(-(log_odds + gumbel), need - 1, axis=1)[:, :need]
    return CARD_WEIGHTS[pool][chosen].sum(axis=1) | opp_known


def split_by_episode(snap: Snapshot, validation: float = 0.1, seed: int = 0) -> tuple[Snapshot, Snapshot]:
    """Train/validation rows split by whole episodes (no hand leaks across the split)."""
    episodes = np.unique(snap.episode)
    rng = np.random.default_rng(seed)
    held_out = set(rng.choice(episodes, size=max(1, int(len(episodes) * validation)), replace=False).tolist())
    is_val = np.isin(snap.episode, list(held_out))
    return snap.select(~is_val), snap.select(is_val)
