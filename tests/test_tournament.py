"""Tournaments: ratings on hand-made results, resume without loss or duplicates, forfeits, report, replay."""

import json
import math
import os
import signal
import time

import pytest

from ginbots.arena.ratings import ELO_SCALE, bradley_terry, elo_by_rounds
from ginbots.arena.report import build_report
from ginbots.arena.tournament import (
    GAMES_FILE,
    TournamentConfig,
    TournamentError,
    _Worker,
    load_games,
    regenerate_trace,
    run_tournament,
)
from ginbots.cli import main


def test_bradley_terry_known_answers():
    two = bradley_terry(["a", "b"], {("a", "b"): 75, ("b", "a"): 25}, prior_games=0)
    assert two["a"][0] - two["b"][0] == pytest.approx(ELO_SCALE * math.log(3), abs=1e-6)
    assert two["a"][0] + two["b"][0] == pytest.approx(2000)
    assert two["a"][1] < two["a"][0] < two["a"][2]
    even = bradley_terry(["a", "b", "c"], {("a", "b"): 5, ("b", "a"): 5, ("b", "c"): 5, ("c", "b"): 5,
                                           ("a", "c"): 5, ("c", "a"): 5})
    assert all(r[0] == pytest.approx(1000) for r in even.values())
    sweep = bradley_terry(["a", "b"], {("a", "b"): 10, ("b", "a"): 0})   # the prior keeps it finite
    assert math.isfinite(sweep["a"][0]) and sweep["a"][0] > sweep["b"][0]
    more = bradley_terry(["a", "b"], {("a", "b"): 750, ("b", "a"): 250}, prior_games=0)
    assert more["a"][2] - more["a"][1] < two["a"][2] - two["a"][1]    # more games, tighter interval


def test_elo_by_rounds_matches_a_hand_computation():
    ratings = elo_by_rounds(["a", "b"], [[("a", "b", 1.0)], [("a", "b", 0.0)]])
    after_two = 1004 - 8 * (1 / (1 + 10 ** (-8 / 400)))
    assert ratings["a"] == pytest.approx((1004 + after_two) / 2)
    assert ratings["a"] + ratings["b"] == pytest.approx(2000)


CONFIG = TournamentConfig(bots=("simple", "greedy", "random"), games_per_pair=6, seed=4)


def _strip(games):
    return sorted((g["pair"], g["index"], g["winner"], json.dumps(g["scores"]), len(g["hands"])) for g in games)


def test_resume_after_interruption_loses_nothing_and_duplicates_nothing(tmp_path, monkeypatch):
    reference = run_tournament(CONFIG, tmp_path / "ref", progress=False)
    calls = {"n": 0}
    real_run = _Worker.run.__func__

    def flaky(cls, item):
        calls["n"] += 1
        if calls["n"] == 8:  # the user presses Ctrl-C: SIGINT reaches the runner, not the worker
            os.kill(os.getppid(), signal.SIGINT)
            time.sleep(30)
        return real_run(cls, item)
    monkeypatch.setattr(_Worker, "run", classmethod(flaky))
    partial = run_tournament(CONFIG, tmp_path / "t", progress=False)
    assert partial["interrupted"] and 0 < partial["games"] < reference["games"]
    with open(tmp_path / "t" / GAMES_FILE, "a") as fh:
        fh.write('{"pair": 0, "index": 99, "torn')             # a write cut by a kill
    monkeypatch.setattr(_Worker, "run", classmethod(real_run))
    full = run_tournament(CONFIG, tmp_path / "t", progress=False)
    games = load_games(tmp_path / "t")
    keys = [(g["pair"], g["index"]) for g in games]
    assert len(keys) == len(set(keys)) == 3 * 6
    assert _strip(games) == _strip(load_games(tmp_path / "ref"))
    assert [r["bt"] for r in full["bots"]] == pytest.approx([r["bt"] for r in reference["bots"]])


def test_resuming_with_other_bots_is_refused(tmp_path):
    run_tournament(CONFIG, tmp_path, progress=False)
    with pytest.raises(TournamentError, match="bots"):
        run_tournament(TournamentConfig(bots=("simple", "keats"), games_per_pair=2, seed=4), tmp_path, progress=False)


def test_forfeits_are_recorded_and_the_tournament_goes_on(tmp_path, monkeypatch):
    from ginbots.players import baselines

    def broken(self):
        raise RuntimeError("greedy bug")
    monkeypatch.setattr(baselines.GreedyPlayer, "discard", broken)
    summary = run_tournament(CONFIG, tmp_path, progress=False)
    assert summary["games"] == 18
    greedy = next(r for r in summary["bots"] if r["bot"] == "greedy")
    assert greedy["losses"] == 12 and len(greedy["forfeits"]) == 12
    assert all("greedy bug" in f for f in greedy["forfeits"])


def test_report_builds_with_inline_images_and_a_game_replays(tmp_path, capsys):
    summary = run_tournament(CONFIG, tmp_path, progress=False)
    page, charts = build_report(summary, tmp_path)
    text = page.read_text()
    assert len(charts) == 3 and text.count("data:image/png;base64,") == 3
    assert "Bradley-Terry" in text and "simple" in text
    trace = regenerate_trace(tmp_path, "greedy", "simple", 2)
    assert trace["hands"] and trace["game"] == 2
    assert main(["replay", str(tmp_path), "--pair", "simple,greedy", "--game", "2", "--hand", "1"]) == 0
    assert "Hand 1 of" in capsys.readouterr().out
    with pytest.raises(TournamentError, match="no pair"):
        regenerate_trace(tmp_path, "simple", "keats", 0)


def test_cli_tournament_runs_and_prints_ratings(tmp_path, capsys):
    assert main(["tournament", "simple", "random", "--games-per-pair", "4", "--out", str(tmp_path),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "round robin of 2 bots" in out and "report:" in out
    assert (tmp_path / "report.html").exists() and (tmp_path / "summary.json").exists()


def test_each_match_gets_its_own_players_so_nothing_learned_follows_a_bot_to_its_next_opponent():
    config = TournamentConfig(bots=("simple", "greedy", "random"), games_per_pair=2, seed=1)
    _Worker.setup(config)
    first, again = _Worker.player("simple", 0, 0), _Worker.player("simple", 0, 1)
    assert first is again                              # one player for the whole match ...
    assert _Worker.player("simple", 1, 0) is not first  # ... and a fresh one against the next opponent
    _Worker.run(config.jobs()[0])
    assert set(_Worker.players) >= {("simple", 0), ("greedy", 0), ("simple", 1)}


def test_a_pairs_seed_replays_its_deals_as_a_match():
    from ginbots.arena.match import MatchConfig, schedule

    config = TournamentConfig(bots=("simple", "greedy", "random"), games_per_pair=4, seed=8)
    pair_jobs = [job for p, job in config.jobs() if p == 2]
    assert pair_jobs == schedule(MatchConfig(games=4, seed=config.pair_seed(2), duplicate=True))
    assert config.pair_seed(2) != config.pair_seed(1)


def test_a_remembering_bots_games_are_scheduled_in_whole_blocks_and_a_cut_block_is_replayed():
    from ginbots.arena.match import MEMORY_BLOCK
    from ginbots.arena.tournament import _todo

    config = TournamentConfig(bots=("champion:memory_hands=30", "simple", "greedy"), games_per_pair=30, seed=3)
    todo, block_of = _todo(config, set())
    assert block_of is not None and len(todo) == 3 * 30
    # block 0 of every pair, then block 1; a remembering pair's block in game order
    assert [job.index // MEMORY_BLOCK for _, job in todo] == sorted(job.index // MEMORY_BLOCK for _, job in todo)
    pair0 = [job.index for p, job in todo if p == 0]
    assert pair0 == sorted(pair0)
    finished = {(0, i) for i in range(25)} | {(2, i) for i in range(25)}  # pair 2 (simple vs greedy) forgets
    todo, _ = _todo(config, finished)
    assert [job.index for p, job in todo if p == 0] == list(range(20, 30))  # block 1 again from its start
    assert [job.index for p, job in todo if p == 2] == list(range(25, 30))
    assert _todo(TournamentConfig(bots=("simple", "greedy"), games_per_pair=4, seed=3), set())[1] is None


@pytest.mark.slow
def test_a_remembering_bot_gives_the_same_tournament_with_any_number_of_workers(tmp_path):
    from ginbots.arena.match import MEMORY_BLOCK

    bots = ("champion:memory_hands=30,game_playouts=1500", "simple")
    one = run_tournament(TournamentConfig(bots=bots, games_per_pair=MEMORY_BLOCK + 4, seed=4, workers=1),
                         tmp_path / "one", progress=False)
    two = run_tournament(TournamentConfig(bots=bots, games_per_pair=MEMORY_BLOCK + 4, seed=4, workers=2),
                         tmp_path / "two", progress=False)
    assert _strip(load_games(tmp_path / "one")) == _strip(load_games(tmp_path / "two"))
    assert one["games"] == two["games"] == MEMORY_BLOCK + 4
    regenerate_trace(tmp_path / "two", *bots, MEMORY_BLOCK - 1)  # replays the block's earlier games first
