"""The meld solver against the real engine's fixtures and an independent brute force."""

import random
from itertools import combinations

import pytest
from conftest import fixture_records
from hypothesis import given, settings
from hypothesis import strategies as st

from ginbots.game.cards import (
    CARD_POINTS,
    cards_of,
    mask_of,
    melds_in,
    parse_cards,
    rank_of,
    suit_of,
)
from ginbots.game.melds import (
    best_meld_set,
    best_meld_sets,
    deadwood_after_discards,
    deadwood_and_melds,
    deadwood_of,
    discard_outcomes,
    least_deadwood_discards,
    maximal_meld_sets,
    min_deadwood,
)

RECORDS = fixture_records("deadwood_10card.jsonl") + fixture_records("deadwood_11card.jsonl")


def _meld_set(names):
    return frozenset(parse_cards(m) for m in names)


@pytest.mark.parametrize("size", [10, 11])
def test_every_fixture_hand_min_deadwood_and_all_optimal_meld_sets(size):
    records = [r for r in RECORDS if r["size"] == size]
    assert len(records) == (1000 if size == 10 else 500)
    for r in records:
        hand = parse_cards(r["hand"])
        assert hand == r["hand_bits"]
        assert min_deadwood(hand) == r["deadwood"], r["i"]
        ours = {frozenset(ms) for ms in best_meld_sets(hand)}
        if r["n_best"] == 0:  # the Java engine lists no meld set when the hand has no meld
            assert ours == {frozenset()}
        else:
            assert ours == {_meld_set(ms) for ms in r["all_best"]}, r["i"]
            assert len(best_meld_sets(hand)) == r["n_best"]
        assert frozenset(best_meld_set(hand)) in ours
        assert deadwood_of(hand, best_meld_set(hand)) == r["deadwood"]
        assert deadwood_of(hand, [parse_cards(m) for m in r["melds"]]) == r["deadwood"]
        assert len(melds_in(hand)) == r["n_melds"]
        assert len(maximal_meld_sets(hand)) == r["n_maximal_meld_sets"], r["i"]


def test_deadwood_after_discards_matches_direct_computation_on_fixture_hands():
    for r in RECORDS:
        if r["size"] != 11:
            continue
        hand = parse_cards(r["hand"])
        got = dict(deadwood_after_discards(hand))
        assert sorted(got) == cards_of(hand)
        for c, dw in got.items():
            assert dw == min_deadwood(hand & ~(1 << c))
        for c, dw, melds in discard_outcomes(hand):
            assert (dw, melds) == deadwood_and_melds(hand & ~(1 << c))


def _least_by_scan(hand, banned):
    """Simple's rule card by card from min_deadwood: the least deadwood after a discard outside
    ``banned`` and the cards (ascending) that leave it."""
    after = {c: min_deadwood(hand & ~(1 << c)) for c in cards_of(hand) if not banned >> c & 1}
    best = min(after.values(), default=1 << 30)
    return best, [c for c in sorted(after) if after[c] == best]


def test_least_deadwood_discards_is_simples_rule_with_any_cards_banned():
    rng = random.Random(5)
    hands = [parse_cards(r["hand"]) for r in RECORDS if r["size"] == 11]
    hands += [dense_hand for dense_hand in (mask_of(rng.sample([s * 13 + r for r in range(4, 8) for s in range(4)], 11))
                                            for _ in range(300))]
    for hand in hands:
        cards = cards_of(hand)
        for banned in (0, 1 << rng.choice(cards), mask_of(rng.sample(cards, 3)), mask_of(cards[:10])):
            best, found = least_deadwood_discards(hand, banned)
            assert (best, list(found)) == _least_by_scan(hand, banned), (cards_of(hand), cards_of(banned))


# --- independent brute force -------------------------------------------------------

def _brute_melds(hand):
    cards = cards_of(hand)
    out = []
    for n in range(3, len(cards) + 1):
        for combo in combinations(cards, n):
            ranks = sorted(rank_of(c) for c in combo)
            if len(set(ranks)) == 1 and n <= 4:
                out.append(mask_of(combo))
            elif len({suit_of(c) for c in combo}) == 1 and ranks == list(range(ranks[0], ranks[0] + n)):
                out.append(mask_of(combo))
    return out


def _brute_solve(hand):
    """(min deadwood, every optimal meld set) by trying every disjoint meld collection."""
    melds = _brute_melds(hand)
    best = [sum(CARD_POINTS[c] for c in cards_of(hand)), [frozenset()]]

    def walk(start, used, chosen):
        dw = sum(CARD_POINTS[c] for c in cards_of(hand & ~used))
        if dw < best[0]:
            best[0], best[1] = dw, [frozenset(chosen)]
        elif dw == best[0] and chosen:
            best[1].append(frozenset(chosen))
        for i in range(start, len(melds)):
            if not melds[i] & used:
                walk(i + 1, used | melds[i], chosen + [melds[i]])

    walk(0, 0, [])
    optimal = {ms for ms in best[1] if sum(CARD_POINTS[c] for c in cards_of(hand & ~_union(ms))) == best[0]}
    return best[0], optimal


def _union(melds):
    out = 0
    for m in melds:
        out |= m
    return out


def _check_against_brute_force(hand):
    dw, optimal = _brute_solve(hand)
    assert min_deadwood(hand) == dw
    assert {frozenset(ms) for ms in best_meld_sets(hand)} == optimal
    assert len(best_meld_sets(hand)) == len(optimal)
    assert deadwood_and_melds(hand) == (dw, max(len(ms) for ms in optimal))
    for card, after_dw, after_melds in discard_outcomes(hand):
        assert (after_dw, after_melds) == deadwood_and_melds(hand & ~(1 << card))


@st.composite
def dense_hands(draw):
    size = draw(st.sampled_from([10, 11]))
    low = draw(st.integers(0, 9))
    width = draw(st.integers(3, 6))
    pool = [s * 13 + r for r in range(low, min(13, low + width)) for s in range(4)]
    if len(pool) < size:
        pool = list(range(52))
    return mask_of(draw(st.permutations(pool))[:size])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([10, 11]).flatmap(lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)))
def test_random_hands_agree_with_brute_force(cards):
    _check_against_brute_force(mask_of(cards))


@settings(max_examples=300, deadline=None)
@given(dense_hands())
def test_meld_dense_hands_agree_with_brute_force(hand):
    _check_against_brute_force(hand)


def test_four_of_a_kind_feeding_runs_is_solved_exactly():
    # 7C closes the club run and 7H the heart run; the best uses 7H in 7H-8H-9H
    # and the other three 7s as a set (5C 6C KS QD left: 31), not 5-6-7C + 7H7S7D (37).
    hand = parse_cards("5C 6C 7C 7H 7S 7D 8H 9H KS QD")
    _check_against_brute_force(hand)
    assert min_deadwood(hand) == 31
    assert {frozenset(ms) for ms in best_meld_sets(hand)} == {
        frozenset((parse_cards("7C 7S 7D"), parse_cards("7H 8H 9H")))}


def test_small_and_large_hands_work_too():
    rng = random.Random(3)
    for size in (0, 1, 3, 5, 12, 14):
        hand = mask_of(rng.sample(range(52), size))
        assert min_deadwood(hand) == _brute_solve(hand)[0]


def _set_rich_hand(rng: random.Random, size: int, four_share: float) -> int:
    """A hand built around two or three same-rank groups (some of four), topped up at random."""
    cards: set[int] = set()
    for rank in rng.sample(range(13), rng.choice([2, 3])):
        suits = 4 if rng.random() < four_share else 3
        cards.update(suit * 13 + rank for suit in rng.sample(range(4), suits))
    picked = sorted(cards)[:size]
    while len(picked) < size:
        card = rng.randrange(52)
        if card not in picked:
            picked.append(card)
    return mask_of(picked)


@pytest.mark.parametrize("four_share", [0.0, 0.3])
@pytest.mark.parametrize("batch", [7, 600])
def test_batch_deadwood_and_melded_matches_the_scalar_solver(batch, four_share):
    """Each branch of the numpy path (one set rank, several, few hands scored one by one, four of a
    kind) gives the scalar solver's deadwood and melded cards, ties included."""
    import numpy as np

    from ginbots.game.melds import deadwood_and_melded
    from ginbots.game.melds_batch import deadwood_and_melded_batch

    rng = random.Random(batch * 10 + int(four_share * 10))
    hands = [_set_rich_hand(rng, rng.choice([10, 11, 12]), four_share) if i % 2 else
             mask_of(rng.sample(range(52), rng.choice([10, 11]))) for i in range(batch)]
    deadwood, melded = deadwood_and_melded_batch(np.array(hands, dtype=np.uint64))
    for i, hand in enumerate(hands):
        assert (int(deadwood[i]), int(melded[i])) == deadwood_and_melded(hand), cards_of(hand)
