"""Game equity: exact small cases, the shipped table's symmetry and shape, the champion's use of it."""

import pytest

from ginbots.game.cards import mask_of
from ginbots.players.champion import RESULT_BOUND, ChampionPlayer
from ginbots.search.equity import (
    HAND_POINTS,
    equity_table,
    hand_utility,
    points_per_equity,
)


def test_equity_matches_hand_counted_cases():
    # Every hand moves 10 points either way, evenly: to 20 is two wins before two losses.
    table = equity_table(((10, 1), (-10, 1)), goal=20)
    assert table[0, 0] == pytest.approx(0.5)
    assert table[10, 0] == pytest.approx(0.75)   # one more win, or a loss then a win
    assert table[10, 10] == pytest.approx(0.5)
    assert table[0, 10] == pytest.approx(0.25)
    assert table[20, 5] == 1.0 and table[5, 20] == 0.0
    # A hand won 3 times in 4, to 10 in one hand.
    assert equity_table(((10, 3), (-10, 1)), goal=10)[0, 0] == pytest.approx(0.75)


def test_the_shipped_table_favours_neither_player_and_rises_with_our_score():
    counts = dict(HAND_POINTS)
    assert all(counts[-x] == c for x, c in counts.items())
    table = equity_table()
    assert table[0, 0] == pytest.approx(0.5)
    assert table[60, 40] + table[40, 60] == pytest.approx(1.0)
    assert (table[1:100, :100] >= table[:99, :100] - 1e-12).all()   # more of ours never hurts
    assert (table[:100, 1:100] <= table[:100, :99] + 1e-12).all()   # more of theirs never helps
    assert 50 < points_per_equity(table) < 1000


def test_bad_hand_tables_are_refused():
    for bad in ((), ((0, 5),), ((10, -1), (-10, 2))):
        with pytest.raises(ValueError, match="hand-points table"):
            equity_table(bad, goal=20)


def test_near_the_goal_every_won_hand_is_worth_the_same():
    table = equity_table()
    scale = points_per_equity(table)
    utility = hand_utility(table, 97, 40, scale, -10, 50)
    assert utility[10 + 3] == utility[10 + 50] == pytest.approx(scale)  # +3 ends the game as well as +50
    assert utility[10 + 0] < utility[10 + 3]
    assert hand_utility(table, -40, 400, scale, -1, 1) == [0.0, 0.0, 0.0]  # odd scores are clamped
    early = hand_utility(table, 0, 0, scale, -20, 20)
    assert early[40] - early[0] == pytest.approx(40, rel=0.25)  # about points at the game's start


def test_the_score_aware_champion_scores_playouts_from_this_games_scores():
    bot = ChampionPlayer(seed=0, score_aware=True)
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))
    start = bot.utility
    assert start is not None and start[RESULT_BOUND + 5] > start[RESULT_BOUND]
    bot.report_scores((30, 95))   # we sit in seat 1, 5 points from the goal
    bot.start_hand(1, 0, mask_of(range(10)))
    def scored(points: int) -> float:
        [value] = bot._scored(lambda lo, hi: [points] * (hi - lo))(0, 1)
        return value

    assert scored(5) == scored(60) > scored(0)


def test_score_aware_against_simple_like_turns_off_once_the_opponent_shows_gin_waiting_play():
    bot = ChampionPlayer(seed=0, score_aware=True, score_aware_against="simple-like")
    bot.new_game(0)
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is not None          # first hand: no evidence yet, taken for Simple-like
    bot.hand_rhos.append(0.9)               # the filter explained the opponent's hand by minimum deadwood
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is not None
    bot.hand_rhos.extend([0.05, 0.02])      # mean rho 0.32 < switch_rho: the second estimator's kind
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is None
    always = ChampionPlayer(seed=0, score_aware=True)
    always.new_game(0)
    always.hand_rhos.extend([0.05, 0.02])
    always.start_hand(0, 0, mask_of(range(10)))
    assert always.utility is not None


def test_score_aware_once_shown_scores_a_games_first_hand_in_points():
    bot = ChampionPlayer(seed=0, score_aware=True, score_aware_against="shown-simple-like")
    bot.new_game(0)
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is None              # no finished hand yet: points, as without score_aware
    bot.report_scores((0, 20))
    bot.hand_rhos.append(0.9)               # that hand was explained by minimum-deadwood play
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is not None
    bot.hand_rhos.extend([0.05, 0.02])
    bot.start_hand(0, 0, mask_of(range(10)))
    assert bot.utility is None


def test_an_edge_moves_who_wins_hands_not_their_sizes():
    """with_edge(share) gives the first player ``share`` of the hands, each side's sizes in their shapes;
    a half is the even table, and more hands won is a higher chance of the game from 0-0."""
    import pytest

    from ginbots.search.equity import HAND_POINTS, equity_table, with_edge

    even = with_edge(0.5)
    total = sum(c for _, c in HAND_POINTS)
    assert all(abs(c - c0 / total) < 1e-12 for (_, c), (_, c0) in zip(even, [r for r in HAND_POINTS if r[0]]))
    assert abs(equity_table(even)[0, 0] - 0.5) < 1e-9
    ahead = with_edge(0.6)
    assert abs(sum(c for p, c in ahead if p > 0) - 0.6) < 1e-12
    assert equity_table(ahead)[0, 0] > 0.6 > equity_table(with_edge(0.4))[0, 0] + 0.2
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        with_edge(1.0)


def test_score_edge_reads_the_hands_this_game_shows():
    from ginbots.search.equity import with_edge

    bot = ChampionPlayer(seed=0, score_aware=True, score_edge=4.0)
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))  # we sit in seat 1
    assert bot._hand_points() == with_edge(0.5)
    bot.report_scores((0, 27))   # won
    bot.report_scores((0, 27))   # a cancelled hand: not decided
    bot.report_scores((12, 27))  # lost
    bot.report_scores((12, 60))  # won
    assert (bot.hands_won, bot.hands_decided) == (2, 3)
    assert bot._hand_points() == with_edge(0.55)  # (2 + 2) / (3 + 4) = 0.571, in steps of 0.05
    assert ChampionPlayer(seed=0)._hand_points() == HAND_POINTS  # score_edge=0: two equal players
