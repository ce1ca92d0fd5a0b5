"""Document 002's heuristic hand utility, vectorised over batches of hands.

Hand utility = average card utility of the unmelded cards + number of melded
cards + KNOCK_BONUS (knockable) or GIN_BONUS (gin).  A card's utility counts
every still-possible 3-card meld through it (MELD_BONUS, plus
COMBINATION_BONUS when the hand holds a second card of it), scaled by the
chance that none of the meld's missing cards sits in an opponent meld, plus
(5 - points) * DEADWOOD_BONUS and the low-card bonus.  A batch is many hands
at once (sampled opponents, every stock card), so the player's 100-sample
discard rule is a few numpy passes rather than thousands of Python calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ginbots.game.cards import (
    ACE,
    CARD_POINTS,
    MAX_DEADWOOD,
    MELD_PAIRS,
    NUM_CARDS,
    NUM_RANKS,
    TWO,
)
from ginbots.game.melds import best_meld_sets, min_deadwood
from ginbots.game.melds_batch import deadwood_and_melded_batch

#: Index of a padding "card" that is always blocked: it fills the meld-pair table to width 6.
PAD = NUM_CARDS
_PAD_BIT = np.uint64(1 << PAD)
_BIT_INDEX = np.arange(NUM_CARDS, dtype=np.uint64)


def _pair_tables() -> tuple[np.ndarray, np.ndarray]:
    width = max(len(pairs) for pairs in MELD_PAIRS)
    lo = np.full((NUM_CARDS + 1, width), PAD, dtype=np.uint64)
    hi = np.full((NUM_CARDS + 1, width), PAD, dtype=np.uint64)
    for c, pairs in enumerate(MELD_PAIRS):
        for k, pair in enumerate(pairs):
            a = (pair & -pair).bit_length() - 1
            lo[c, k], hi[c, k] = a, (pair ^ 1 << a).bit_length() - 1
    return lo, hi


#: ``PAIR_LO[c, k]``, ``PAIR_HI[c, k]``: the two other cards of the k-th 3-card meld through ``c``.
PAIR_LO, PAIR_HI = _pair_tables()
_POINTS = np.array(CARD_POINTS + (0,), dtype=np.float64)
_POINTS32 = _POINTS.astype(np.float32)
_PAIR_LO_INT, _PAIR_HI_INT = PAIR_LO.astype(np.int64), PAIR_HI.astype(np.int64)
#: The document's low-card bonus share: the full bonus for aces, half for twos.
_LOW_SHARE = np.array([1.0 if c % NUM_RANKS == ACE else 0.5 if c % NUM_RANKS == TWO else 0.0
                       for c in range(NUM_CARDS)] + [0.0])
_LOW_SHARE32 = _LOW_SHARE.astype(np.float32)


#: The compiled twins of ``utilities`` and ``best_after_discard`` (``hand_utility_kernels``), once installed.
_KERNELS: Any = None


def use_kernels(kernels: Any) -> None:
    """Compute hand utilities with ``kernels`` (``ginbots.players.hand_utility_kernels``; None: numpy)
    in this process. They give the same numbers, so the games are the same."""
    global _KERNELS
    _KERNELS = kernels


@dataclass(frozen=True)
class UtilityWeights:
    """The seven utility constants of document 002 (OPP_UTIL_IMPORTANCE lives with the discard rule)."""

    meld_bonus: float = 1.5
    combination_bonus: float = 4.0
    deadwood_bonus: float = 1.0
    knock_bonus: float = 10.0
    gin_bonus: float = 20.0
    low_card_bonus: float = 0.2
    emergency_booster: float = 2.5


def in_opponent_meld_probability(holds: np.ndarray) -> np.ndarray:
    """(53,) chance that each card is in an opponent meld, from (52,) chances that it holds each card.

    Cards treated as independent: it holds the card and at least one pair that melds with it.
    """
    p = np.append(np.asarray(holds, dtype=np.float64), 0.0)
    no_pair = np.prod(1.0 - p[_PAIR_LO_INT] * p[_PAIR_HI_INT], axis=1)
    out = p * (1.0 - no_pair)
    out[PAD] = 0.0
    return out


def _row_bits(masks: np.ndarray) -> np.ndarray:
    """(B, 53) bool rows of (B,) uint64 masks; column 52 (the pad) is False."""
    out = np.zeros((len(masks), NUM_CARDS + 1), dtype=bool)
    out[:, :NUM_CARDS] = np.unpackbits(masks.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1,
                                       bitorder="little")[:, :NUM_CARDS]
    return out


def _meld_contributions(held: np.ndarray, block: np.ndarray, cards: np.ndarray, in_opp_meld: np.ndarray,
                        w: UtilityWeights) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row, card slot and meld through the card: its share of the card utility, and the meld's two other cards.

    ``held`` and ``block`` are (B, 53) bool; ``cards`` (B, n) card ids.
    Returns ``contribution`` (B, n, 6) and the card ids ``lo``, ``hi`` (B, n, 6).
    """
    lo, hi = _PAIR_LO_INT[cards], _PAIR_HI_INT[cards]
    base = (np.arange(len(cards)) * (NUM_CARDS + 1))[:, None, None]
    flat_lo, flat_hi = base + lo, base + hi
    held_flat, block_flat = held.ravel(), block.ravel()
    has_lo, has_hi = held_flat[flat_lo], held_flat[flat_hi]
    open_meld = ~(block_flat[flat_lo] | block_flat[flat_hi])
    q = in_opp_meld.astype(np.float32)
    # Scaled by the chance that none of the meld's missing cards is in an opponent meld.
    chance = (1 - q[lo] * ~has_lo) * (1 - q[hi] * ~has_hi)
    per_meld = np.float32(w.meld_bonus) + np.float32(w.combination_bonus) * (has_lo | has_hi)
    return chance * per_meld * open_meld, lo, hi


def _finish(meld_part: np.ndarray, points: np.ndarray, low: np.ndarray, unmelded: np.ndarray,
            deadwood: np.ndarray, size: int, w: UtilityWeights) -> np.ndarray:
    """Hand utilities from per-slot meld shares (..., n) and the hand's deadwood (...)."""
    highest = (points * unmelded).max(axis=-1)
    # The document's emergency state: one card from knockable (dropping the worst card would do).
    emergency = (deadwood > MAX_DEADWOOD) & (deadwood - highest <= MAX_DEADWOOD)
    deadwood_weight = np.where(emergency, np.float32(w.deadwood_bonus * w.emergency_booster),
                               np.float32(w.deadwood_bonus))
    card_utility = meld_part + (5 - points) * deadwood_weight[..., None] + np.float32(w.low_card_bonus) * low
    n_unmelded = unmelded.sum(axis=-1)
    average = (card_utility * unmelded).sum(axis=-1) / np.maximum(1, n_unmelded)
    bonus = np.where(deadwood == 0, w.gin_bonus, np.where(deadwood <= MAX_DEADWOOD, w.knock_bonus, 0.0))
    return average + (size - n_unmelded) + bonus


def utilities(hands: np.ndarray, size: int, melded: np.ndarray, deadwood: np.ndarray, blocked: int | np.ndarray,
              in_opp_meld: np.ndarray, w: UtilityWeights) -> np.ndarray:
    """(B,) hand utilities of ``size``-card hands under the given meldings.

    ``blocked`` (one mask, or one per hand) marks cards that can no longer
    complete a meld (the discard pile); the hand's own melded cards are
    blocked too, as the document says.
    """
    if _KERNELS is not None:
        return _KERNELS.utilities(hands, size, melded, deadwood, blocked, in_opp_meld, w)
    n = len(hands)
    held = _row_bits(hands)
    block = _row_bits(melded | np.asarray(blocked, dtype=np.uint64))
    block[:, PAD] = True
    cards = np.nonzero(held)[1].reshape(n, size)
    contribution, _, _ = _meld_contributions(held, block, cards, in_opp_meld, w)
    unmelded = ~_row_bits(melded)[np.arange(n)[:, None], cards]
    return _finish(contribution.sum(axis=2), _POINTS32[cards], _LOW_SHARE32[cards], unmelded,
                   np.asarray(deadwood), size, w)


def stock_draw_hands(opponents: np.ndarray, pile: int, uniforms: np.ndarray, draws: int) -> np.ndarray:
    """(S * draws,) uint64: each opponent hand plus each of ``draws`` cards it has not seen (neither in it nor
    in ``pile``), the cards with the highest ``uniforms`` (S, 52) first, as ``argsort`` ranks them (the
    heuristic's stock draws)."""
    opponents = np.asarray(opponents, dtype=np.uint64)
    if _KERNELS is not None:
        hands = _KERNELS.stock_draw_hands(opponents, pile, uniforms, draws)
        if hands is not None:
            return hands
    seen = ((opponents[:, None] | np.uint64(pile)) >> _BIT_INDEX[None, :]) & np.uint64(1)
    keys = np.where(seen == 0, uniforms, -1.0)
    drawn = np.argsort(-keys, axis=1)[:, :draws]
    return (opponents[:, None] | (np.uint64(1) << drawn.astype(np.uint64))).ravel()


def best_melding_utility(hand: int, blocked: int, in_opp_meld: np.ndarray, w: UtilityWeights) -> float:
    """Utility of ``hand`` under its best melding: of the minimum-deadwood meldings (each the set of
    cards it melds), the one with the highest utility, as document 002 chooses."""
    if _KERNELS is not None:
        return _KERNELS.best_melding_utility(hand, blocked, in_opp_meld, w)
    meldings = sorted({sum(melds) for melds in best_meld_sets(hand)})
    n = len(meldings)
    values = utilities(np.full(n, hand, dtype=np.uint64), hand.bit_count(), np.array(meldings, dtype=np.uint64),
                       np.full(n, min_deadwood(hand)), blocked, in_opp_meld, w)
    return float(values.max())


def best_after_discard(hands: np.ndarray, keep: np.ndarray, blocked: int, in_opp_meld: np.ndarray,
                       w: UtilityWeights) -> np.ndarray:
    """(B,) utility of each 11-card hand after its reasonable discard (document 002's draw rule).

    The reasonable discard is the unmelded card that leaves the highest
    utility, except that the highest-deadwood card is thrown whenever that
    makes the hand knockable; ``keep`` (B,) uint64 bars cards (the face-up
    card just taken).  Throwing an unmelded card keeps the melding optimal, so
    every discard is scored from one pass over the 11 cards: the thrown card
    joins the pile and takes away the melds through it.  A hand with nothing
    unmelded to throw breaks a meld, each choice re-melded.
    """
    if _KERNELS is not None:
        best, stuck = _KERNELS.best_after_discard(hands, keep, blocked, in_opp_meld, w)
        return _unstuck(best, np.flatnonzero(stuck), hands, keep, blocked, in_opp_meld, w)
    n = len(hands)
    deadwood, melded = deadwood_and_melded_batch(hands)
    held = _row_bits(hands)
    melded_bits = _row_bits(melded)
    block = melded_bits | _row_bits(np.full(n, blocked, dtype=np.uint64))
    block[:, PAD] = True
    cards = np.nonzero(held)[1].reshape(n, 11)
    rows = np.arange(n)[:, None]
    contribution, lo, hi = _meld_contributions(held, block, cards, in_opp_meld, w)
    # loss[b, f, j]: the share of slot f's card that needs slot j's card, lost when that card is thrown.
    slot_of = np.full((n, NUM_CARDS + 1), 11)
    slot_of[rows, cards] = np.arange(11)
    base = (np.arange(n * 11) * 12).reshape(n, 11, 1)
    index = np.concatenate([(base + slot_of[rows[:, :, None], lo]).ravel(),
                            (base + slot_of[rows[:, :, None], hi]).ravel()])
    flat = contribution.ravel()
    loss = np.bincount(index, np.concatenate([flat, flat]), n * 11 * 12).reshape(n, 11, 12)[:, :, :11]
    # after[b, j, f]: slot f's meld share once slot j's card is thrown.
    after = contribution.sum(axis=2)[:, None, :] - loss.transpose(0, 2, 1)
    unmelded = ~melded_bits[rows, cards]
    points = _POINTS32[cards]
    remaining = unmelded[:, None, :] & ~np.eye(11, dtype=bool)[None]
    row_deadwood = deadwood[:, None] - points.astype(np.int64)
    value = _finish(after, points[:, None, :], _LOW_SHARE32[cards][:, None, :], remaining, row_deadwood, 10, w)

    candidate = unmelded & ~_row_bits(keep)[rows, cards]
    value = np.where(candidate, value, -np.inf)
    best = value.max(axis=1)
    # Forced discard: the highest-deadwood candidate (highest card on ties), if that leaves a knockable hand.
    key = np.where(candidate, points * 64 + cards, -1)
    top = key.argmax(axis=1)
    forced = candidate.any(axis=1) & (row_deadwood[np.arange(n), top] <= MAX_DEADWOOD)
    best = np.where(forced, value[np.arange(n), top], best)

    return _unstuck(best, np.flatnonzero(~candidate.any(axis=1)), hands, keep, blocked, in_opp_meld, w)


def _unstuck(best: np.ndarray, stuck: np.ndarray, hands: np.ndarray, keep: np.ndarray, blocked: int,
             in_opp_meld: np.ndarray, w: UtilityWeights) -> np.ndarray:
    """``best`` with the rows ``stuck`` (nothing unmelded to throw) scored by breaking a meld."""
    if len(stuck):
        best[stuck] = _best_breaking_a_meld(hands[stuck], keep[stuck], blocked, in_opp_meld, w)
    return best


def _best_breaking_a_meld(hands: np.ndarray, keep: np.ndarray, blocked: int, in_opp_meld: np.ndarray,
                          w: UtilityWeights) -> np.ndarray:
    """Best utility over every discard but ``keep`` of fully melded 11-card hands (rare)."""
    bits = ((hands & ~keep)[:, None] >> _BIT_INDEX) & np.uint64(1)
    owner, card = np.nonzero(bits)
    thrown = np.uint64(1) << card.astype(np.uint64)
    after = hands[owner] & ~thrown
    deadwood, melded = deadwood_and_melded_batch(after)
    value = utilities(after, 10, melded, deadwood, np.uint64(blocked) | thrown, in_opp_meld, w)
    best = np.full(len(hands), -np.inf)
    np.maximum.at(best, owner, value)
    return best
