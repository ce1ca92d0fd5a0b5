"""The sparse-sampling planner: its reward, clear-cut positions, the three methods, reproducibility."""

import pytest
from helpers import seated

from ginbots.game.cards import parse_card as C
from ginbots.game.engine import play_game
from ginbots.players.baselines import GreedyPlayer, SimplePlayer
from ginbots.players.planner import PlannerPlayer


def planner(hand, seat=0, starter=0, **params):
    return seated(PlannerPlayer, hand, seat, starter, seed=3, **params)


def test_reward_is_the_documents():
    p = PlannerPlayer(seed=0)
    assert p.reward(deadwood=42, melds=1) == 4 * 1 - 5 * 42
    assert p.reward(deadwood=10, melds=3) == 4 * 3 - 5 * 10 + 100
    assert p.reward(deadwood=0, melds=3) == 12 + 100


GIN_WAITING = "AC 2C 3C 4H 5H 6H 7S 8S 9S KD"   # three melds + KD: TS makes a 4-run


@pytest.mark.parametrize("method", ["sparse", "forward", "rollout", "mcts"])
def test_takes_a_face_up_card_that_completes_gin(method):
    p = planner(GIN_WAITING, method=method, rollouts=5)
    p.report_draw(1, None)          # not the first offer: the alternative is a stock draw
    p.report_discard(1, C("TS"))
    assert p.will_draw_face_up(C("TS"))
    p.report_draw(0, C("TS"))
    assert p.discard() == C("KD")


@pytest.mark.parametrize("method", ["sparse", "forward"])
def test_declines_a_useless_card_and_discards_the_costliest_deadwood(method):
    p = planner("AC 2C 3C 4H 5H 6H 7S 8S QD KD", method=method)
    p.report_draw(1, None)
    p.report_discard(1, C("JC"))
    assert not p.will_draw_face_up(C("JC"))
    p.report_draw(0, C("2S"))
    assert p.discard() in (C("QD"), C("KD"))


def test_first_offer_is_weighed_against_keeping_the_hand():
    p = planner(GIN_WAITING)
    assert p.will_draw_face_up(C("TS"))       # takes: gin beats keeping the hand
    q = planner(GIN_WAITING)
    assert not q.will_draw_face_up(C("QC"))   # nothing gained: keep (skip)


def test_depth_two_runs_and_agrees_on_the_clear_case():
    p = planner(GIN_WAITING, depth=2, samples=3)
    p.report_draw(1, None)
    p.report_discard(1, C("TS"))
    assert p.will_draw_face_up(C("TS"))


def test_same_seed_same_games():
    def run():
        return play_game([PlannerPlayer(seed=5), SimplePlayer(seed=6)], seed=8, trace=True).trace
    assert run() == run()


@pytest.mark.parametrize("params", [{}, {"draw_model": "expectimax"}, {"method": "forward"}])
def test_planner_plays_hundreds_of_games_without_forfeit(params):
    games = 150 if not params else 30
    for g in range(games):
        bots = [PlannerPlayer(seed=g, **params), GreedyPlayer(seed=g)]
        res = play_game(bots if g % 2 else bots[::-1], seed=g)
        assert res.forfeit is None and res.winner is not None


def test_rollout_planner_plays_legal_games():
    res = play_game([PlannerPlayer(seed=1, method="rollout", rollouts=2), SimplePlayer(seed=1)], seed=1)
    assert res.forfeit is None


def test_modified_mcts_plays_legal_reproducible_hands():
    from ginbots.game.engine import GameConfig
    from ginbots.players.baselines import GreedyPlayer

    config = GameConfig(time_budget=None, max_hands_per_game=1)
    runs = []
    for _ in range(2):
        bot = PlannerPlayer(seed=4, method="mcts", k_max=8, rollouts=2)
        result = play_game([bot, GreedyPlayer(seed=5)], seed=21, config=config)
        assert result.forfeit is None
        runs.append((result.scores, result.hands[0].turns))
    assert runs[0] == runs[1]


def test_modified_mcts_values_its_simulations_on_m_sampled_cards():
    bot = PlannerPlayer(seed=1, method="mcts", samples=3)
    bot._draw_pool((1 << 40) - 1)
    assert len(bot._pool) == 3
