"""Minimum deadwood and melded cards for arrays of hands, in numpy (``melds``' solver, batched).

The opponent models and the heuristic score thousands of hands a decision; this solves a (B,) array
of hands with ``melds``' run tables and the same set-choice order, so every hand gets the value and
the melded cards ``melds.deadwood_and_melded`` gives it, ties included.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import product

import numpy as np

from .cards import SUIT_MASK
from .melds import RUN_DEADWOOD, RUN_MELDED, SUIT_SHIFTS, deadwood_and_melded

_RUN_DEADWOOD_NP = np.array(RUN_DEADWOOD, dtype=np.int64)
_RUN_MELDED_NP = np.array(RUN_MELDED, dtype=np.uint64)


#: A compiled ``deadwood_and_melded_batch`` installed by ``use_batch_kernel`` (None: numpy).
_BATCH_KERNEL: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None


def use_batch_kernel(kernel: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None) -> None:
    """Route ``deadwood_and_melded_batch`` through ``kernel`` (None: back to numpy) for this process.

    The rules wing imports nothing, so a compiled solver (``ginbots.search.kernels``, proved
    equal hand for hand) is handed in from above; it changes speed only, never a result.
    """
    global _BATCH_KERNEL
    _BATCH_KERNEL = kernel


def deadwood_and_melded_batch(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``deadwood_and_melded`` for a (B,) uint64 array of hands, as (B,) int64 and (B,) uint64.

    Runs are four table look-ups per hand; hands with up to three ranks of three
    or four cards try every set choice in numpy, in ``melds._set_states`` order so ties
    resolve as the scalar function does; rarer hands (12+ cards) go through it.
    """
    hands = np.asarray(hands, dtype=np.uint64)
    if _BATCH_KERNEL is not None:
        return _BATCH_KERNEL(hands)
    suits = [(hands >> np.uint64(shift)) & np.uint64(SUIT_MASK) for shift in SUIT_SHIFTS]
    deadwood, melded = _runs_only(suits)
    c, h, s, d = suits
    sets = (c & h & (s | d)) | (s & d & (c | h))
    with_sets = np.flatnonzero(sets)
    ranks = np.zeros(len(with_sets), dtype=np.int64)
    rest = sets[with_sets]
    while len(rest) and rest.any():
        ranks += rest != 0
        rest &= rest - np.uint64(1)  # clears the lowest bit (0 wraps to all ones and stays 0)
    # Hands with a four-of-a-kind rank have 3-set choices too (up to 6 per rank): numpy for one set
    # rank, one by one beyond; without one, two choices per rank (no set, the set) in numpy.
    four = (c & h & s & d)[with_sets] != 0
    scalar = (ranks > _BATCH_SET_RANKS) | ((ranks > 1) & four)
    for count in range(1, _BATCH_SET_RANKS + 1):
        pick = (ranks == count) & ~scalar
        if count > 1 and pick.sum() < _SCALAR_BELOW:
            scalar |= pick  # a few such hands: one by one is cheaper than the numpy passes
            continue
        rows = with_sets[pick]
        if len(rows):
            deadwood[rows], melded[rows] = _with_sets([m[rows] for m in suits], sets[rows], count)
    for i in with_sets[scalar]:
        deadwood[i], covered = deadwood_and_melded(int(hands[i]))
        melded[i] = covered
    return deadwood, melded


#: Set ranks up to which ``deadwood_and_melded_batch`` enumerates set choices in numpy; an 11-card
#: hand never has more. Below ``_SCALAR_BELOW`` hands with two or more set ranks a batch scores
#: them one by one.
_BATCH_SET_RANKS = 3
_SCALAR_BELOW = 24


def _with_sets(full: list[np.ndarray], sets: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Best set choice for hands that all have ``count`` candidate set ranks: per rank, no set,
    the whole rank, or (only where ``count`` is 1, with all four suits) a 3-set keeping one suit's
    card for a run; scored in ``melds._set_states`` order (lowest rank first, outermost), so ties
    resolve as the scalar function does."""
    bits, rest = [], sets.copy()
    for _ in range(count):
        low = rest & (~rest + np.uint64(1))
        bits.append(low)
        rest ^= low
    every = full[0] & full[1] & full[2] & full[3]
    best_dw = np.full(len(sets), 1 << 30, dtype=np.int64)
    best_melded = np.zeros(len(sets), dtype=np.uint64)
    options = 6 if count == 1 and (every & bits[0]).any() else 2
    for choice in product(range(options), repeat=count):
        state, valid = list(full), np.ones(len(sets), dtype=bool)
        for option, bit in zip(choice, bits):
            if option >= 2:
                valid &= (every & bit) != 0
            if option:
                state = [m if i == option - 2 else m & ~bit for i, m in enumerate(state)]
        dw, covered = _runs_only(state, full)
        better = valid & (dw < best_dw)
        best_dw = np.where(better, dw, best_dw)
        best_melded = np.where(better, covered, best_melded)
    return best_dw, best_melded


def _runs_only(state: list[np.ndarray], full: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Deadwood and melded cards of four suit-mask arrays melded by runs; cards of ``full``
    missing from ``state`` were taken by a set and count as melded."""
    deadwood = sum(_RUN_DEADWOOD_NP[m.astype(np.int64)] for m in state)
    melded = np.zeros(len(state[0]), dtype=np.uint64)
    for i, (shift, m) in enumerate(zip(SUIT_SHIFTS, state)):
        covered = _RUN_MELDED_NP[m.astype(np.int64)]
        if full is not None:
            covered |= full[i] & ~m
        melded |= covered << np.uint64(shift)
    return deadwood, melded
