"""Discard risk from an opponent-hand estimate (document 000, eq. 5).

The risk of discarding card a is the summed joint probability that the
opponent holds a pair of cards forming a meld with a: the other cards of the
three 3-card sets of a's rank and of the (up to) three 3-card runs through a,
the two cards treated as independent.  Shared by every bot that discards defensively.
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_CARDS, NUM_RANKS, card

_PAD = NUM_CARDS  # index of an always-zero probability


def _meld_pairs() -> tuple[np.ndarray, np.ndarray]:
    firsts, seconds = np.full((NUM_CARDS, 6), _PAD), np.full((NUM_CARDS, 6), _PAD)
    for c in range(NUM_CARDS):
        rank, suit = c % NUM_RANKS, c // NUM_RANKS
        others = [card(rank, s) for s in range(4) if s != suit]
        pairs = [(others[i], others[j]) for i in range(3) for j in range(i + 1, 3)]
        for lo in range(rank - 2, rank + 1):
            if lo >= 0 and lo + 2 < NUM_RANKS:
                run = [card(r, suit) for r in range(lo, lo + 3) if r != rank]
                pairs.append((run[0], run[1]))
        for k, (b, d) in enumerate(pairs):
            firsts[c, k], seconds[c, k] = b, d
    return firsts, seconds


MELD_PAIR_FIRST, MELD_PAIR_SECOND = _meld_pairs()


def discard_risk(probs: np.ndarray) -> np.ndarray:
    """(52,) or (B, 52) probabilities -> the same shape of eq. 5 risks."""
    p = np.asarray(probs, dtype=np.float64)
    padded = np.concatenate([p, np.zeros(p.shape[:-1] + (1,))], axis=-1)
    return (padded[..., MELD_PAIR_FIRST] * padded[..., MELD_PAIR_SECOND]).sum(axis=-1)
