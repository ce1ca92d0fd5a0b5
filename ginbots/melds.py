"""Minimum deadwood and optimal meld sets for hands of any size.

Once the sets (same-rank melds) of a hand are fixed, every remaining card can
only meld in a run of its own suit, so the deadwood splits into four per-suit
terms. ``RUN_DEADWOOD`` tabulates the runs-only minimum for all 8,192 suit
masks; a hand then costs four look-ups, plus a short enumeration of set choices
for the quarter of hands that hold three or four cards of a rank.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .cards import NUM_RANKS, RANK_POINTS, SUIT_MASK, points_of

_SUIT_SIZE = 1 << NUM_RANKS
_SUIT_SHIFTS = (0, 13, 26, 39)


def _build_run_deadwood() -> list[int]:
    # Built in increasing mask order: the lowest card of a mask is either
    # deadwood or the start of a run, and both leave a smaller mask.
    table = [0] * _SUIT_SIZE
    for m in range(1, _SUIT_SIZE):
        low = (m & -m).bit_length() - 1
        rest = m & (m - 1)
        best = RANK_POINTS[low] + table[rest]
        run = 1 << low
        r = low + 1
        while r < NUM_RANKS and m >> r & 1:
            run |= 1 << r
            r += 1
            if r - low >= 3:
                alt = table[m & ~run]
                if alt < best:
                    best = alt
        table[m] = best
    return table


#: ``RUN_DEADWOOD[m]``: minimum deadwood of the 13-bit suit mask ``m`` using runs only.
RUN_DEADWOOD: list[int] = _build_run_deadwood()


def _set_options(c: int, h: int, s: int, d: int, sets: int) -> list[list[tuple[int, ...]]]:
    """Per candidate rank, the ways to use it: no set, the 4-set, or one 3-set."""
    options = []
    while sets:
        bit = sets & -sets
        sets ^= bit
        present = tuple(i for i, m in enumerate((c, h, s, d)) if m & bit)
        rank_opts: list[tuple[int, ...]] = [(), tuple(i for i in present)]
        if len(present) == 4:
            rank_opts.extend(tuple(i for i in present if i != skip) for skip in present)
        options.append([(bit, o) for o in rank_opts])  # type: ignore[misc]
    return options  # type: ignore[return-value]


def _candidate_sets(c: int, h: int, s: int, d: int) -> int:
    """Ranks (13-bit mask) where the hand holds at least three suits."""
    return (c & h & (s | d)) | (s & d & (c | h))


def min_deadwood(hand: int) -> int:
    """Minimum deadwood points of ``hand`` (any number of cards)."""
    c = hand & SUIT_MASK
    h = hand >> 13 & SUIT_MASK
    s = hand >> 26 & SUIT_MASK
    d = hand >> 39
    sets = (c & h & (s | d)) | (s & d & (c | h))
    if not sets:
        return RUN_DEADWOOD[c] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s] + RUN_DEADWOOD[d]
    return _min_deadwood_with_sets(c, h, s, d, sets)


def _min_deadwood_with_sets(c: int, h: int, s: int, d: int, sets: int) -> int:
    table = RUN_DEADWOOD
    best = table[c] + table[h] + table[s] + table[d]
    for choice in product(*_set_options(c, h, s, d, sets)):
        suits = [c, h, s, d]
        for bit, used in choice:
            for i in used:
                suits[i] ^= bit
        value = table[suits[0]] + table[suits[1]] + table[suits[2]] + table[suits[3]]
        if value < best:
            best = value
    return best


def deadwood_after_discards(hand: int) -> list[tuple[int, int]]:
    """``(card, min_deadwood(hand without card))`` for every card of ``hand``, ascending.

    One call for all candidate discards: without set candidates a discard only
    changes its own suit's term, so each candidate costs one table look-up.
    """
    c = hand & SUIT_MASK
    h = hand >> 13 & SUIT_MASK
    s = hand >> 26 & SUIT_MASK
    d = hand >> 39
    if (c & h & (s | d)) | (s & d & (c | h)):
        out = []
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            out.append((low.bit_length() - 1, min_deadwood(hand ^ low)))
        return out
    table = RUN_DEADWOOD
    suit_terms = (table[c], table[h], table[s], table[d])
    total = suit_terms[0] + suit_terms[1] + suit_terms[2] + suit_terms[3]
    out = []
    for suit, m in enumerate((c, h, s, d)):
        base = total - suit_terms[suit]
        offset = _SUIT_SHIFTS[suit]
        rest = m
        while rest:
            low = rest & -rest
            rest ^= low
            out.append((offset + low.bit_length() - 1, base + table[m ^ low]))
    return out


@lru_cache(maxsize=None)
def run_coverings(suit_mask: int) -> tuple[tuple[int, ...], ...]:
    """Every way to reach ``RUN_DEADWOOD[suit_mask]`` with runs (13-bit masks each)."""
    if not suit_mask:
        return ((),)
    target = RUN_DEADWOOD[suit_mask]
    low = (suit_mask & -suit_mask).bit_length() - 1
    rest = suit_mask & (suit_mask - 1)
    found: list[tuple[int, ...]] = []
    if RANK_POINTS[low] + RUN_DEADWOOD[rest] == target:
        found.extend(run_coverings(rest))
    run = 1 << low
    r = low + 1
    while r < NUM_RANKS and suit_mask >> r & 1:
        run |= 1 << r
        r += 1
        if r - low >= 3 and RUN_DEADWOOD[suit_mask & ~run] == target:
            found.extend((run,) + cover for cover in run_coverings(suit_mask & ~run))
    return tuple(found)


def _optimal_set_choices(hand: int) -> list[tuple[list[int], list[int]]]:
    """Each optimal choice of sets: (set melds as masks, the four remaining suit masks)."""
    c = hand & SUIT_MASK
    h = hand >> 13 & SUIT_MASK
    s = hand >> 26 & SUIT_MASK
    d = hand >> 39
    sets = _candidate_sets(c, h, s, d)
    target = min_deadwood(hand)
    if not sets:
        return [([], [c, h, s, d])]
    out = []
    for choice in product(*_set_options(c, h, s, d, sets)):
        suits = [c, h, s, d]
        set_melds = []
        for bit, used in choice:
            if not used:
                continue
            meld = 0
            for i in used:
                suits[i] ^= bit
                meld |= bit << _SUIT_SHIFTS[i]
            set_melds.append(meld)
        if sum(RUN_DEADWOOD[m] for m in suits) == target:
            out.append((set_melds, suits))
    return out


def _canonical(melds: list[int]) -> tuple[int, ...]:
    return tuple(sorted(melds, key=lambda m: ((m & -m).bit_length(), m.bit_count(), m)))


def best_meld_sets(hand: int) -> list[tuple[int, ...]]:
    """Every meld set (tuple of meld masks) that leaves ``min_deadwood(hand)``.

    Different coverings of the same cards (a 6-run or two 3-runs) are different
    meld sets. A hand with no meld has exactly one optimal meld set, ``()``.
    """
    out = []
    for set_melds, suits in _optimal_set_choices(hand):
        per_suit = [
            [tuple(run << _SUIT_SHIFTS[i] for run in cover) for cover in run_coverings(m)]
            for i, m in enumerate(suits)
        ]
        for parts in product(*per_suit):
            out.append(_canonical(set_melds + [run for part in parts for run in part]))
    out.sort()
    return out


def best_meld_set(hand: int) -> tuple[int, ...]:
    """One optimal meld set of ``hand`` (deterministic: the first of ``best_meld_sets``)."""
    set_melds, suits = _optimal_set_choices(hand)[0]
    runs = [run << _SUIT_SHIFTS[i] for i, m in enumerate(suits) for run in run_coverings(m)[0]]
    return _canonical(set_melds + runs)


def deadwood_of(hand: int, melds: tuple[int, ...] | list[int]) -> int:
    """Points of the cards of ``hand`` outside ``melds`` (melds taken as given)."""
    covered = 0
    for m in melds:
        covered |= m
    return points_of(hand & ~covered)


def maximal_meld_sets(hand: int) -> list[tuple[int, ...]]:
    """Every collection of disjoint melds of ``hand`` to which no further meld fits."""
    from .cards import melds_in

    melds = melds_in(hand)
    out: list[tuple[int, ...]] = []

    def extend(start: int, used: int, chosen: list[int]) -> None:
        extended = False
        for i in range(start, len(melds)):
            m = melds[i]
            if not m & used:
                extended = True
                chosen.append(m)
                extend(i + 1, used | m, chosen)
                chosen.pop()
        if not extended and chosen:
            # Maximal only if no meld at all (earlier ones included) still fits.
            if all(m & used for m in melds):
                out.append(_canonical(chosen))

    extend(0, 0, [])
    return out
