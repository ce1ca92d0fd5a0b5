"""Compiled meld solver (numba, optional extra ``fast``): the hot kernels of playouts and self-play.

Each function equals a pure-Python one of ``ginbots.game.melds`` / ``ginbots.game.rules`` (named in
its docstring) on the same inputs; ``tests/test_selfplay.py`` and ``tests/test_compiled_playouts.py``
check them side by side. Hands are 52-bit ints (int64 here), as everywhere in the bundle.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled kernels need numba: pip install 'ginbots[fast]'") from exc

from ginbots.game.cards import CARD_POINTS, MELD_PAIRS, SUIT_POINTS
from ginbots.game.melds import RUN_DEADWOOD, RUN_MELDED, run_coverings

_U = np.uint64

#: Room for meld-set choices of one hand (11 cards have far fewer) and melds per choice.
MAX_OPTIONS = 1024
MAX_MELDS = 8


def _tables() -> tuple[np.ndarray, ...]:
    run_dw = np.array(RUN_DEADWOOD, dtype=np.int64)
    suit_points = np.array(SUIT_POINTS, dtype=np.int64)
    starts = np.zeros(8193, dtype=np.int64)
    runs: list[list[int]] = []
    for mask in range(8192):
        starts[mask] = len(runs)
        for cover in run_coverings(mask):
            runs.append(list(cover) + [0] * (4 - len(cover)))
    starts[8192] = len(runs)
    cover_runs = np.array(runs, dtype=np.int64)
    cover_len = (cover_runs != 0).sum(axis=1).astype(np.int64)
    width = max(len(p) for p in MELD_PAIRS)
    pairs = np.zeros((52, width), dtype=np.int64)
    pair_count = np.zeros(52, dtype=np.int64)
    for card, found in enumerate(MELD_PAIRS):
        pairs[card, :len(found)] = found
        pair_count[card] = len(found)
    return run_dw, suit_points, starts, cover_runs, cover_len, pairs, pair_count


RUN_DW, SUIT_PTS, COVER_START, COVER_RUNS, COVER_LEN, MELD_PAIR_MASKS, MELD_PAIR_COUNT = _tables()
RUN_MELDED_TABLE = np.array(RUN_MELDED, dtype=np.int64)
CARD_PTS = np.array(CARD_POINTS, dtype=np.int64)


# --- melds ------------------------------------------------------------------------------------

@njit(cache=True)
def _popcount(x):
    v = _U(x)
    v = v - ((v >> _U(1)) & _U(0x5555555555555555))
    v = (v & _U(0x3333333333333333)) + ((v >> _U(2)) & _U(0x3333333333333333))
    v = (v + (v >> _U(4))) & _U(0x0F0F0F0F0F0F0F0F)
    return np.int64((v * _U(0x0101010101010101)) >> _U(56))


@njit(cache=True)
def _low_index(x):
    """Index of the lowest set bit of a non-zero ``x``."""
    return np.int64(trailing_zeros(x))


@njit(cache=True)
def _points(mask):
    return (SUIT_PTS[mask & 8191] + SUIT_PTS[(mask >> 13) & 8191] + SUIT_PTS[(mask >> 26) & 8191]
            + SUIT_PTS[(mask >> 39) & 8191])


@njit(cache=True)
def _set_choices(c, h, s, d, sets):
    """How many ways the candidate set ranks can be used: 6 for a rank of four cards, 2 for three."""
    total = 1
    rest = sets
    while rest:
        bit = rest & -rest
        rest ^= bit
        total *= 6 if c & h & s & d & bit else 2
    return total


@njit(cache=True)
def _set_state(c, h, s, d, sets, index, highest_first=False):
    """The suit masks left by choice ``index`` of ``_set_choices``: per rank no set, the whole
    set, or (four cards) the 3-set that leaves one suit's card for a run. The lowest candidate
    rank is the least significant digit of ``index``, or with ``highest_first`` the most
    significant (``melds._set_states`` order)."""
    quads = c & h & s & d
    rest = sets
    while rest:
        bit = np.int64(1) << (63 - leading_zeros(rest)) if highest_first else rest & -rest
        rest ^= bit
        if quads & bit:
            digit = index % 6
            index //= 6
        else:
            digit = index & 1
            index >>= 1
        c, h, s, d = _choose_set(c, h, s, d, bit, digit)
    return c, h, s, d


@njit(cache=True)
def suits_and_sets(hand):
    """(the four 13-bit suit masks, clubs first; the ranks held in three or more suits)."""
    c = hand & 8191
    h = (hand >> 13) & 8191
    s = (hand >> 26) & 8191
    d = (hand >> 39) & 8191
    return c, h, s, d, (c & h & (s | d)) | (s & d & (c | h))


@njit(cache=True)
def melded_cards(c, h, s, d, a, b, x, y):
    """The cards melded when the suit masks ``c, h, s, d`` leave ``a, b, x, y`` to runs once the chosen
    sets are out: the sets' cards and each suit's run-melded cards (every optimal run covering of a
    suit melds the same cards)."""
    return (((c & ~a) | RUN_MELDED_TABLE[a]) | ((h & ~b) | RUN_MELDED_TABLE[b]) << 13
            | ((s & ~x) | RUN_MELDED_TABLE[x]) << 26 | ((d & ~y) | RUN_MELDED_TABLE[y]) << 39)


@njit(cache=True)
def first_best_state(hand):
    """(least deadwood, the four suit masks left by the first optimal set choice) in ``melds._set_states``
    order, where the hand's sets are chosen as ``melds.deadwood_and_melded`` and ``best_meld_set`` do
    (the least deadwood alone is ``min_deadwood``).

    ``_set_states`` grows its list rank by rank (lowest rank first, each state's children in
    order: no set, the whole set, then a 3-set keeping clubs, hearts, spades or diamonds), so the
    lowest candidate rank is the most significant digit of a choice's index. A hand of up to 11
    cards has at most three candidate ranks: their choices are nested loops in that order, each
    state built from its parent's masks; more ranks take the general loop.
    """
    c, h, s, d, sets = suits_and_sets(hand)
    if sets == 0:
        return RUN_DW[c] + RUN_DW[h] + RUN_DW[s] + RUN_DW[d], c, h, s, d
    rest = sets
    low = rest & -rest
    rest ^= low
    mid = rest & -rest
    rest ^= mid
    high = rest & -rest
    if rest ^ high:
        return _first_best_state_by_index(c, h, s, d, sets)
    quads = c & h & s & d
    best = 1 << 30
    ba, bb, bx, by = c, h, s, d
    for d0 in range(6 if quads & low else 2):
        c0, h0, s0, e0 = _choose_set(c, h, s, d, low, d0)
        for d1 in range(1 if mid == 0 else 6 if quads & mid else 2):
            c1, h1, s1, e1 = _choose_set(c0, h0, s0, e0, mid, d1)
            for d2 in range(1 if high == 0 else 6 if quads & high else 2):
                a, b, x, y = _choose_set(c1, h1, s1, e1, high, d2)
                best, ba, bb, bx, by = _keep_first_best(best, ba, bb, bx, by, a, b, x, y)
    return best, ba, bb, bx, by


@njit(cache=True, inline="always")
def _keep_first_best(best, ba, bb, bx, by, a, b, x, y):
    """The state ``a, b, x, y`` with its deadwood if it is lower than ``best``, else the best so far."""
    value = RUN_DW[a] + RUN_DW[b] + RUN_DW[x] + RUN_DW[y]
    if value < best:
        return value, a, b, x, y
    return best, ba, bb, bx, by


@njit(cache=True)
def _choose_set(c, h, s, d, bit, digit):
    """The suit masks once rank ``bit`` takes choice ``digit``: no set, the whole set, or the 3-set
    keeping suit ``digit - 2``'s card (``_set_state``'s digits)."""
    if digit == 1:
        return c & ~bit, h & ~bit, s & ~bit, d & ~bit
    if digit >= 2:
        keep = digit - 2
        return (c if keep == 0 else c & ~bit, h if keep == 1 else h & ~bit, s if keep == 2 else s & ~bit,
                d if keep == 3 else d & ~bit)
    return c, h, s, d


@njit(cache=True)
def _first_best_state_by_index(c, h, s, d, sets):
    """``first_best_state`` for any number of candidate ranks, choice by choice from its index."""
    best = 1 << 30
    ba, bb, bx, by = c, h, s, d
    for index in range(_set_choices(c, h, s, d, sets)):
        a, b, x, y = _set_state(c, h, s, d, sets, index, True)
        best, ba, bb, bx, by = _keep_first_best(best, ba, bb, bx, by, a, b, x, y)
    return best, ba, bb, bx, by


@njit(cache=True)
def min_deadwood(hand):
    """``melds.min_deadwood``."""
    return first_best_state(hand)[0]


@njit(cache=True)
def discard_deadwoods(hand, out):
    """``out[card]`` = ``min_deadwood(hand without card)`` for every card of ``hand`` (``melds.discard_outcomes``);
    returns ``min_deadwood(hand)``.

    A discard changes only its own suit's run term, so each set choice costs one
    look-up per card; a choice that puts the card in a set is skipped (its
    hand-minus-card counterpart is another choice, as in ``discard_outcomes``).
    """
    c, h, s, d, sets = suits_and_sets(hand)
    if sets == 0:
        left = (c, h, s, d)
        total = RUN_DW[c] + RUN_DW[h] + RUN_DW[s] + RUN_DW[d]
        for suit in range(4):
            m = left[suit]
            base = total - RUN_DW[m]
            rest = m
            while rest:
                rank = _low_index(rest)
                rest &= rest - 1
                out[13 * suit + rank] = base + RUN_DW[m ^ (1 << rank)]
        return total
    whole = 1 << 30
    rest = hand
    while rest:
        out[_low_index(rest)] = 1 << 30
        rest &= rest - 1
    for index in range(_set_choices(c, h, s, d, sets)):
        left = _set_state(c, h, s, d, sets, index)
        total = RUN_DW[left[0]] + RUN_DW[left[1]] + RUN_DW[left[2]] + RUN_DW[left[3]]
        if total < whole:
            whole = total
        for suit in range(4):
            m = left[suit]
            base = total - RUN_DW[m]
            rest = m
            while rest:
                rank = _low_index(rest)
                rest &= rest - 1
                value = base + RUN_DW[m ^ (1 << rank)]
                if value < out[13 * suit + rank]:
                    out[13 * suit + rank] = value
    return whole


@njit(cache=True)
def _canonical_before(a, b):
    """``melds._canonical`` order: lowest card, then size, then the mask."""
    la, lb = _low_index(a), _low_index(b)
    if la != lb:
        return la < lb
    pa, pb = _popcount(a), _popcount(b)
    if pa != pb:
        return pa < pb
    return a < b


@njit(cache=True)
def _row_before(options, lens, i, j):
    """Python tuple order of two meld sets (rows of ``options``)."""
    n = min(lens[i], lens[j])
    for t in range(n):
        if options[i, t] != options[j, t]:
            return options[i, t] < options[j, t]
    return lens[i] < lens[j]


@njit(cache=True)
def best_meld_sets(hand, options, lens):
    """``melds.best_meld_sets`` into ``options`` / ``lens`` (same order); returns how many."""
    c, h, s, d, sets = suits_and_sets(hand)
    if sets == 0 and (COVER_START[c + 1] - COVER_START[c]) * (COVER_START[h + 1] - COVER_START[h]) \
            * (COVER_START[s + 1] - COVER_START[s]) * (COVER_START[d + 1] - COVER_START[d]) == 1:
        # Runs only, one covering per suit: the common knock, a single option.
        n = 0
        for suit in range(4):
            row = COVER_START[(hand >> (13 * suit)) & 8191]
            for t in range(COVER_LEN[row]):
                value = COVER_RUNS[row, t] << (13 * suit)
                u = n - 1
                while u >= 0 and _canonical_before(value, options[0, u]):
                    options[0, u + 1] = options[0, u]
                    u -= 1
                options[0, u + 1] = value
                n += 1
        lens[0] = n
        return 1
    target = min_deadwood(hand)
    count = 0
    for index in range(_set_choices(c, h, s, d, sets)):
        a, b, x, y = _set_state(c, h, s, d, sets, index)
        if RUN_DW[a] + RUN_DW[b] + RUN_DW[x] + RUN_DW[y] != target:
            continue
        removed = (c & ~a) | (h & ~b) | (s & ~x) | (d & ~y)
        n_a = COVER_START[a + 1] - COVER_START[a]
        n_b = COVER_START[b + 1] - COVER_START[b]
        n_x = COVER_START[x + 1] - COVER_START[x]
        n_y = COVER_START[y + 1] - COVER_START[y]
        for combo in range(n_a * n_b * n_x * n_y):
            if count >= MAX_OPTIONS:
                raise ValueError("too many optimal meld sets")
            n = 0
            ranks = removed
            while ranks:
                bit = ranks & -ranks
                ranks ^= bit
                options[count, n] = ((c & ~a & bit) | (h & ~b & bit) << 13 | (s & ~x & bit) << 26
                                     | (d & ~y & bit) << 39)
                n += 1
            rest = combo
            for suit in range(4):
                mask = a if suit == 0 else (b if suit == 1 else (x if suit == 2 else y))
                width = COVER_START[mask + 1] - COVER_START[mask]
                row = COVER_START[mask] + rest % width
                rest //= width
                for t in range(COVER_LEN[row]):
                    options[count, n] = COVER_RUNS[row, t] << (13 * suit)
                    n += 1
            for t in range(1, n):  # canonical order inside the meld set
                value = options[count, t]
                u = t - 1
                while u >= 0 and _canonical_before(value, options[count, u]):
                    options[count, u + 1] = options[count, u]
                    u -= 1
                options[count, u + 1] = value
            lens[count] = n
            count += 1
    for t in range(1, count):  # the meld sets in tuple order
        u = t
        while u > 0 and _row_before(options, lens, u, u - 1):
            for v in range(MAX_MELDS):
                options[u, v], options[u - 1, v] = options[u - 1, v], options[u, v]
            lens[u], lens[u - 1] = lens[u - 1], lens[u]
            u -= 1
    return count


@njit(cache=True)
def is_meld(mask):
    """Whether ``mask`` is one of the 329 legal melds."""
    suits = 0
    part = 0
    same = True
    for suit in range(4):
        m = (mask >> (13 * suit)) & 8191
        if m:
            if suits and m != part:
                same = False
            part = m
            suits += 1
    if suits == 1:
        return _popcount(part) >= 3 and ((part + (part & -part)) & part) == 0
    return same and suits >= 3 and part & (part - 1) == 0
