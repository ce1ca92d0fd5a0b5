"""The playouts of ``ginbots.search.rollout`` in compiled code (numba, optional extra ``fast``).

Each kernel follows its pure-Python twin line for line, ties included, so that both give the
same points on every world (``tests/test_compiled_playouts.py`` checks them side by side on many
thousands of worlds); ``ginbots.search.playouts`` picks one of the two paths.

A batch kernel evaluates one option of a searched decision on a slice of the decision's worlds:
the opponent hands ``opps``, the stock orders ``orders`` (row ``i`` holds ``lens[i]`` cards).
"""

from __future__ import annotations

from itertools import permutations
from typing import Sequence

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled playouts need numba: pip install 'ginbots[fast]'") from exc

from ginbots.game.cards import GIN_BONUS, UNDERCUT_BONUS, cards_of

from .kernels import (
    CARD_PTS,
    COVER_LEN,
    COVER_RUNS,
    COVER_START,
    _canonical_before,
    MAX_MELDS,
    MELD_PAIR_COUNT,
    MELD_PAIR_MASKS,
    _low_index,
    _points,
    discard_deadwoods,
    first_best_state,
    is_meld,
    melded_cards,
    min_deadwood,
    suits_and_sets,
)
from .rollout import MAX_PLAYOUT_TURNS

#: ``MELD_PAIR_MASKS`` (six slots: at most three runs and three sets through a card) with every unused
#: slot holding bit 62, a card no hand holds.
_PAIR_SLOTS = np.where(np.arange(MELD_PAIR_MASKS.shape[1])[None, :] < MELD_PAIR_COUNT[:, None], MELD_PAIR_MASKS,
                       np.int64(1) << 62)

#: Option kinds of ``evaluate`` (one per kind of option the champion plays out).
PLAY, PLAY_OR_KNOCK, AFTER_DISCARD, AFTER_STOCK_DRAW, KNOCK = range(5)


@njit(cache=True)
def deadwood_and_melded(hand):
    """``melds.deadwood_and_melded``: (least deadwood, the cards of the first optimal set choice's melds)."""
    best, a, b, x, y = first_best_state(hand)
    c, h, s, d, _ = suits_and_sets(hand)
    return best, melded_cards(c, h, s, d, a, b, x, y)


@njit(cache=True)
def _deadwood_and_melded_into(hands, deadwood, melded):
    for i in range(len(hands)):
        deadwood[i], covered = deadwood_and_melded(np.int64(hands[i]))
        melded[i] = np.uint64(covered)


def deadwood_and_melded_batch(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``melds_batch.deadwood_and_melded_batch`` (uint64 hands in; int64 deadwood, uint64 melded cards out)."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    deadwood = np.empty(len(hands), dtype=np.int64)
    melded = np.empty(len(hands), dtype=np.uint64)
    _deadwood_and_melded_into(hands, deadwood, melded)
    return deadwood, melded


@njit(cache=True)
def best_meld_set(hand, out):
    """``melds.best_meld_set`` into ``out``: the first optimal set choice, each suit's first run
    covering, in canonical order; returns how many melds."""
    _, a, b, x, y = first_best_state(hand)
    full = (hand & 8191, (hand >> 13) & 8191, (hand >> 26) & 8191, (hand >> 39) & 8191)
    left = (a, b, x, y)
    ranks = (full[0] & ~a) | (full[1] & ~b) | (full[2] & ~x) | (full[3] & ~y)
    n = 0
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        meld = 0
        for suit in range(4):
            if (full[suit] & ~left[suit]) & bit:
                meld |= bit << (13 * suit)
        out[n] = meld
        n += 1
    for suit in range(4):
        row = COVER_START[left[suit]]
        for t in range(COVER_LEN[row]):
            out[n] = COVER_RUNS[row, t] << (13 * suit)
            n += 1
    for t in range(1, n):  # ``melds._canonical``
        value = out[t]
        u = t - 1
        while u >= 0 and _canonical_before(value, out[u]):
            out[u + 1] = out[u]
            u -= 1
        out[u + 1] = value
    return n


@njit(cache=True)
def completes_meld(card, hand):
    """``cards.completes_meld``: all six pair slots tested and OR-ed, without an early exit the data
    would make unpredictable (an unused slot holds a card no hand has)."""
    found = False
    for t in range(6):
        pair = _PAIR_SLOTS[card, t]
        found |= hand & pair == pair
    return found


@njit(cache=True)
def simple_discard(hand, banned):
    """``rollout.simple_discard``: (card, deadwood after), scanning cards in the same order."""
    deadwood, melded = deadwood_and_melded(hand)
    best_card, best_dw, best_pts = -1, 1 << 30, -1
    rest = hand & ~melded
    while rest:
        card = _low_index(rest)
        rest &= rest - 1
        if card != banned and CARD_PTS[card] > best_pts:
            best_card, best_dw, best_pts = card, deadwood - CARD_PTS[card], CARD_PTS[card]
    rest = hand & melded
    while rest:
        card = _low_index(rest)
        rest &= rest - 1
        points = CARD_PTS[card]
        if card == banned or points < best_pts or deadwood - points > best_dw:
            continue
        after = min_deadwood(hand ^ (np.int64(1) << card))
        if after < best_dw or (after == best_dw and points > best_pts):
            best_card, best_dw, best_pts = card, after, points
    return best_card, best_dw


@njit(cache=True)
def guarded_discard(hand, banned, other, slack):
    """``rollout.guarded_discard``: (card, deadwood after), scanning cards in the same order."""
    card, deadwood = simple_discard(hand, banned)
    if slack < 0 or not completes_meld(card, other):
        return card, deadwood
    best_card, best_dw, best_pts = card, deadwood, -1
    afters = np.empty(52, dtype=np.int64)
    discard_deadwoods(hand, afters)
    rest = hand
    while rest:
        safe = _low_index(rest)
        rest &= rest - 1
        after = afters[safe]
        if safe == banned or completes_meld(safe, other) or after > deadwood + slack:
            continue
        points = CARD_PTS[safe]
        if best_pts < 0 or after < best_dw or (after == best_dw and points > best_pts):
            best_card, best_dw, best_pts = safe, after, points
    return best_card, best_dw


def discard_deadwoods_list(hand: int) -> list[tuple[int, int]]:
    """``melds.discard_deadwoods``: (card, least deadwood without it) for each card of ``hand``, ascending."""
    out = np.empty(52, dtype=np.int64)
    discard_deadwoods(np.int64(hand), out)
    return [(c, int(out[c])) for c in cards_of(hand)]


@njit(cache=True)
def lay_off(unmelded, work, n):
    """``rules.lay_off``: lowest card first, melds ``work[:n]`` in declared order (grown in place), rescan
    after each; returns the cards left unmelded."""
    found = True
    while found:
        found = False
        rest = unmelded
        while rest and not found:
            low = rest & -rest
            rest ^= low
            for t in range(n):
                if is_meld(work[t] | low):
                    work[t] |= low
                    unmelded ^= low
                    found = True
                    break
    return unmelded


@njit(cache=True)
def _min_layoff_choice(melds, sizes, opponents, orders, order_start, order_count):
    """``tactics.knock_melds_min_layoffs``'s search: (option, order) of the meld sets ``melds[o, :sizes[o]]``
    and their orders (``orders[order_start[k]:][:order_count[k]]`` for k melds; one order above four)
    leaving the opponents' undeclared cards fewest layoff points, the first on ties."""
    leftovers = np.empty(len(opponents), dtype=np.int64)
    for i in range(len(opponents)):
        hand = np.int64(opponents[i])
        leftovers[i] = hand & ~deadwood_and_melded(hand)[1]
    work = np.empty(melds.shape[1], dtype=np.int64)
    best_cost, best_option, best_order = -1, 0, 0
    for o in range(len(melds)):
        k = sizes[o]
        for p in range(order_count[k] if k < len(order_count) else 1):
            cost = 0
            for left in leftovers:
                for t in range(k):
                    work[t] = melds[o, orders[order_start[k] + p, t]] if k < len(order_count) else melds[o, t]
                cost += _points(left) - _points(lay_off(left, work, k))
            if best_cost < 0 or cost < best_cost:
                best_cost, best_option, best_order = cost, o, p
    return best_option, best_order


def _order_tables(most: int = 4) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``itertools.permutations(range(k))`` for k = 0..most, stacked: (orders, first row, count) per k."""
    rows = [list(p) + [0] * (most - k) for k in range(most + 1) for p in permutations(range(k))]
    counts = [len(list(permutations(range(k)))) for k in range(most + 1)]
    return (np.array(rows, dtype=np.int64).reshape(-1, most), np.cumsum([0] + counts[:-1]).astype(np.int64),
            np.array(counts, dtype=np.int64))


_ORDERS, _ORDER_START, _ORDER_COUNT = _order_tables()


def knock_melds_min_layoffs(options: list[tuple[int, ...]], opponent_hands: Sequence[int]) -> tuple[int, ...]:
    """``tactics.knock_melds_min_layoffs`` past its shortcuts: of the optimal meld sets ``options`` and
    their orders, the one leaving the sampled opponents fewest layoff points (first found on ties)."""
    width = max(1, max(len(option) for option in options))
    melds = np.zeros((len(options), width), dtype=np.int64)
    for o, option in enumerate(options):
        melds[o, :len(option)] = option
    sizes = np.array([len(option) for option in options], dtype=np.int64)
    o, p = _min_layoff_choice(melds, sizes, np.array(opponent_hands, dtype=np.uint64), _ORDERS, _ORDER_START,
                              _ORDER_COUNT)
    option = options[o]
    if len(option) >= len(_ORDER_COUNT):
        return tuple(option)
    return tuple(option[t] for t in _ORDERS[_ORDER_START[len(option)] + p, :len(option)])


@njit(cache=True)
def knock_points(knocker, defender, melds, n_melds, work):
    """``rollout.knock_points``: the knocker's signed points. ``n_melds`` < 0: the knocker declares
    ``melds.best_meld_set``; ``work`` is scratch for the melds as layoffs grow them."""
    if n_melds < 0:
        n = best_meld_set(knocker, work)
    else:
        n = n_melds
        for t in range(n):
            work[t] = melds[t]
    covered = 0
    for t in range(n):
        covered |= work[t]
    knocker_dw = _points(knocker & ~covered)
    if knocker_dw == 0:
        return GIN_BONUS + min_deadwood(defender)
    _, melded = deadwood_and_melded(defender)
    defender_dw = _points(lay_off(defender & ~melded, work, n))
    if knocker_dw < defender_dw:
        return defender_dw - knocker_dw
    return -(UNDERCUT_BONUS + knocker_dw - defender_dw)


@njit(cache=True)
def play_out(us, them, order, start, length, top, mover, knock0, knock1, defence, work):
    """``rollout.play_out``: points for ``us``; ``order[start:length]`` is the stock, top first."""
    h0, h1 = us, them
    end = length - 2
    pos = start
    for _ in range(MAX_PLAYOUT_TURNS):
        if pos >= end:
            break
        hand = h0 if mover == 0 else h1
        if completes_meld(top, hand):
            drawn = top
            banned = top
        else:
            drawn = order[pos]
            pos += 1
            banned = -1
        hand |= np.int64(1) << drawn
        if mover == 1 and defence >= 0:
            card, deadwood = guarded_discard(hand, banned, h0, defence)
        else:
            card, deadwood = simple_discard(hand, banned)
        hand ^= np.int64(1) << card
        if mover == 0:
            h0 = hand
        else:
            h1 = hand
        top = card
        if deadwood <= (knock0 if mover == 0 else knock1):
            points = knock_points(hand, h1 if mover == 0 else h0, work, -1, work)
            return points if mover == 0 else -points
        mover ^= 1
    return 0


@njit(cache=True)
def evaluate(kind, hand, deadwood, card, margin, melds, n_melds, opps, orders, lens, lo, hi, knock0, knock1, defence,
             out):
    """One option's points on worlds ``lo:hi`` into ``out[:hi - lo]`` (see ``playouts.WorldPlayouts``)."""
    work = np.zeros(MAX_MELDS, dtype=np.int64)
    for i in range(lo, hi):
        opp = opps[i]
        order = orders[i]
        length = lens[i]
        if kind == PLAY:
            value = float(play_out(hand, opp, order, 0, length, card, 1, knock0, knock1, defence, work))
        elif kind == PLAY_OR_KNOCK:
            value = float(play_out(hand, opp, order, 0, length, card, 1, knock0, knock1, defence, work))
            knocked = knock_points(hand, opp, melds, -1, work) - margin
            if knocked > value:
                value = knocked
        elif kind == AFTER_DISCARD:
            if deadwood <= knock0:
                value = float(knock_points(hand, opp, melds, -1, work))
            else:
                value = float(play_out(hand, opp, order, 0, length, card, 1, knock0, knock1, defence, work))
        elif kind == AFTER_STOCK_DRAW:
            if length <= 2:
                value = 0.0
            else:
                drawn = hand | np.int64(1) << order[0]
                throw, after = simple_discard(drawn, -1)
                kept = drawn ^ np.int64(1) << throw
                if after <= knock0:
                    value = float(knock_points(kept, opp, melds, -1, work))
                else:
                    value = float(play_out(kept, opp, order, 1, length, throw, 1, knock0, knock1, defence, work))
        else:  # KNOCK with the given melds
            value = float(knock_points(hand, opp, melds, n_melds, work))
        out[i - lo] = value
    return out
