"""Discard risk from an opponent-hand estimate (document 000, eq. 5).

The risk of discarding card a is the summed joint probability that the
opponent holds a pair of cards forming a meld with a: the other cards of the
three 3-card sets of a's rank and of the (up to) three 3-card runs through a,
the two cards treated as independent.  Shared by every bot that discards defensively.
"""

from __future__ import annotations

import numpy as np

from ginbots.game.cards import ALL_MELDS, MELD_PAIRS, NUM_CARDS, cards_of

_PAD = NUM_CARDS  # index of an always-zero probability


def _meld_pairs() -> tuple[np.ndarray, np.ndarray]:
    """MELD_PAIRS as two padded index arrays (at most 3 set pairs + 3 run pairs per card)."""
    firsts, seconds = np.full((NUM_CARDS, 6), _PAD), np.full((NUM_CARDS, 6), _PAD)
    for c in range(NUM_CARDS):
        for k, pair in enumerate(MELD_PAIRS[c]):
            firsts[c, k], seconds[c, k] = cards_of(pair)
    return firsts, seconds


MELD_PAIR_FIRST, MELD_PAIR_SECOND = _meld_pairs()


def _meld_partners() -> tuple[np.ndarray, np.ndarray]:
    """For every (meld, card in it): the card, and the meld's other cards padded with ``_PAD``."""
    cards, others = [], []
    for meld in ALL_MELDS:
        members = cards_of(meld)
        for c in members:
            rest = [o for o in members if o != c]
            cards.append(c)
            others.append(rest + [_PAD] * (12 - len(rest)))
    return np.array(cards), np.array(others)


MELD_PARTNER_CARD, MELD_PARTNER_OTHERS = _meld_partners()


def meld_danger(probs: np.ndarray) -> np.ndarray:
    """(52,) or (B, 52) probabilities -> the chance-weighted count of melds each card would complete or
    extend for the opponent: summed over every legal meld containing the card (runs of any length, sets
    of three and four), the product of the probabilities of its other cards. The document's eq. 5
    counts three-card melds only; this is the reading of the authors' related code (``discardDanger``)."""
    p = np.asarray(probs, dtype=np.float64)
    padded = np.concatenate([p, np.ones(p.shape[:-1] + (1,))], axis=-1)  # padding multiplies by 1
    products = padded[..., MELD_PARTNER_OTHERS].prod(axis=-1)
    out = np.zeros(p.shape[:-1] + (NUM_CARDS,))
    np.add.at(out, (..., MELD_PARTNER_CARD), products)
    return out


def discard_risk(probs: np.ndarray) -> np.ndarray:
    """(52,) or (B, 52) probabilities -> the same shape of eq. 5 risks."""
    p = np.asarray(probs, dtype=np.float64)
    padded = np.concatenate([p, np.zeros(p.shape[:-1] + (1,))], axis=-1)
    return (padded[..., MELD_PAIR_FIRST] * padded[..., MELD_PAIR_SECOND]).sum(axis=-1)
