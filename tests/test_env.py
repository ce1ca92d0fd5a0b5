"""ginbots.connect.env: PettingZoo's API and seed tests, the seat's view only, exact deals, the Gymnasium wrapper."""

import subprocess
import sys
import threading
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from ginbots.connect.env import OBS_SIZE, GinRummyEnv, GinRummyVsBot, encode
from ginbots.game.engine import play_game
from ginbots.game.state import DRAW_STOCK, GinState, IllegalAction
from ginbots.players.baselines import SimplePlayer

ROOT = Path(__file__).resolve().parent.parent


def test_pettingzoo_api_and_seed_tests_pass():
    api_test(GinRummyEnv(), num_cycles=1000)
    api_test(GinRummyEnv(single_hand=True, reward="win"), num_cycles=300)
    seed_test(GinRummyEnv, num_cycles=300)


def test_reset_seed_deals_exactly_as_the_engine():
    for seed in (0, 7, 123456789):
        env = GinRummyEnv()
        env.reset(seed=seed)
        trace = play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=seed, trace=True).trace
        first = trace["hands"][0]
        state = env.state
        assert state.starter == first["starting_player"]
        assert state.shuffle_seed == first["shuffle_seed"]
        assert env.agent_selection == f"player_{first['starting_player']}"


def test_observation_is_the_seat_view_only():
    deck = list(range(52))
    other = list(deck)
    other[1], other[51] = other[51], other[1]  # swap a card of seat 1 with the bottom of the stock
    a = GinState(0, decks=[deck], first_starter=0)
    b = GinState(0, decks=[other], first_starter=0)
    assert np.array_equal(encode(a.observation(0)), encode(b.observation(0)))
    assert not np.array_equal(encode(a.observation(1)), encode(b.observation(1)))
    vec = encode(a.observation(0))
    assert vec.shape == (OBS_SIZE,) and vec[:52].sum() == 10


def test_illegal_action_is_refused_by_name_and_changes_nothing():
    env = GinRummyEnv()
    env.reset(seed=3)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    with pytest.raises(IllegalAction, match="phase offer; legal: take, stock"):
        env.step(5)
    with pytest.raises(IllegalAction, match="an action must be an int"):
        env.step("stock")
    assert env.agent_selection == agent and np.array_equal(env.observe(agent)["observation"], before)
    env.step(DRAW_STOCK)


def test_points_rewards_sum_to_the_final_score_difference():
    env = GinRummyEnv()
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.state.scores
    assert totals["player_0"] == scores[0] - scores[1] == -totals["player_1"]


def play_vs_bot(env, seed, rng):
    obs, info = env.reset(seed=seed)
    rewards, steps = [], 0
    while True:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        steps += 1
        if terminated or truncated:
            return rewards, info, steps


def test_gymnasium_wrapper_plays_a_game_against_a_bundle_bot_reproducibly():
    env = GinRummyVsBot("simple", seat=1, single_hand=False)
    rewards, info, steps = play_vs_bot(env, 5, np.random.default_rng(1))
    scores = info["scores"]
    assert sum(rewards) == scores[1] - scores[0]
    assert max(scores) >= 100 and info["winner"] in (0, 1)
    again, info2, steps2 = play_vs_bot(env, 5, np.random.default_rng(1))
    assert (again, info2, steps2) == (rewards, info, steps)
    env.close()


def test_gymnasium_wrapper_reset_mid_game_leaves_no_thread_behind():
    env = GinRummyVsBot("simple", single_hand=True, reward="win")
    before = threading.active_count()
    for seed in range(5):
        obs, _ = env.reset(seed=seed)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.close()
    assert threading.active_count() <= before
    env.reset(seed=0)
    with pytest.raises(IllegalAction, match="action 8C"):
        env.step(7)  # a discard while an offer is pending
    env.close()
    penalised = GinRummyVsBot("simple", illegal_penalty=-1.0)
    obs, _ = penalised.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = penalised.step(illegal)
    assert reward == -1.0 and info == {"illegal_action": illegal} and np.array_equal(obs2["observation"], obs["observation"])
    penalised.close()


def test_example_trains_and_plays_on_a_tiny_budget():
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "train_maskable_ppo.py"), "--timesteps", "128",
                          "--eval-games", "1"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "vs random:" in out.stdout and "vs simple:" in out.stdout


def test_gymnasium_wrapper_reports_an_opponent_forfeit_and_ends_the_episode():
    class Crashes(SimplePlayer):
        def discard(self):
            raise RuntimeError("boom")

    env = GinRummyVsBot(lambda: Crashes(seed=1), single_hand=False, reward="win")
    obs, _ = env.reset(seed=4)
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
    assert terminated and reward == 1.0 and info["winner"] == 0
    assert "boom" in info["forfeit"] and "seat 1" in info["forfeit"]
    with pytest.raises(gymnasium.error.ResetNeeded, match="game is over: call reset"):
        env.step(0)
    env.close()


def test_stepping_before_reset_or_after_the_end_is_the_librarys_reset_error():
    with pytest.raises(gymnasium.error.ResetNeeded, match="before reset"):
        GinRummyVsBot("simple").step(0)
    aec = GinRummyEnv()
    with pytest.raises(gymnasium.error.ResetNeeded, match="before reset"):
        aec.step(0)
    aec.reset(seed=1)
    for agent in aec.agent_iter():  # random legal play to the end, then the dead steps
        obs, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert not aec.agents
    with pytest.raises(gymnasium.error.ResetNeeded, match="every agent"):
        aec.step(0)


def test_an_episode_is_one_hand_by_default_and_the_state_prints_and_returns():
    env = GinRummyEnv()
    env.reset(seed=3)
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    state = env.state
    assert len(state.hands_played) == 1
    returns = state.returns()
    assert returns[0] == -returns[1] == state.scores[0] - state.scores[1]
    text = str(state)
    assert "seat 0:" in text and "seat 1:" in text and "deadwood" in text and "game-over" in text
    assert repr(state).startswith("GinState(hand=1, phase=game-over")
