"""No two bundle bots can pass the same cards back and forth for ever (the Java engine has no turn cap)."""

from __future__ import annotations

from itertools import combinations

import pytest

from ginbots.arena.match import MatchConfig, schedule
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.registry import BUILTIN_PLAYERS, parse_spec, tuned_params_path

CAP = 300
BOTS = sorted(BUILTIN_PLAYERS) + sorted(f"{name}:tuned" for name in BUILTIN_PLAYERS if tuned_params_path(name))


def _hands(spec_a: str, spec_b: str, games: int, seed: int, single: bool) -> list:
    a, b = parse_spec(spec_a).make(), parse_spec(spec_b).make()
    config = GameConfig(time_budget=None, max_turns_per_hand=CAP, max_hands_per_game=1 if single else 1000)
    hands = []
    for job in schedule(MatchConfig(games=games, seed=seed, duplicate=True)):
        seated = [a, b] if job.a_seat == 0 else [b, a]
        seeds = (job.seed_a, job.seed_b) if job.a_seat == 0 else (job.seed_b, job.seed_a)
        hands += play_game(seated, seed=job.engine_seed, config=config, player_seeds=seeds).hands
    return hands


def test_the_reported_loop_now_ends():
    """keats:tuned vs planner:tuned, the issue's game 45 of seed 4242: it reached the 1,000-turn cap."""
    a, b = parse_spec("keats:tuned").make(), parse_spec("planner:tuned").make()
    job = schedule(MatchConfig(games=100, seed=4242, duplicate=True))[45]
    seated = [a, b] if job.a_seat == 0 else [b, a]
    seeds = (job.seed_a, job.seed_b) if job.a_seat == 0 else (job.seed_b, job.seed_a)
    result = play_game(seated, seed=job.engine_seed, config=GameConfig(time_budget=None, max_turns_per_hand=CAP),
                       player_seeds=seeds)
    assert not any("turn cap" in h.note for h in result.hands)


@pytest.mark.parametrize("pair", list(combinations(BOTS, 2)), ids=lambda p: f"{p[0]}-vs-{p[1]}")
def test_no_pair_of_bundle_bots_loops(pair):
    hands = _hands(pair[0], pair[1], games=8, seed=7, single=True)
    capped = [h for h in hands if "turn cap" in h.note]
    assert not capped, f"{len(capped)} of {len(hands)} hands reached {CAP} turns"
