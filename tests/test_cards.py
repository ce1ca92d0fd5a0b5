import random
from itertools import combinations

import pytest

from ginbots.game.cards import (
    ALL_MELDS,
    CARD_NAMES,
    CARD_POINTS,
    MELD_PAIRS,
    MELDS_WITH_CARD,
    can_lay_off,
    card,
    cards_of,
    completes_meld,
    is_meld,
    is_run,
    is_set,
    mask_of,
    melds_in,
    melds_joinable,
    parse_card,
    parse_cards,
    points_of,
    rank_of,
    suit_of,
)


def test_card_ids_names_and_points_follow_the_engine():
    assert parse_card("AC") == 0 and parse_card("KC") == 12
    assert parse_card("AH") == 13 and parse_card("AS") == 26 and parse_card("AD") == 39
    assert parse_card("TD") == 48 and parse_card("KD") == 51 and parse_card("10d") == 48
    assert [CARD_NAMES[c] for c in (0, 13, 26, 39, 48)] == ["AC", "AH", "AS", "AD", "TD"]
    assert card(9, 3) == 48 and rank_of(48) == 9 and suit_of(48) == 3
    assert [CARD_POINTS[c] for c in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert points_of(parse_cards("AC KD 5H")) == 16


def test_parse_card_rejects_bad_names_with_the_name():
    with pytest.raises(ValueError, match="'1X'"):
        parse_card("1X")


def test_there_are_329_melds_264_runs_65_sets_and_no_wraparound():
    assert len(ALL_MELDS) == 329 and len(set(ALL_MELDS)) == 329
    assert sum(map(is_run, ALL_MELDS)) == 264
    assert sum(map(is_set, ALL_MELDS)) == 65
    assert not is_meld(parse_cards("QC KC AC"))
    assert is_meld(parse_cards("JC QC KC")) and is_meld(parse_cards("AC 2C 3C"))
    assert not is_meld(parse_cards("AC 2C 3H"))


def _brute_is_meld(cards):
    ranks = sorted(rank_of(c) for c in cards)
    suits = {suit_of(c) for c in cards}
    if len(cards) < 3:
        return False
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def test_melds_with_card_and_joinable_match_brute_force():
    for c in range(52):
        assert all(m >> c & 1 for m in MELDS_WITH_CARD[c])
    hand = parse_cards("4C 5C 7C 7H 7S 2D")
    expected = sorted(mask_of(s) for n in (3, 4, 5) for s in combinations(cards_of(hand | 1 << parse_card("6C")), n)
                      if parse_card("6C") in s and _brute_is_meld(s))
    assert sorted(melds_joinable(parse_card("6C"), hand)) == expected
    assert len(expected) == 3  # 4-5-6, 5-6-7, 4-5-6-7


def test_completes_meld_agrees_with_melds_joinable_on_every_card():
    hand = parse_cards("4C 5C 7C 7H 7S 2D 3D JS QS KH")
    for c in range(52):
        if not hand >> c & 1:
            assert completes_meld(c, hand) == bool(melds_joinable(c, hand))


def test_melds_in_and_can_lay_off():
    hand = parse_cards("3H 4H 5H 6H")
    assert len(melds_in(hand)) == 3
    assert can_lay_off(parse_card("7H"), parse_cards("4H 5H 6H"))
    assert not can_lay_off(parse_card("8H"), parse_cards("4H 5H 6H"))
    assert can_lay_off(parse_card("9D"), parse_cards("9C 9H 9S"))
    assert not can_lay_off(parse_card("9D"), parse_cards("9C 9H 9S 9D"))


def test_completes_meld_is_two_of_the_cards_meld_pairs_in_hand():
    """The bit-window reading agrees with the definition (a 3-meld of the card and a pair of the hand)."""
    rng = random.Random(2)
    seen = set()
    for _ in range(20000):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randrange(0, 20)))
        card = rng.randrange(52)
        expected = any(hand & pair == pair for pair in MELD_PAIRS[card])
        assert completes_meld(card, hand) == expected, (card, hand)
        seen.add(expected)
    assert seen == {True, False}


def test_cards_of_lists_each_card_once_ascending_for_any_mask() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        mask = sum(1 << c for c in rng.sample(range(52), rng.randrange(53)))
        assert cards_of(mask) == [c for c in range(52) if mask >> c & 1]
    assert cards_of(0) == [] and cards_of((1 << 52) - 1) == list(range(52))
    assert cards_of(1 << 60 | 1 << 51 | 1) == [0, 51, 60]  # not a set of cards: still its bits
