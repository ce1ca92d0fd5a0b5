"""Adversarial runs: bots that exit, hang, raise anything or leave threads never stop a match or a tournament.

Every run here is bounded in time; every game is recorded exactly once, with a reason.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from ginbots.arena.match import MatchConfig, run_match
from ginbots.arena.supervisor import Lost, supervise
from ginbots.arena.tournament import TournamentConfig, load_games, run_tournament
from ginbots.game.engine import GameConfig
from ginbots.players import registry
from ginbots.players.registry import parse_spec

HOSTILE = {"exits-hard": "hostile:ExitsHard", "sys-exits": "hostile:SysExits",
           "raises-interrupt": "hostile:RaisesInterrupt", "unstoppable": "hostile:Unstoppable",
           "leaves-thread": "hostile:LeavesThread", "chatty": "hostile:Chatty", "spy": "hostile:Spy"}


@pytest.fixture(autouse=True)
def hostile_registered(monkeypatch):
    monkeypatch.setattr(registry, "BUILTIN_PLAYERS", {**registry.BUILTIN_PLAYERS, **HOSTILE})


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("bot, rule", [("exits-hard", "process-died"), ("sys-exits", "exception"),
                                       ("raises-interrupt", "exception"), ("unstoppable", "time-budget")])
def test_a_hostile_bot_forfeits_every_game_and_the_match_finishes(bot, rule, workers):
    budget = 0.5
    start = time.monotonic()
    report = run_match(parse_spec(bot), parse_spec("simple"),
                       MatchConfig(games=4, seed=3, workers=workers, game=GameConfig(time_budget=budget)),
                       progress=False)
    elapsed = time.monotonic() - start
    data = report.to_json()
    assert data["games"] == 4 and sorted(g["index"] for g in report.games) == [0, 1, 2, 3]
    assert data["A"]["forfeits"] == 4 and data["B"]["wins"] == 4
    assert all(f["role"] == "A" and f["rule"] == rule and f["action"] == "discard" for f in data["forfeit_list"])
    assert elapsed < 60, f"{bot} held the match for {elapsed:.0f} s"


def test_a_thread_left_behind_does_not_keep_anything_alive():
    start = time.monotonic()
    report = run_match(parse_spec("leaves-thread"), parse_spec("simple"),
                       MatchConfig(games=2, seed=1, workers=1, game=GameConfig(time_budget=5)), progress=False)
    assert len(report.games) == 2 and time.monotonic() - start < 30


@pytest.mark.parametrize("isolate, rule, words", [(False, "process-died", "worker process exited with status 3"),
                                                  (None, "exception", "without a protocol error report")])
def test_a_tournament_with_a_crashing_bot_finishes_and_records_each_game_once(tmp_path, monkeypatch, isolate, rule,
                                                                              words):
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(os.path.abspath(__file__)))
    config = TournamentConfig(bots=("exits-hard", "simple", "greedy"), games_per_pair=2, seed=2, workers=2,
                              time_budget=5, isolate=isolate)
    summary = run_tournament(config, tmp_path, progress=False)
    games = load_games(tmp_path)
    keys = [(g["pair"], g["index"]) for g in games]
    assert len(keys) == len(set(keys)) == 6 and summary["games"] == 6
    crashed = [g for g in games if "forfeit" in g]
    assert len(crashed) == 4 and all(g["forfeit"]["player"] == "exits-hard" and g["forfeit"]["rule"] == rule
                                     and words in g["forfeit"]["detail"] for g in crashed)


def _die_on_odd(item: int) -> int:
    if item % 2:
        os._exit(7)
    return item * 10


def _no_setup() -> None:
    pass


def test_the_supervisor_replaces_dead_workers_and_reports_each_lost_item():
    results, lost = {}, []
    interrupted = supervise([[0, 1, 2], [3, 4], [5, 6]], 2, _no_setup, (), _die_on_odd,
                            lambda item, r: results.__setitem__(item, r), on_lost=lost.append)
    assert not interrupted and results == {0: 0, 2: 20, 4: 40, 6: 60}
    assert sorted(x.item for x in lost) == [1, 3, 5]
    assert all(isinstance(x, Lost) and "status 7" in x.detail for x in lost)


def _slow(item: int) -> int:
    if item == 3:
        os.kill(os.getppid(), signal.SIGINT)  # the user's Ctrl-C reaches the runner
        time.sleep(30)
    return item


def test_ctrl_c_stops_the_run_and_keeps_what_finished():
    results = {}
    start = time.monotonic()
    interrupted = supervise([[0, 1, 2, 3, 4, 5]], 1, _no_setup, (), _slow, results.__setitem__)
    assert interrupted and results == {0: 0, 1: 1, 2: 2} and time.monotonic() - start < 20


def test_in_process_a_spy_sees_the_opponent_but_isolated_it_sees_nothing(tmp_path, monkeypatch):
    from hostile import Spy

    from ginbots.game.engine import play_game
    from ginbots.players.baselines import SimplePlayer

    spy = Spy(seed=0)
    play_game([spy, SimplePlayer(seed=1)], seed=1, config=GameConfig(max_hands_per_game=1))
    assert "opponent_hand" in spy.found  # the reason isolation exists

    monkeypatch.setenv("PYTHONPATH", os.path.dirname(os.path.abspath(__file__)))
    spec = parse_spec("spy").isolated(None, log_dir=str(tmp_path))
    assert spec.isolate  # not the bundle's own bot: isolated by default
    report = run_match(spec, parse_spec("simple"), MatchConfig(games=2, seed=1, game=GameConfig(time_budget=10)),
                       progress=False)
    assert len(report.games) == 2 and not report.to_json()["forfeit_list"]
    logs = "".join(p.read_text() for p in tmp_path.glob("*.log"))
    assert "spy found: []" in logs and "opponent_hand" not in logs


def test_an_isolated_bot_is_capped_in_memory_and_killed_at_its_budget(tmp_path, monkeypatch):
    monkeypatch.setitem(HOSTILE, "hog", "hostile:Hog")
    monkeypatch.setattr(registry, "BUILTIN_PLAYERS", {**registry.BUILTIN_PLAYERS, **HOSTILE})
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(os.path.abspath(__file__)))
    # the hog's budget is roomy: on a loaded host, allocating up to the cap can take longer than the
    # unstoppable bot's 1 s, and then the clock, not the memory cap, would stop it
    for bot, rule, budget in (("hog", "exception", 20), ("unstoppable", "time-budget", 1)):
        spec = parse_spec(bot).isolated(True, memory_mb=400, log_dir=str(tmp_path))
        start = time.monotonic()
        report = run_match(spec, parse_spec("simple"), MatchConfig(games=2, seed=1, game=GameConfig(time_budget=budget)),
                           progress=False)
        forfeits = report.to_json()["forfeit_list"]
        assert len(forfeits) == 2 and all(f["role"] == "A" and f["rule"] == rule for f in forfeits), forfeits
        assert time.monotonic() - start < 60
    assert "MemoryError" in "".join(p.read_text() for p in tmp_path.glob("hog*.log"))


def test_a_second_tournament_on_the_same_folder_is_refused(tmp_path):
    from ginbots.arena.tournament import TournamentError, _lock

    held = _lock(tmp_path)
    try:
        with pytest.raises(TournamentError, match="being written by another tournament"):
            run_tournament(TournamentConfig(bots=("simple", "greedy"), games_per_pair=2), tmp_path, progress=False)
    finally:
        held.close()
    assert run_tournament(TournamentConfig(bots=("simple", "greedy"), games_per_pair=2), tmp_path,
                          progress=False)["games"] == 2
