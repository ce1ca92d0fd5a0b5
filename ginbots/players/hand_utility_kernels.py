"""Document 002's hand utility (``hand_utility``) in compiled code (numba, optional extra ``fast``).

The numpy functions mix float32 and float64 and sum with numpy's own orders, so each kernel repeats
them operation for operation to give the same numbers, bit for bit:

- float32 where numpy computes in float32 (the meld shares, ``5 - points``, the weights), float64
  where a float64 operand promotes it (``bincount``'s sums, the averages);
- a sum over fewer than eight values adds them in order; over eight or more (a contiguous last
  axis), it is numpy's pairwise sum: eight partial sums, added in pairs, then the rest in order;
- ``bincount`` adds each bin's weights in the order of the index array.

``tests/test_compiled_playouts.py`` checks the kernels against the numpy functions on many
thousands of hands and whole games. ``use_kernels`` in ``hand_utility`` installs them.
"""

from __future__ import annotations

import sys
from functools import lru_cache

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled hand utility needs numba: pip install 'ginbots[fast]'") from exc

from ginbots.estimators.snapshot_kernels import numpy_sum as _numpy_sum
from ginbots.game.cards import MAX_DEADWOOD
from ginbots.search.kernels import (
    MAX_OPTIONS,
    RUN_DW,
    _low_index,
    _popcount,
    _set_choices,
    _set_state,
    melded_cards,
    min_deadwood,
    suits_and_sets,
)
from ginbots.search.playout_kernels import deadwood_and_melded

from .hand_utility import _LOW_SHARE32, _PAIR_HI_INT, _PAIR_LO_INT, _POINTS32, PAD, UtilityWeights

_F32 = np.float32
_NO_SLOT = 11  # slot_of's value for a card not in the hand (the pad, a card held by nobody here)


@njit(cache=True)
def _cards(hand, out):
    n = 0
    rest = hand
    while rest:
        out[n] = _low_index(rest)
        rest &= rest - 1
        n += 1
    return n


@njit(cache=True, inline="always")  # inlined into its callers' loops
def _slot_shares(hand, block, card, q, meld_bonus, combination_bonus, shares, f):
    """``_meld_contributions`` for one card of ``hand``: per meld through it, its share (float32) into
    ``shares[f]``; returns their float32 sum in order."""
    total = _F32(0.0)
    for m in range(6):
        lo, hi = _PAIR_LO_INT[card, m], _PAIR_HI_INT[card, m]
        has_lo, has_hi = (hand >> lo) & 1, (hand >> hi) & 1
        chance = (_F32(1.0) - q[lo] * _F32(1 - has_lo)) * (_F32(1.0) - q[hi] * _F32(1 - has_hi))
        per_meld = meld_bonus + combination_bonus * _F32(has_lo | has_hi)
        is_open = ((block >> lo) & 1) == 0 and ((block >> hi) & 1) == 0
        share = chance * per_meld * _F32(1.0 if is_open else 0.0)
        shares[f, m] = share
        total += share
    return total


@njit(cache=True)
def _meld_shares(hand, block, cards, n, q, meld_bonus, combination_bonus, shares, totals):
    """``_slot_shares`` for every slot: per slot and meld through its card, the share, and per slot their sum."""
    for f in range(n):
        totals[f] = _slot_shares(hand, block, cards[f], q, meld_bonus, combination_bonus, shares, f)


@njit(cache=True)
def _bonus(deadwood, knock_bonus, gin_bonus):
    if deadwood == 0:
        return gin_bonus
    return knock_bonus if deadwood <= MAX_DEADWOOD else 0.0


@njit(cache=True)
def _is_emergency(deadwood, highest):
    """The document's emergency state: one card (the highest unmelded) from knockable."""
    return deadwood > MAX_DEADWOOD and np.float64(deadwood) - np.float64(highest) <= MAX_DEADWOOD


@njit(cache=True)
def _deadwood_weight(deadwood, highest, deadwood_bonus, emergency_weight):
    return emergency_weight if _is_emergency(deadwood, highest) else deadwood_bonus


@njit(cache=True)
def _utilities_into(hands, size, melded, deadwood, blocked, q, weights32, weights64, out):
    meld_bonus, combination_bonus, deadwood_bonus, emergency_weight, low_card_bonus = weights32
    knock_bonus, gin_bonus = weights64
    cards = np.empty(64, dtype=np.int64)
    shares = np.empty((64, 6), dtype=np.float32)
    totals = np.empty(64, dtype=np.float32)
    utility = np.empty(64, dtype=np.float32)
    for b in range(len(hands)):
        hand, melds = np.int64(hands[b]), np.int64(melded[b])
        n = _cards(hand, cards)
        _meld_shares(hand, melds | np.int64(blocked[b]) | (np.int64(1) << PAD), cards, n, q, meld_bonus,
                     combination_bonus, shares, totals)
        highest = _F32(0.0)
        unmelded = 0
        for f in range(n):
            if not (melds >> cards[f]) & 1:
                unmelded += 1
                highest = max(highest, _POINTS32[cards[f]])
        weight = _deadwood_weight(deadwood[b], highest, deadwood_bonus, emergency_weight)
        for f in range(n):
            card = cards[f]
            value = totals[f] + (_F32(5.0) - _POINTS32[card]) * weight + low_card_bonus * _LOW_SHARE32[card]
            utility[f] = value * _F32(0.0 if (melds >> card) & 1 else 1.0)
        average = np.float64(_numpy_sum(utility, n)) / max(1, unmelded)
        out[b] = average + (size - unmelded) + _bonus(deadwood[b], knock_bonus, gin_bonus)


@njit(cache=True)
def _best_after_discard_into(hands, keep, blocked, q, weights32, weights64, out, stuck):
    meld_bonus, combination_bonus, deadwood_bonus, emergency_weight, low_card_bonus = weights32
    knock_bonus, gin_bonus = weights64
    cards = np.empty(11, dtype=np.int64)
    shares = np.empty((11, 6), dtype=np.float32)
    loss = np.empty((11, 11), dtype=np.float64)  # [slot j thrown, slot f]: f's share lost
    slot_of = np.empty(PAD + 1, dtype=np.int64)
    utility = np.empty(11, dtype=np.float64)
    free = np.empty(11, dtype=np.bool_)
    total64, low_term = np.empty(11), np.empty(11)
    term = np.empty((2, 11))  # plain, emergency
    for b in range(len(hands)):
        hand = np.int64(hands[b])
        deadwood, melds = deadwood_and_melded(hand)
        _cards(hand, cards)
        block = melds | np.int64(blocked) | (np.int64(1) << PAD)
        slot_of[:] = _NO_SLOT
        for f in range(11):
            slot_of[cards[f]] = f
        loss[:, :] = 0.0
        # the unmelded slots' highest points, how many hold them and the next highest below: the
        # highest unmelded card left after a throw, without a pass over the hand for every throw
        unmelded, top, top_count, second = 0, _F32(0.0), 0, _F32(0.0)
        for f in range(11):
            card = cards[f]
            free[f] = not (melds >> card) & 1
            term[0, f] = np.float64((_F32(5.0) - _POINTS32[card]) * deadwood_bonus)
            term[1, f] = np.float64((_F32(5.0) - _POINTS32[card]) * emergency_weight)
            low_term[f] = np.float64(low_card_bonus * _LOW_SHARE32[card])
            if not free[f]:
                continue
            unmelded += 1
            # the shares of the unmelded slots only: a melded slot's value is never summed
            total64[f] = np.float64(_slot_shares(hand, block, card, q, meld_bonus, combination_bonus, shares, f))
            points = _POINTS32[card]
            if points > top:
                top, top_count, second = points, 1, top
            elif points == top:
                top_count += 1
            elif points > second:
                second = points
            for m in range(6):  # bincount's order: every meld's low card first, then every high card
                j = slot_of[_PAIR_LO_INT[card, m]]
                if j != _NO_SLOT:
                    loss[j, f] += np.float64(shares[f, m])
            for m in range(6):
                j = slot_of[_PAIR_HI_INT[card, m]]
                if j != _NO_SLOT:
                    loss[j, f] += np.float64(shares[f, m])
        best, top_key, top_slot, forced_value = -np.inf, -1, 0, 0.0
        any_candidate = False
        kept = unmelded - 1
        for j in range(11):
            thrown = cards[j]
            if not free[j] or (keep[b] >> np.uint64(thrown)) & np.uint64(1):
                continue
            left = deadwood - np.int64(_POINTS32[thrown])
            highest = top if (_POINTS32[thrown] != top or top_count > 1) else second
            e = 1 if _is_emergency(left, highest) else 0
            for f in range(11):
                if f != j and free[f]:
                    utility[f] = ((total64[f] - loss[j, f]) + term[e, f]) + low_term[f]
                else:
                    utility[f] = 0.0
            average = _numpy_sum(utility, 11) / max(1, kept)
            value = average + (10 - kept) + _bonus(left, knock_bonus, gin_bonus)
            any_candidate = True
            best = max(best, value)
            key = np.int64(_POINTS32[thrown]) * 64 + thrown
            if key > top_key:
                top_key, top_slot, forced_value = key, j, value
        stuck[b] = not any_candidate
        if any_candidate and deadwood - np.int64(_POINTS32[cards[top_slot]]) <= MAX_DEADWOOD:
            best = forced_value
        out[b] = best


@njit(cache=True)
def _stock_draw_hands_into(opponents, pile, uniforms, draws, out):
    """Per row, the unseen cards of the ``draws`` highest uniforms, highest first, each added to the hand;
    False where a row has too few unseen cards or a tie among them decides (``argsort``'s own order)."""
    top_value = np.empty(draws + 1)
    top_card = np.empty(draws + 1, dtype=np.int64)
    for r in range(len(opponents)):
        size = 0
        seen = opponents[r] | pile
        for c in range(uniforms.shape[1]):
            if (seen >> np.uint64(c)) & np.uint64(1):
                continue
            value = uniforms[r, c]
            if size == draws + 1 and value <= top_value[draws]:
                if value == top_value[draws]:
                    return False
                continue
            t = min(size, draws)  # insert in descending order, dropping the last once full
            while t > 0 and top_value[t - 1] < value:
                top_value[t], top_card[t] = top_value[t - 1], top_card[t - 1]
                t -= 1
            if t > 0 and top_value[t - 1] == value:
                return False
            top_value[t], top_card[t] = value, c
            size = min(size + 1, draws + 1)
        if size < draws + 1 or top_value[draws - 1] == top_value[draws]:
            return False
        for t in range(draws):
            out[r * draws + t] = np.uint64(opponents[r]) | (np.uint64(1) << np.uint64(top_card[t]))
    return True


def stock_draw_hands(opponents: np.ndarray, pile: int, uniforms: np.ndarray, draws: int) -> np.ndarray | None:
    """``hand_utility.stock_draw_hands``, or None where ``argsort``'s order among ties would decide."""
    out = np.empty(len(opponents) * draws, dtype=np.uint64)
    ok = _stock_draw_hands_into(np.ascontiguousarray(opponents, dtype=np.uint64), np.uint64(pile),
                                np.ascontiguousarray(uniforms, dtype=np.float64), np.int64(draws), out)
    return out if ok else None


@lru_cache(maxsize=64)  # a player asks with the same weights at every decision
def _weights(w: UtilityWeights) -> tuple[tuple[np.float32, ...], tuple[float, float]]:
    """The weights as numpy makes them: float32 where it casts them, float64 where it keeps them."""
    return ((_F32(w.meld_bonus), _F32(w.combination_bonus), _F32(w.deadwood_bonus),
             _F32(w.deadwood_bonus * w.emergency_booster), _F32(w.low_card_bonus)),
            (float(w.knock_bonus), float(w.gin_bonus)))


def utilities(hands: np.ndarray, size: int, melded: np.ndarray, deadwood: np.ndarray, blocked: int | np.ndarray,
              in_opp_meld: np.ndarray, w: UtilityWeights) -> np.ndarray:
    """``hand_utility.utilities``, the same numbers."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    n = len(hands)
    blocked = np.ascontiguousarray(np.broadcast_to(np.asarray(blocked, dtype=np.uint64), (n,)))
    out = np.empty(n)
    _utilities_into(hands, np.int64(size), np.ascontiguousarray(melded, dtype=np.uint64),
                    np.ascontiguousarray(np.broadcast_to(np.asarray(deadwood, dtype=np.int64), (n,))), blocked,
                    np.asarray(in_opp_meld, dtype=np.float64).astype(np.float32), *_weights(w), out)
    return out


def best_after_discard(hands: np.ndarray, keep: np.ndarray, blocked: int, in_opp_meld: np.ndarray,
                       w: UtilityWeights) -> tuple[np.ndarray, np.ndarray]:
    """``hand_utility.best_after_discard`` for 11-card hands: (values, the rows with nothing unmelded
    to throw, whose values the caller computes by breaking a meld)."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    out = np.empty(len(hands))
    stuck = np.zeros(len(hands), dtype=np.bool_)
    _best_after_discard_into(hands, np.ascontiguousarray(keep, dtype=np.uint64), np.int64(blocked),
                             np.asarray(in_opp_meld, dtype=np.float64).astype(np.float32), *_weights(w), out, stuck)
    return out, stuck


@njit(cache=True)
def _meldings_into(hand, out):
    """The distinct card sets melded by ``hand``'s minimum-deadwood meld sets, ascending, into ``out``:
    ``sorted({sum(melds) for melds in melds.best_meld_sets(hand)})``. Within a suit every optimal run
    covering melds the same cards (each block of three or more in a row), so a set choice's cards are
    its sets plus each suit's ``RUN_MELDED_TABLE``. Returns (how many, the least deadwood)."""
    c, h, s, d, sets = suits_and_sets(hand)
    if sets == 0:
        out[0] = melded_cards(c, h, s, d, c, h, s, d)
        return 1, RUN_DW[c] + RUN_DW[h] + RUN_DW[s] + RUN_DW[d]
    target = min_deadwood(hand)
    n = 0
    for index in range(_set_choices(c, h, s, d, sets)):
        a, b, x, y = _set_state(c, h, s, d, sets, index)
        if RUN_DW[a] + RUN_DW[b] + RUN_DW[x] + RUN_DW[y] != target:
            continue
        covered = melded_cards(c, h, s, d, a, b, x, y)
        seen = False
        for t in range(n):
            if out[t] == covered:
                seen = True
                break
        if seen:
            continue
        u = n - 1
        while u >= 0 and out[u] > covered:
            out[u + 1] = out[u]
            u -= 1
        out[u + 1] = covered
        n += 1
    return n, target


@njit(cache=True)
def _best_melding_utility(hand, blocked, q, weights32, weights64):
    meldings = np.empty(MAX_OPTIONS, dtype=np.int64)
    n, deadwood = _meldings_into(hand, meldings)
    hands = np.full(n, np.uint64(hand))
    melded = meldings[:n].astype(np.uint64)
    out = np.empty(n)
    _utilities_into(hands, _popcount(hand), melded, np.full(n, deadwood), np.full(n, np.uint64(blocked)), q,
                    weights32, weights64, out)
    return out.max()


def best_melding_utility(hand: int, blocked: int, in_opp_meld: np.ndarray, w: UtilityWeights) -> float:
    """``hand_utility.best_melding_utility`` in one compiled call, the same number."""
    return float(_best_melding_utility(np.int64(hand), np.int64(blocked),
                                       np.asarray(in_opp_meld, dtype=np.float64).astype(np.float32), *_weights(w)))


def warm_up() -> None:
    """Compile (or load from numba's cache) both kernels and install them in ``hand_utility`` for this
    process: the same numbers, faster."""
    from . import hand_utility

    w, q = UtilityWeights(), np.zeros(PAD + 1)
    hand = np.array([0b11111111111], dtype=np.uint64)
    best_after_discard(hand, np.zeros(1, dtype=np.uint64), 0, q, w)
    utilities(hand >> np.uint64(1), 10, np.zeros(1, dtype=np.uint64), np.array([10]), 0, q, w)
    best_melding_utility(0b111 | 0b111 << 13 | 1 << 26 | 1 << 39, 0, q, w)
    stock_draw_hands(hand, 1 << 40, np.linspace(0, 0.9, 52)[None], 4)
    hand_utility.use_kernels(sys.modules[__name__])
