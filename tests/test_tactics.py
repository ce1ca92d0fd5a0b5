"""End-of-hand meld choices: the defender's best declaration and the knocker's layoff-minimising order."""

from ginbots.game.cards import parse_cards as P
from ginbots.game.melds import best_meld_set, min_deadwood
from ginbots.game.tactics import (
    best_defence_melds,
    deadwood_after_layoffs,
    disjoint_meld_collections,
    expected_layoff_points,
    knock_melds_min_layoffs,
)


def test_disjoint_meld_collections_include_the_empty_one_and_are_disjoint():
    hand = P("5H 6H 7H 5C 5S KD")
    cols = disjoint_meld_collections(hand)
    assert () in cols and (P("5H 6H 7H"),) in cols and (P("5H 5C 5S"),) in cols
    assert all(not (a & b) for col in cols for i, a in enumerate(col) for b in col[i + 1:])


def test_defender_declares_a_non_optimal_set_when_layoffs_make_it_better():
    hand = P("5H 5C 5S 6H 7H KC KD QS 2D 3S")
    knocker = [P("8H 9H TH")]
    assert best_meld_set(hand) == (P("5H 6H 7H"),)   # optimal alone: 10 + 35 left
    assert deadwood_after_layoffs(hand, best_meld_set(hand), knocker) == 10 + 35
    chosen = best_defence_melds(hand, knocker)
    assert chosen == (P("5H 5C 5S"),)                 # 6H and 7H then lay off on 8-TH
    assert deadwood_after_layoffs(hand, chosen, knocker) == 35


def test_after_gin_the_defender_just_minimises_deadwood():
    hand = P("5H 5C 5S 6H 7H KC KD QS 2D 3S")
    gin = [P("8H 9H TH"), P("AC 2C 3C 4C"), P("JS JD JH")]
    assert best_defence_melds(hand, gin) == best_meld_set(hand)


def test_knocker_orders_melds_to_block_chained_layoffs():
    hand = P("5H 6H 7H 8C 8S 8D AC 2C AS 2S")
    opponents = [P("8H 9H KC QD JS TC 3D 5D KH QS")]
    melds = knock_melds_min_layoffs(hand, opponents)
    assert sorted(melds) == sorted(best_meld_set(hand)) and min_deadwood(hand) == 6
    assert melds[0] == P("8C 8S 8D")                  # set first: 8H stops there, 9H cannot follow
    assert expected_layoff_points(melds, opponents) == 8
    assert expected_layoff_points([P("5H 6H 7H"), P("8C 8S 8D")], opponents) == 17


def test_gin_needs_no_layoff_search():
    hand = P("AC 2C 3C 4H 5H 6H 7S 8S 9S TS")
    assert knock_melds_min_layoffs(hand, [P("JS QS KS 2D 3D 4D 5D 6D 7D 8D")]) == best_meld_set(hand)
