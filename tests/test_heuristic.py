"""Document 002's eight-hyperparameter bot: the hand utility by hand, the vectorised
discard scoring against a plain loop, and the discard and knock rules on built positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginbots.game.cards import CARD_POINTS, parse_card, parse_cards
from ginbots.game.engine import play_game
from ginbots.game.melds import best_meld_sets, deadwood_and_melded, min_deadwood
from ginbots.players.baselines import SimplePlayer
from ginbots.players.hand_utility import (
    UtilityWeights,
    best_after_discard,
    in_opponent_meld_probability,
    utilities,
)
from ginbots.players.heuristic import HeuristicUtilityPlayer

NO_OPPONENT_MELDS = np.zeros(53)


def utility_of(hand: str, pile: str = "", in_opp_meld: np.ndarray = NO_OPPONENT_MELDS) -> float:
    mask = parse_cards(hand)
    deadwood, melded = deadwood_and_melded(mask)
    return float(utilities(np.array([mask], dtype=np.uint64), mask.bit_count(), np.array([melded], dtype=np.uint64),
                           np.array([deadwood]), parse_cards(pile) if pile else 0, in_opp_meld, UtilityWeights())[0])


def test_utility_of_a_small_hand_by_hand() -> None:
    # 5H: 3H-4H, 4H-6H (+4.0, we hold 6H) and three 5-sets open, 6H-7H dead (7H discarded): 5 x 1.5 + 4 = 11.5,
    #     deadwood (5 - 5) = 0.
    # 6H: 4H-5H (+4.0) and three sets open: 4 x 1.5 + 4 = 10, deadwood (5 - 6) = -1 -> 9.
    # KS: JS-QS and three sets: 6, deadwood (5 - 10) = -5 -> 1.   Average (11.5 + 9 + 1) / 3, nothing melded.
    assert utility_of("5H 6H KS", pile="7H") == pytest.approx(21.5 / 3)


def test_emergency_state_and_low_card_bonus() -> None:
    # Deadwood 13; dropping 6H would leave 7: one card from knockable, so DEADWOOD_BONUS x 2.5.
    # 2S: AS-3S, 3S-4S and three sets: 7.5, (5 - 2) x 2.5 = 7.5, low-card bonus 0.2 / 2 -> 15.1.
    # 5H: 11.5 + 0; 6H: 10 - 2.5 = 7.5.
    assert utility_of("5H 6H 2S", pile="7H") == pytest.approx((15.1 + 11.5 + 7.5) / 3)


def test_melded_cards_and_knock_and_gin_bonuses() -> None:
    # Nine melded cards + AH, deadwood 1: AH has 2H-3H and three ace sets open (6.0), (5 - 1) = 4 and the
    # low-card bonus 0.2 -> 10.2; plus 9 melded cards and KNOCK_BONUS 10.
    assert utility_of("3C 4C 5C 9H 9S 9D KH KS KD AH") == pytest.approx(10.2 + 9 + 10)
    # Gin: ten melded cards + GIN_BONUS, no unmelded card to average.
    assert utility_of("3C 4C 5C 9H 9S 9D KH KS KD KC") == pytest.approx(10 + 20)


def test_chance_of_an_opponent_meld_scales_possible_melds() -> None:
    holds = np.zeros(52)
    holds[parse_card("4H")] = 1.0
    holds[parse_card("4C")] = holds[parse_card("4S")] = 1.0  # the opponent holds a 4-set: 4H is in its meld
    q = in_opponent_meld_probability(holds)
    assert q[parse_card("4H")] == pytest.approx(1.0)
    # 5H loses 3H-4H (1.5) and 4H-6H (5.5) entirely; the rest of the small hand is unchanged.
    plain, scaled = utility_of("5H 6H KS", pile="7H"), utility_of("5H 6H KS", pile="7H", in_opp_meld=q)
    # 6H loses 4H-5H (5.5) as well.
    assert plain - scaled == pytest.approx((1.5 + 5.5 + 5.5) / 3)


def _reference_best_after_discard(hand: int, keep: int, pile: int, q: np.ndarray) -> float | None:
    deadwood, melded = deadwood_and_melded(hand)
    candidates = [c for c in range(52) if hand >> c & 1 and not (melded | keep) >> c & 1]
    if not candidates:
        return None
    values = {}
    for c in candidates:
        values[c] = utilities(np.array([hand & ~(1 << c)], dtype=np.uint64), 10, np.array([melded], dtype=np.uint64),
                              np.array([deadwood - CARD_POINTS[c]]), pile | 1 << c, q, UtilityWeights())[0]
    highest = max(candidates, key=lambda c: (CARD_POINTS[c], c))
    if deadwood - CARD_POINTS[highest] <= 10:
        return values[highest]
    return max(values.values())


def test_batched_reasonable_discard_matches_a_plain_loop() -> None:
    rng = random.Random(5)
    pile = parse_cards("7H 8D KC 2S")
    free = [c for c in range(52) if not pile >> c & 1]
    hands = [sum(1 << c for c in rng.sample(free, 11)) for _ in range(150)]
    keeps = [1 << rng.choice([c for c in range(52) if h >> c & 1]) if i % 2 else 0 for i, h in enumerate(hands)]
    q = in_opponent_meld_probability(np.full(52, 0.3))
    got = best_after_discard(np.array(hands, dtype=np.uint64), np.array(keeps, dtype=np.uint64), pile, q,
                             UtilityWeights())
    checked = 0
    for i, (hand, keep) in enumerate(zip(hands, keeps)):
        expected = _reference_best_after_discard(hand, keep, pile, q)
        if expected is not None:
            assert got[i] == pytest.approx(expected, abs=1e-4)
            checked += 1
    assert checked > 100


def _player(**params) -> HeuristicUtilityPlayer:
    player = HeuristicUtilityPlayer(seed=3, estimator="uniform", **params)
    player.new_game(3)
    return player


def _deal(player: HeuristicUtilityPlayer, hand: str, drawn: str) -> None:
    """We are the starter's opponent; the starter declined the upcard QC, we decline too and draw ``drawn``."""
    player.start_hand(0, 1, parse_cards(hand))
    assert player.will_draw_face_up(parse_card("QC")) is False
    player.report_draw(1, None)
    player.report_discard(1, parse_card("JD"))
    player.will_draw_face_up(parse_card("JD"))
    player.report_draw(0, parse_card(drawn))


def test_forced_discard_when_it_makes_the_hand_knockable(monkeypatch) -> None:
    player = _player(close_share=1.0, close_deadwood=0)  # the opponent never looks close
    _deal(player, "AS 2S 3S 5C 5D 5H 9H 9C 9D 2C", drawn="KD")
    monkeypatch.setattr(player, "discard_values", lambda *a: pytest.fail("the forced discard needs no scoring"))
    assert player.discard() == parse_card("KD")
    # Modification 2: when the opponent looks close the discard is scored instead.
    cautious = _player(close_share=0.0)
    _deal(cautious, "AS 2S 3S 5C 5D 5H 9H 9C 9D 2C", drawn="KD")
    called = []
    original = cautious.discard_values
    monkeypatch.setattr(cautious, "discard_values", lambda *a: called.append(1) or original(*a))
    cautious.discard()
    assert called


@pytest.mark.parametrize("rule", ["valued", "knockable"])
def test_knockable_discard_options_score_the_forced_discard(monkeypatch, rule: str) -> None:
    """Not the document's shortcut, even when the opponent does not look close: valued scores every unmelded
    card, knockable only those that leave the hand knockable (KD and 2C: 9 points of deadwood besides), and the
    best value goes, here the lower 2C."""
    player = _player(close_share=1.0, close_deadwood=0, knockable_discard=rule)
    _deal(player, "AS 2S 3S 5C 5D 5H 9H 9C 9D 2C", drawn="KD")
    seen = []

    def values(candidates, *rest):
        seen.extend(candidates)
        return {c: (1.0 if c == parse_card("2C") else 0.0) for c in candidates}

    monkeypatch.setattr(player, "discard_values", values)
    assert player.discard() == parse_card("2C")
    if rule == "knockable":
        assert sorted(seen) == sorted([parse_card("KD"), parse_card("2C")])
    else:
        assert {parse_card("KD"), parse_card("2C")} <= set(seen)


def test_a_fully_melded_hand_stays_melded() -> None:
    player = _player()
    _deal(player, "7C 8C 9C TC 5C 5D 5H KH KS KD", drawn="KC")
    choice = player.discard()
    assert min_deadwood(player.hand & ~(1 << choice)) == 0


def test_opponent_gain_steers_the_discard_away_from_a_known_pair() -> None:
    """The opponent took 7H and 7S: throwing 7D hands it a set; 6C is the alternative."""
    def position(importance: float) -> HeuristicUtilityPlayer:
        player = _player(opp_util_importance=importance)
        player.start_hand(0, 1, parse_cards("8S 9S TS 4C 4D 4H 7D 6C KH KD"))
        player.report_draw(1, parse_card("7H"))
        player.report_discard(1, parse_card("QC"))
        assert player.will_draw_face_up(parse_card("QC")) is False
        player.report_draw(0, parse_card("7S"))
        player.report_discard(0, parse_card("7S"))
        player.report_draw(1, parse_card("7S"))
        player.report_discard(1, parse_card("JC"))
        assert player.will_draw_face_up(parse_card("JC")) is False
        player.report_draw(0, parse_card("AD"))
        return player

    player = position(0.77)
    opponents = player.sampled_opponents()
    stock = player.opponent_stock_utilities(opponents)
    gain_7d = player.opponent_gain(parse_card("7D"), opponents, stock)
    gain_6c = player.opponent_gain(parse_card("6C"), opponents, stock)
    assert gain_7d > 1.0 > gain_6c
    values = player.discard_values([parse_card("7D"), parse_card("6C")], opponents)
    assert values[parse_card("7D")] < values[parse_card("6C")]
    # Without the opponent term the lower-utility 7D would go.
    blind = position(0.0)
    blind_values = blind.discard_values([parse_card("7D"), parse_card("6C")], blind.sampled_opponents())
    assert blind_values[parse_card("7D")] > blind_values[parse_card("6C")]


def test_pruned_discard_values_with_added_terms_pick_the_same_card() -> None:
    """A subclass's terms (the champion's learned values) are added after the gain, in order; with
    pruning, skipped candidates keep an upper bound and the best card is the one full scoring picks."""
    def position() -> HeuristicUtilityPlayer:  # a fresh, identical player per call: scoring draws random cards
        player = _player()
        _deal(player, "AS 2S 3S 5C 5D 9H 9C 4D JH KS", drawn="7C")
        return player

    hand = position().hand
    candidates = [c for c in range(52) if hand >> c & 1]
    rng = np.random.default_rng(5)
    skipped = 0
    for trial in range(20):
        terms = [dict(zip(candidates, rng.normal(0, 0.05, len(candidates)))) for _ in range(2)]
        plain = position()
        base = plain.discard_values(candidates, plain.sampled_opponents(), prune=False)
        full_player, pruned_player = position(), position()
        full = full_player.discard_values(candidates, full_player.sampled_opponents(), prune=False, terms=terms)
        pruned = pruned_player.discard_values(candidates, pruned_player.sampled_opponents(), terms=terms)
        assert all(full[c] == base[c] + terms[0][c] + terms[1][c] for c in candidates)
        assert all(pruned[c] >= full[c] for c in candidates)
        best = max(full, key=lambda c: (full[c], -c))
        assert max(pruned, key=lambda c: (pruned[c], -c)) == best and pruned[best] == full[best]
        skipped += sum(pruned[c] > full[c] for c in candidates)
    assert skipped  # the pruning was exercised


def test_knock_modification_holds_a_high_knock_when_the_opponent_looks_close() -> None:
    hand = "AS 2S 3S 5C 5D 5H 9H 9C 9D"
    eager = _player(close_share=1.0, close_deadwood=0)
    _deal(eager, hand + " 8C", drawn="KD")
    eager.report_discard(0, parse_card("KD"))
    assert eager.knock() is not None  # deadwood 8, opponent not close: knock
    wary = _player(close_share=0.0)
    _deal(wary, hand + " 8C", drawn="KD")
    wary.report_discard(0, parse_card("KD"))
    assert wary.knock() is None  # 8 > 6 and the opponent looks close
    low = _player(close_share=0.0)
    _deal(low, hand + " 4C", drawn="KD")
    low.report_discard(0, parse_card("KD"))
    melds = low.knock()
    assert melds is not None and tuple(sorted(melds)) in {tuple(sorted(m)) for m in best_meld_sets(low.hand)}


def test_plays_whole_games_with_every_estimator_choice() -> None:
    for seed, estimator in enumerate(("mlp8", "uniform")):
        result = play_game((HeuristicUtilityPlayer(seed=seed, estimator=estimator), SimplePlayer(seed=seed + 10)),
                           seed=seed)
        assert result.forfeit is None


def test_same_seed_same_decisions() -> None:
    results = [play_game((HeuristicUtilityPlayer(seed=4), SimplePlayer(seed=5)), seed=9) for _ in range(2)]
    assert results[0].scores == results[1].scores


def test_stock_draws_zero_is_the_exact_expectation_over_every_unseen_card():
    import numpy as np

    from ginbots.game.engine import GameConfig, play_game
    from ginbots.players.baselines import SimplePlayer
    from ginbots.players.heuristic import HeuristicUtilityPlayer

    exact = HeuristicUtilityPlayer(seed=3, stock_draws=0, samples=20)
    play_game([exact, SimplePlayer(seed=1)], seed=5, config=GameConfig(max_hands_per_game=1, time_budget=None))
    opponents = exact.sampled_opponents()[:5]
    full = exact.opponent_stock_utilities(opponents)
    # the same expectation card by card
    from ginbots.estimators.snapshot import bits
    from ginbots.players.hand_utility import best_after_discard

    pile = exact._pile_mask()
    unseen = ~(bits(opponents) + bits(np.array([pile])) > 0)
    for i, hand in enumerate(opponents):
        cards = np.flatnonzero(unseen[i])
        hands = hand | (np.uint64(1) << cards.astype(np.uint64))
        values = best_after_discard(hands, np.zeros(len(hands), dtype=np.uint64), pile, exact._opponent_in_meld(),
                                    exact.weights)
        assert abs(full[i] - values.mean()) < 1e-6


def test_every_gain_computed_picks_the_same_discard_as_the_pruned_scoring() -> None:
    """The pruned scoring keeps upper bounds for candidates that cannot win; computing every gain
    (``prune=False``, for players that add their own terms) must not change the best card."""
    rng = random.Random(5)
    for _ in range(20):
        player = _player(stock_draws=0)  # every unseen card: no random stock draws between the two scorings
        deck = list(range(52))
        rng.shuffle(deck)
        player.start_hand(0, 1, sum(1 << c for c in deck[:10]))
        player.report_draw(0, deck[10])
        candidates = [c for c in range(52) if player.hand >> c & 1]
        opponents = player.sampled_opponents()
        pruned = player.discard_values(candidates, opponents)
        full = player.discard_values(candidates, opponents, prune=False)
        assert max(pruned, key=lambda c: (pruned[c], -c)) == max(full, key=lambda c: (full[c], -c))
        assert all(full[c] <= pruned[c] + 1e-9 for c in candidates)  # a pruned value is an upper bound
