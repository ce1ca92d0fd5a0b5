"""Cards, card sets and the 329 legal melds of the EAAI Gin Rummy challenge.

A card is a plain int ``suit * 13 + rank`` (0-51, clubs, hearts, spades,
diamonds); a set of cards (a hand, a meld) is a 52-bit int with bit ``card``
set. Everything else in the bundle is built on these two representations.
"""

from __future__ import annotations

from typing import Iterable, Iterator

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "CHSD"
NUM_RANKS = 13
NUM_SUITS = 4
NUM_CARDS = 52
ALL_CARDS_MASK = (1 << NUM_CARDS) - 1
SUIT_MASK = (1 << NUM_RANKS) - 1
#: The four aces (rank 0 of each suit).
RANK_MASK_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39

CLUBS, HEARTS, SPADES, DIAMONDS = range(4)
ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING = range(13)

HAND_SIZE = 10
MAX_DEADWOOD = 10
GIN_BONUS = 25
UNDERCUT_BONUS = 25
GOAL_SCORE = 100

#: Deadwood points by rank: A=1, 2-9 face value, T J Q K = 10.
RANK_POINTS: tuple[int, ...] = tuple(min(rank + 1, 10) for rank in range(NUM_RANKS))
#: Deadwood points by card id.
CARD_POINTS: tuple[int, ...] = tuple(RANK_POINTS[c % NUM_RANKS] for c in range(NUM_CARDS))
#: ``CARD_NAMES[c]`` is the two-character name of card ``c`` (``"TD"``).
CARD_NAMES: tuple[str, ...] = tuple(
    RANK_CHARS[c % NUM_RANKS] + SUIT_CHARS[c // NUM_RANKS] for c in range(NUM_CARDS)
)
_CARD_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
#: Points of every 13-bit suit mask, so ``points_of`` costs four look-ups.
SUIT_POINTS: tuple[int, ...] = tuple(
    sum(RANK_POINTS[r] for r in range(NUM_RANKS) if m >> r & 1) for m in range(1 << NUM_RANKS)
)


def card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (0=ace .. 12=king) in ``suit`` (0=clubs .. 3=diamonds)."""
    return suit * NUM_RANKS + rank


def rank_of(card: int) -> int:
    return card % NUM_RANKS


def suit_of(card: int) -> int:
    return card // NUM_RANKS


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(name: str) -> int:
    """Card id of a name such as ``"TD"`` or ``"10d"``; ValueError names the bad input."""
    text = name.strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    try:
        return _CARD_BY_NAME[text]
    except KeyError:
        raise ValueError(f"not a card name: {name!r} (expected rank A23456789TJQK + suit CHSD)") from None


def mask_of(cards: Iterable[int]) -> int:
    """The card-set int holding ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def union(masks: Iterable[int]) -> int:
    """All cards of several card sets (e.g. the cards covered by a meld set)."""
    out = 0
    for m in masks:
        out |= m
    return out


#: Per suit and 13-bit suit mask (index suit * 8,192 + mask): the card ids it holds, filled in as
#: masks are met (a hand reads four entries instead of a bit loop a card).
_SUIT_CARD_IDS: list[tuple[int, ...] | None] = [None] * (4 << NUM_RANKS)


def _suit_card_ids(index: int) -> tuple[int, ...]:
    suit, mask = divmod(index, 1 << NUM_RANKS)
    ids = _SUIT_CARD_IDS[index] = tuple(suit * NUM_RANKS + r for r in range(NUM_RANKS) if mask >> r & 1)
    return ids


def cards_of(mask: int) -> list[int]:
    """Card ids in ``mask``, ascending."""
    if mask >> NUM_CARDS or mask < 0:  # not a set of cards: read bit by bit
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out
    table = _SUIT_CARD_IDS
    i = mask & SUIT_MASK
    j = (1 << 13) + (mask >> 13 & SUIT_MASK)
    k = (2 << 13) + (mask >> 26 & SUIT_MASK)
    m = (3 << 13) + (mask >> 39)
    a, b, c, d = table[i], table[j], table[k], table[m]
    return [*(_suit_card_ids(i) if a is None else a), *(_suit_card_ids(j) if b is None else b),
            *(_suit_card_ids(k) if c is None else c), *(_suit_card_ids(m) if d is None else d)]


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def points_of(mask: int) -> int:
    """Deadwood points of all cards in ``mask``."""
    return (
        SUIT_POINTS[mask & SUIT_MASK]
        + SUIT_POINTS[mask >> 13 & SUIT_MASK]
        + SUIT_POINTS[mask >> 26 & SUIT_MASK]
        + SUIT_POINTS[mask >> 39 & SUIT_MASK]
    )


def names(mask_or_cards: int | Iterable[int]) -> str:
    """Space-separated card names, ascending id for a mask, in order for a sequence."""
    cards = cards_of(mask_or_cards) if isinstance(mask_or_cards, int) else mask_or_cards
    return " ".join(CARD_NAMES[c] for c in cards)


def parse_cards(text: str | Iterable[str]) -> int:
    """Mask of space-separated (or listed) card names."""
    items = text.split() if isinstance(text, str) else text
    return mask_of(parse_card(n) for n in items)


def _build_melds() -> tuple[int, ...]:
    melds = []
    for suit in range(NUM_SUITS):
        for length in range(3, NUM_RANKS + 1):
            for start in range(NUM_RANKS - length + 1):
                melds.append(((1 << length) - 1) << (suit * NUM_RANKS + start))
    for rank in range(NUM_RANKS):
        full = sum(1 << card(rank, s) for s in range(NUM_SUITS))
        melds.append(full)
        for s in range(NUM_SUITS):
            melds.append(full & ~(1 << card(rank, s)))
    melds.sort(key=lambda m: ((m & -m).bit_length(), m.bit_count(), m))
    return tuple(melds)


#: All 329 legal melds (264 runs, 65 sets) as masks, ordered by lowest card, then size.
ALL_MELDS: tuple[int, ...] = _build_melds()
MELD_SET: frozenset[int] = frozenset(ALL_MELDS)
#: ``MELDS_WITH_CARD[c]``: every legal meld that contains card ``c``.
MELDS_WITH_CARD: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in ALL_MELDS if m >> c & 1) for c in range(NUM_CARDS)
)


def _build_meld_pairs() -> tuple[tuple[int, ...], ...]:
    pairs = []
    for c in range(NUM_CARDS):
        found = {m & ~(1 << c) for m in MELDS_WITH_CARD[c] if m.bit_count() == 3}
        pairs.append(tuple(sorted(found)))
    return tuple(pairs)


#: ``MELD_PAIRS[c]``: the two-card masks that make a 3-card meld with ``c``.
MELD_PAIRS: tuple[tuple[int, ...], ...] = _build_meld_pairs()


def is_meld(mask: int) -> bool:
    return mask in MELD_SET


def is_run(mask: int) -> bool:
    return mask in MELD_SET and len({c // NUM_RANKS for c in iter_cards(mask)}) == 1


def is_set(mask: int) -> bool:
    return mask in MELD_SET and not is_run(mask)


def _completion_row(c: int) -> tuple[int, int, int, int]:
    rank, shift = c % NUM_RANKS, c // NUM_RANKS * NUM_RANKS
    mates = sum(1 << (s * NUM_RANKS + rank) for s in range(NUM_SUITS)) & ~(1 << c)
    starts = sum(1 << start for start in range(max(rank - 2, 0), min(rank, NUM_RANKS - 3) + 1))
    return mates, shift, 1 << rank, starts


#: Per card: the other three cards of its rank, its suit's shift, its rank's bit, and the starting ranks
#: of the three-rank windows that hold it (the runs ``completes_meld`` looks for).
_COMPLETION = tuple(_completion_row(c) for c in range(NUM_CARDS))


def completes_meld(card: int, hand: int) -> bool:
    """Whether ``card`` belongs to some meld of ``hand`` plus ``card`` (a 3-meld with two of ``MELD_PAIRS[card]``):
    two more of its rank, or a three-rank window of its suit around it, read with bit operations."""
    mates, shift, rank_bit, starts = _COMPLETION[card]
    if (hand & mates).bit_count() >= 2:
        return True
    ranks = (hand >> shift & SUIT_MASK) | rank_bit
    return bool(ranks & ranks >> 1 & ranks >> 2 & starts)


def melds_in(hand: int) -> list[int]:
    """Every legal meld contained in ``hand``, in ``ALL_MELDS`` order."""
    return [m for m in ALL_MELDS if hand & m == m]


def melds_joinable(card: int, hand: int) -> list[int]:
    """Every meld of ``hand | card`` that uses ``card``: where the card can join."""
    with_card = hand | (1 << card)
    return [m for m in MELDS_WITH_CARD[card] if with_card & m == m]


def can_lay_off(card: int, meld: int) -> bool:
    """Whether adding ``card`` to ``meld`` leaves a legal meld."""
    return not meld >> card & 1 and (meld | 1 << card) in MELD_SET
