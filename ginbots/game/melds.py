"""Minimum deadwood and optimal meld sets for hands of any size.

Once the sets (same-rank melds) of a hand are fixed, every remaining card can
only meld in a run of its own suit, so the deadwood splits into four per-suit
terms. ``RUN_DEADWOOD`` tabulates the runs-only minimum for all 8,192 suit
masks; a hand then costs four look-ups, plus a short enumeration of set choices
for the quarter of hands that hold three or four cards of a rank.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import product

from .cards import NUM_RANKS, RANK_POINTS, SUIT_MASK, points_of

_SUIT_SIZE = 1 << NUM_RANKS
#: Bit offset of each suit's 13 cards in a hand mask.
SUIT_SHIFTS = (0, 13, 26, 39)


def _build_run_tables() -> tuple[list[int], list[int], list[int]]:
    # Built in increasing mask order: the lowest card of a mask is either
    # deadwood or the start of a run, and both leave a smaller mask.
    deadwood = [0] * _SUIT_SIZE
    runs = [0] * _SUIT_SIZE
    melded = [0] * _SUIT_SIZE
    for m in range(1, _SUIT_SIZE):
        low = (m & -m).bit_length() - 1
        rest = m & (m - 1)
        best, most, cover = RANK_POINTS[low] + deadwood[rest], runs[rest], melded[rest]
        run = 1 << low
        r = low + 1
        while r < NUM_RANKS and m >> r & 1:
            run |= 1 << r
            r += 1
            if r - low >= 3:
                left = m & ~run
                alt, count = deadwood[left], runs[left] + 1
                if alt < best or (alt == best and count > most):
                    best, most, cover = alt, count, melded[left] | run
        deadwood[m] = best
        runs[m] = most
        melded[m] = cover
    return deadwood, runs, melded


#: ``RUN_DEADWOOD[m]``: minimum deadwood of the 13-bit suit mask ``m`` using runs only;
#: ``RUN_COUNT[m]``: the most runs in a covering that reaches it;
#: ``RUN_MELDED[m]``: the cards that covering melds.
RUN_DEADWOOD, RUN_COUNT, RUN_MELDED = _build_run_tables()


def _set_states(c: int, h: int, s: int, d: int, sets: int) -> list[tuple[int, int, int, int]]:
    """The four suit masks left by each way of using the candidate ranks ``sets``.

    Per rank: no set, the full set (3 or 4 cards), or, with all four suits,
    any 3-set (freeing the fourth card for a run).
    """
    if sets and not sets & (sets - 1) and not c & h & s & d & sets:  # one rank of three: most set hands
        keep = ~sets
        return [(c, h, s, d), (c & keep, h & keep, s & keep, d & keep)]
    states = [(c, h, s, d)]
    while sets:
        bit = sets & -sets
        sets ^= bit
        grown = []
        for state in states:
            c1, h1, s1, d1 = state
            grown.append(state)
            grown.append((c1 & ~bit, h1 & ~bit, s1 & ~bit, d1 & ~bit))
            if c1 & h1 & s1 & d1 & bit:
                grown.append((c1, h1 ^ bit, s1 ^ bit, d1 ^ bit))
                grown.append((c1 ^ bit, h1, s1 ^ bit, d1 ^ bit))
                grown.append((c1 ^ bit, h1 ^ bit, s1, d1 ^ bit))
                grown.append((c1 ^ bit, h1 ^ bit, s1 ^ bit, d1))
        states = grown
    return states


def _candidate_sets(c: int, h: int, s: int, d: int) -> int:
    """Ranks (13-bit mask) where the hand holds at least three suits."""
    return (c & h & (s | d)) | (s & d & (c | h))


def _split(hand: int) -> tuple[int, int, int, int]:
    return hand & SUIT_MASK, hand >> 13 & SUIT_MASK, hand >> 26 & SUIT_MASK, hand >> 39


def min_deadwood(hand: int) -> int:
    """Minimum deadwood points of ``hand`` (any number of cards)."""
    c = hand & SUIT_MASK
    h = hand >> 13 & SUIT_MASK
    s = hand >> 26 & SUIT_MASK
    d = hand >> 39
    sets = (c & h & (s | d)) | (s & d & (c | h))
    table = RUN_DEADWOOD
    if not sets:
        return table[c] + table[h] + table[s] + table[d]
    return min([table[a] + table[b] + table[x] + table[y] for a, b, x, y in _set_states(c, h, s, d, sets)])


#: ``_DISCARD_DELTAS[m]``: (rank, change of the suit's runs-only deadwood) for each card of suit mask ``m``.
_DISCARD_DELTAS = [tuple((r, RUN_DEADWOOD[m ^ 1 << r] - RUN_DEADWOOD[m]) for r in range(NUM_RANKS) if m >> r & 1)
                   for m in range(_SUIT_SIZE)]


def deadwood_after_discards(hand: int) -> list[tuple[int, int]]:
    """``(card, min_deadwood(hand without card))`` for every card of ``hand``, ascending by card.

    ``discard_outcomes`` without the meld counts, for players that need only deadwood (Simple's
    discard, the engine's hottest call): a discard changes only its own suit's run term, so with
    no candidate set (three hands in four) each card costs two table look-ups.
    """
    c = hand & SUIT_MASK
    h = hand >> 13 & SUIT_MASK
    s = hand >> 26 & SUIT_MASK
    d = hand >> 39
    sets = (c & h & (s | d)) | (s & d & (c | h))
    table = RUN_DEADWOOD
    if not sets:
        total = table[c] + table[h] + table[s] + table[d]
        deltas = _DISCARD_DELTAS
        return ([(rank, total + delta) for rank, delta in deltas[c]]
                + [(13 + rank, total + delta) for rank, delta in deltas[h]]
                + [(26 + rank, total + delta) for rank, delta in deltas[s]]
                + [(39 + rank, total + delta) for rank, delta in deltas[d]])
    # A card a set choice puts in a set is not in that choice's suit masks: another choice (the one
    # without that set, or the 3-set of the other three cards) scores its discard.
    best = [1 << 30] * 52
    deltas = _DISCARD_DELTAS
    for a, b, x, y in _set_states(c, h, s, d, sets):
        total = table[a] + table[b] + table[x] + table[y]
        for offset, left in ((0, a), (13, b), (26, x), (39, y)):
            for rank, delta in deltas[left]:
                value = total + delta
                if value < best[offset + rank]:
                    best[offset + rank] = value
    out = []
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        out.append((card, best[card]))
    return out


_NO_CARD = 1 << 30


def _suit_discard_row(mask: int) -> tuple[int, int, int]:
    deltas = _DISCARD_DELTAS[mask]
    least = min((delta for _, delta in deltas), default=_NO_CARD)
    return RUN_DEADWOOD[mask], least, sum(1 << rank for rank, delta in deltas if delta == least)


#: ``_SUIT_DISCARD[m]``: what Simple's discard reads of suit mask ``m`` in one look-up: its runs-only
#: deadwood, the least change one discard can make to it, and the ranks (13-bit mask) that make it.
_SUIT_DISCARD = [_suit_discard_row(m) for m in range(_SUIT_SIZE)]


def least_deadwood_discards(hand: int, banned: int = 0) -> tuple[int, Sequence[int]]:
    """(least deadwood after discarding one card of ``hand`` outside ``banned``, the cards that leave
    it, ascending): Simple's discard rule in one call.

    Per choice of sets the suit terms are independent, so the least deadwood is that choice's
    total plus its least per-suit change (two table look-ups a suit), and the cards reaching it
    are read from a table as a mask. A banned card among them is dropped; when that leaves none,
    the card-by-card scan decides.
    """
    c, h, s, d = _split(hand)
    sets = _candidate_sets(c, h, s, d)
    info = _SUIT_DISCARD
    best = _NO_CARD
    cards = 0
    for a, b, x, y in _set_states(c, h, s, d, sets) if sets else ((c, h, s, d),):
        da, la, ra = info[a]
        db, lb, rb = info[b]
        dx, lx, rx = info[x]
        dy, ly, ry = info[y]
        low = la if la < lb else lb  # comparisons, not min(): this runs on every Simple discard
        if lx < low:
            low = lx
        if ly < low:
            low = ly
        total = da + db + dx + dy + low
        if total > best:
            continue
        if total < best:
            best, cards = total, 0
        if la == low:
            cards |= ra
        if lb == low:
            cards |= rb << 13
        if lx == low:
            cards |= rx << 26
        if ly == low:
            cards |= ry << 39
    cards &= ~banned
    if cards:
        if not cards & (cards - 1):
            return best, (cards.bit_length() - 1,)
        found = []
        while cards:
            bit = cards & -cards
            cards ^= bit
            found.append(bit.bit_length() - 1)
        return best, found
    best = _NO_CARD
    found = []
    for card, deadwood in deadwood_after_discards(hand):
        if banned >> card & 1:
            continue
        if deadwood < best:
            best = deadwood
            found = [card]
        elif deadwood == best:
            found.append(card)
    return best, found


def lowering_discards(hand: int, legal: int) -> list[tuple[int, int]]:
    """``(card, deadwood after)`` for the legal discards that lower the hand's deadwood: its unmelded cards."""
    now = min_deadwood(hand)
    return [(card, dw) for card, dw, _ in discard_outcomes(hand) if legal >> card & 1 and dw < now]


def deadwood_and_melds(hand: int) -> tuple[int, int]:
    """(minimum deadwood, the most melds in a meld set that reaches it)."""
    c, h, s, d = _split(hand)
    sets = _candidate_sets(c, h, s, d)
    dw_t, n_t = RUN_DEADWOOD, RUN_COUNT
    if not sets:
        return dw_t[c] + dw_t[h] + dw_t[s] + dw_t[d], n_t[c] + n_t[h] + n_t[s] + n_t[d]
    best = (1 << 30, 0)
    for a, b, x, y in _set_states(c, h, s, d, sets):
        n_sets = ((a ^ c) | (b ^ h) | (x ^ s) | (y ^ d)).bit_count()
        value = (dw_t[a] + dw_t[b] + dw_t[x] + dw_t[y], -(n_t[a] + n_t[b] + n_t[x] + n_t[y] + n_sets))
        if value < best:
            best = value
    return best[0], -best[1]


def deadwood_and_melded(hand: int) -> tuple[int, int]:
    """(minimum deadwood, the cards one optimal meld set melds): the first optimal set choice wins."""
    c, h, s, d = full = _split(hand)
    sets = _candidate_sets(c, h, s, d)
    table, melded = RUN_DEADWOOD, RUN_MELDED
    if not sets:
        return table[c] + table[h] + table[s] + table[d], \
            melded[c] | melded[h] << 13 | melded[s] << 26 | melded[d] << 39
    best, best_state = 1 << 30, full
    for state in _set_states(c, h, s, d, sets):
        value = table[state[0]] + table[state[1]] + table[state[2]] + table[state[3]]
        if value < best:
            best, best_state = value, state
    covered = 0
    for i, left in enumerate(best_state):
        covered |= ((full[i] & ~left) | melded[left]) << SUIT_SHIFTS[i]
    return best, covered


#: A compiled ``discard_deadwoods`` (``ginbots.search``'s kernels, handed in as ``melds_batch.use_batch_kernel``'s).
_DISCARD_KERNEL: Callable[[int], list[tuple[int, int]]] | None = None


def use_discard_kernel(kernel: Callable[[int], list[tuple[int, int]]] | None) -> None:
    """Route ``discard_deadwoods`` through ``kernel`` (None: ``discard_outcomes``) for this process."""
    global _DISCARD_KERNEL
    _DISCARD_KERNEL = kernel


def discard_deadwoods(hand: int) -> list[tuple[int, int]]:
    """``(card, deadwood)`` of ``discard_outcomes(hand)``, without the melds: what most discard rules read."""
    if _DISCARD_KERNEL is not None:
        return _DISCARD_KERNEL(hand)
    return [(c, dw) for c, dw, _ in discard_outcomes(hand)]


def discard_outcomes(hand: int) -> list[tuple[int, int, int]]:
    """``(card, deadwood, melds)`` of ``deadwood_and_melds(hand without card)`` for every card.

    One call for all candidate discards: a discard only changes its own suit's
    term, so each (set choice, card) pair costs one table look-up. A set choice
    that uses the card is skipped: if that was a 4-set, the 3-set of the other
    three cards is a choice of its own and covers it.
    """
    full = _split(hand)
    c, h, s, d = full
    sets = _candidate_sets(c, h, s, d)
    dw_t, n_t = RUN_DEADWOOD, RUN_COUNT
    if sets:
        states = _set_states(c, h, s, d, sets)
    else:
        states = [full]
    scored = []
    for st in states:
        a, b, x, y = st
        n_sets = ((a ^ c) | (b ^ h) | (x ^ s) | (y ^ d)).bit_count()
        scored.append((st, dw_t[a] + dw_t[b] + dw_t[x] + dw_t[y], n_t[a] + n_t[b] + n_t[x] + n_t[y] + n_sets))
    out = []
    for suit in range(4):
        offset = SUIT_SHIFTS[suit]
        rest = full[suit]
        while rest:
            low = rest & -rest
            rest ^= low
            best_dw, best_n = 1 << 30, 0
            for st, total, melds in scored:
                left = st[suit]
                if left & low:
                    gone = left ^ low
                    value = total - dw_t[left] + dw_t[gone]
                    count = melds - n_t[left] + n_t[gone]
                    if value < best_dw or (value == best_dw and count > best_n):
                        best_dw, best_n = value, count
            out.append((offset + low.bit_length() - 1, best_dw, best_n))
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
    c, h, s, d = _split(hand)
    sets = _candidate_sets(c, h, s, d)
    if not sets:
        return [([], [c, h, s, d])]
    table = RUN_DEADWOOD
    states = _set_states(c, h, s, d, sets)
    totals = [table[a] + table[b] + table[x] + table[y] for a, b, x, y in states]
    target = min(totals)
    out = []
    for state, total in zip(states, totals):
        if total != target:
            continue
        a, b, x, y = state
        rc, rh, rs, rd = c & ~a, h & ~b, s & ~x, d & ~y  # the cards the sets took, per suit
        set_melds = []
        ranks = rc | rh | rs | rd
        while ranks:
            bit = ranks & -ranks
            ranks ^= bit
            set_melds.append((rc & bit) | (rh & bit) << 13 | (rs & bit) << 26 | (rd & bit) << 39)
        out.append((set_melds, [a, b, x, y]))
    return out


#: Per suit, ``run_coverings`` of a suit mask with each run as a card mask, filled as hands need them.
_SUIT_COVERINGS: tuple[dict[int, tuple[tuple[int, ...], ...]], ...] = ({}, {}, {}, {})


def _cache_suit_coverings(suit: int, suit_mask: int) -> tuple[tuple[int, ...], ...]:
    """``run_coverings(suit_mask)`` with each run as a card mask of suit ``suit``, stored in the cache."""
    shift = SUIT_SHIFTS[suit]
    covers = tuple(tuple(run << shift for run in cover) for cover in run_coverings(suit_mask))
    _SUIT_COVERINGS[suit][suit_mask] = covers
    return covers


def _lowest_card_bit(meld: int) -> int:
    return meld & -meld


def _canonical(melds: list[int]) -> tuple[int, ...]:
    """A meld set's melds ordered by lowest card (they are disjoint, so no two share one)."""
    return tuple(sorted(melds, key=_lowest_card_bit))


def best_meld_sets(hand: int) -> list[tuple[int, ...]]:
    """Every meld set (tuple of meld masks) that leaves ``min_deadwood(hand)``.

    Different coverings of the same cards (a 6-run or two 3-runs) are different
    meld sets. A hand with no meld has exactly one optimal meld set, ``()``.
    """
    out = []
    caches = _SUIT_COVERINGS
    for set_melds, suits in _optimal_set_choices(hand):
        per_suit = []
        melds = set_melds[:]
        single = True
        for i in range(4):
            m = suits[i]
            if m:
                covers = caches[i].get(m) or _cache_suit_coverings(i, m)
                per_suit.append(covers)
                if len(covers) == 1:
                    melds.extend(covers[0])
                else:
                    single = False
        if single:  # one covering a suit: one meld set (most hands)
            out.append(_canonical(melds))
            continue
        for parts in product(*per_suit):
            out.append(_canonical(set_melds + [run for part in parts for run in part]))
    out.sort()
    return out


def best_meld_set(hand: int) -> tuple[int, ...]:
    """One optimal meld set of ``hand``, deterministic: the first optimal choice of sets (in
    ``_set_states`` order) with each suit's first run covering (not always the first of
    ``best_meld_sets``, which is sorted)."""
    set_melds, suits = _optimal_set_choices(hand)[0]
    runs = [run << SUIT_SHIFTS[i] for i, m in enumerate(suits) for run in run_coverings(m)[0]]
    return _canonical(set_melds + runs)


def melded_and_rest(hand: int) -> tuple[tuple[int, ...], int]:
    """(one optimal meld set, the cards it leaves): how a hand is shown, melds first."""
    melds = best_meld_set(hand)
    covered = 0
    for m in melds:
        covered |= m
    return melds, hand & ~covered


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
