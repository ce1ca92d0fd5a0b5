import json
from dataclasses import replace

import pytest

from ginbots.arena.match import MatchConfig, derive_seed, run_match, schedule
from ginbots.arena.stats import LatencyHistogram, wilson, z_for
from ginbots.cli import main
from ginbots.players.registry import parse_spec


def test_wilson_interval_known_values():
    lo, hi = wilson(50, 100, 0.95)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10, 0.90)
    assert lo == 0.0 and hi == pytest.approx(0.2130, abs=1e-3)
    assert z_for(0.90) == pytest.approx(1.6449, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_latency_histogram_quantiles_and_merge():
    h = LatencyHistogram()
    h.add_many([0.001] * 98 + [0.5, 0.5])
    assert h.quantile(0.5) == pytest.approx(0.001, rel=0.03)
    assert h.quantile(0.99) == pytest.approx(0.5, rel=0.03)
    g = LatencyHistogram.from_json(json.loads(json.dumps(h.to_json())))
    g.merge(h)
    assert g.total == 200 and g.quantile(0.5) == pytest.approx(0.001, rel=0.03)


def test_schedule_alternates_seats_and_duplicates_deals():
    plain = schedule(MatchConfig(games=6, seed=3))
    assert [j.a_seat for j in plain] == [0, 1, 0, 1, 0, 1]
    assert len({j.engine_seed for j in plain}) == 6
    dup = schedule(MatchConfig(games=5, seed=3, duplicate=True))
    assert len(dup) == 6  # rounded up to whole pairs
    for first, second in zip(dup[::2], dup[1::2]):
        assert first.engine_seed == second.engine_seed and first.a_seat != second.a_seat
    assert derive_seed(1, 2) != derive_seed(2, 1) and derive_seed(1, 2) == derive_seed(1, 2)


def test_match_results_do_not_depend_on_the_worker_count():
    a, b = parse_spec("simple"), parse_spec("random")
    one = run_match(a, b, MatchConfig(games=24, seed=5, workers=1), progress=False)
    two = run_match(a, b, MatchConfig(games=24, seed=5, workers=2), progress=False)
    assert [g["winner"] for g in one.games] == [g["winner"] for g in two.games]
    assert [g["scores"] for g in one.games] == [g["scores"] for g in two.games]
    data = one.to_json()
    assert data["A"]["wins"] + data["A"]["losses"] == 24
    assert data["A"]["wins"] > data["B"]["wins"]  # simple beats random
    assert data["A"]["decision_ms"]["decisions"] > 0


def test_single_hand_mode_counts_hands():
    report = run_match(parse_spec("simple"), parse_spec("greedy"),
                       MatchConfig(games=40, seed=2, single_hand=True), progress=False)
    data = report.to_json()
    assert data["mode"] == "single-hand" and data["hands"] == 40
    assert data["A"]["wins"] + data["B"]["wins"] + data["A"]["draws"] == 40


def test_forfeits_are_counted_and_the_match_goes_on(monkeypatch):
    from ginbots.players import baselines

    def broken_discard(self):
        raise ValueError("bad bot")
    monkeypatch.setattr(baselines.GreedyPlayer, "discard", broken_discard)
    report = run_match(parse_spec("simple"), parse_spec("greedy"), MatchConfig(games=4, seed=1), progress=False)
    data = report.to_json()
    assert data["A"]["wins"] == 4 and data["B"]["forfeits"] == 4
    assert all("bad bot" in f["reason"] and f["role"] == "B" for f in data["forfeit_list"])
    assert "forfeits: 4" in report.to_text()


def test_cli_match_prints_and_writes_json_and_traces(tmp_path, capsys):
    out, trace = tmp_path / "m.json", tmp_path / "t.jsonl"
    code = main(["match", "simple", "greedy", "--games", "10", "--seed", "7", "--duplicate",
                 "--json", str(out), "--trace", str(trace), "--no-progress", "--confidence", "95"])
    assert code == 0
    text = capsys.readouterr().out
    assert "simple vs greedy: 10 games to 100" in text and "95% Wilson CI" in text
    data = json.loads(out.read_text())
    assert data["games"] == 10 and data["duplicate"] and data["confidence"] == 0.95
    assert main(["replay", str(trace), "--check"]) == 0
    assert "10 identical" in capsys.readouterr().out
    assert main(["replay", str(trace), "--game", "3", "--hand", "1"]) == 0
    assert "Hand 1 of" in capsys.readouterr().out


def test_cli_reports_bad_input_clearly(capsys):
    assert main(["match", "simple", "nobody", "--games", "2"]) == 2
    assert "no player named 'nobody'" in capsys.readouterr().err
    assert main(["match", "random:take_probability=7", "simple", "--games", "2"]) == 2
    assert "take_probability" in capsys.readouterr().err


def test_block_chunks_never_split_a_block():
    from ginbots.arena.match import block_chunks

    items = list(range(47))
    chunks = block_chunks(items, 6, lambda i: i // 20)
    assert [c[0] for c in chunks] == [0, 20, 40] and sum(chunks, []) == items
    chunks = block_chunks(items, 30, lambda i: i // 10)
    assert [len(c) for c in chunks] == [30, 17]
    assert block_chunks(items, 4, lambda i: i) == [items[i:i + 4] for i in range(0, 47, 4)]


@pytest.mark.slow
def test_a_remembering_champion_plays_the_same_games_with_any_number_of_workers():
    """The champion with memory_hands carries what it learned of the opponent from game to game; the
    runner plays its games in blocks, each in order from a fresh player, so the worker count and the
    scheduling change nothing. Memory does change play: against a gin-waiting Simple, whose knock threshold it
    carries from game to game, the same match without it differs."""
    from ginbots.arena.match import MEMORY_BLOCK

    spec = parse_spec("champion:game_playouts=3000")
    assert spec.remembers and parse_spec("champion").remembers  # the default remembers
    assert not parse_spec("champion:memory_hands=0").remembers and not parse_spec("simple").remembers
    config = MatchConfig(games=2 * MEMORY_BLOCK + 8, seed=11, duplicate=True, single_hand=True)
    gin_waiter = parse_spec("simple:knock_at=0")
    runs = [run_match(spec, gin_waiter, replace(config, workers=w), progress=False) for w in (1, 2, 3)]
    outcomes = [[(g["winner"], g["scores"], len(g["hands"])) for g in r.games] for r in runs]
    assert outcomes[0] == outcomes[1] == outcomes[2]
    forgetful = run_match(parse_spec("champion:memory_hands=0,game_playouts=3000"), gin_waiter, config, progress=False)
    assert [(g["winner"], g["scores"]) for g in forgetful.games] != [o[:2] for o in outcomes[0]]


def test_cli_match_says_when_a_bot_remembers_its_opponent(capsys):
    assert main(["match", "champion:game_playouts=300", "simple", "--games", "2", "--seed", "1", "--single-hand",
                 "--no-progress"]) == 0
    assert "blocks of 20, each from a fresh player" in capsys.readouterr().out
    assert main(["match", "champion:memory_hands=0,game_playouts=300", "simple", "--games", "2", "--seed", "1",
                 "--single-hand", "--no-progress"]) == 0
    assert "fresh player" not in capsys.readouterr().out


def test_each_games_outcome_is_recorded_in_order_so_runs_on_the_same_deals_pair(tmp_path, capsys):
    import runpy
    from pathlib import Path

    files = []
    for spec in ("simple", "greedy"):
        files.append(tmp_path / f"{spec}.json")
        assert main(["match", spec, "greedy", "--games", "8", "--seed", "3", "--duplicate", "--workers", "2",
                     "--json", str(files[-1]), "--no-progress"]) == 0
    data = json.loads(files[0].read_text())
    assert len(data["game_winners"]) == len(data["game_margins"]) == 8
    assert data["game_winners"].count("A") == data["A"]["wins"]
    assert data["game_winners"].count("B") == data["A"]["losses"]
    assert all((m > 0) == (w == "A") for w, m in zip(data["game_winners"], data["game_margins"]))
    capsys.readouterr()
    script = Path(__file__).resolve().parent.parent / "experiments" / "champion-targets" / "compare_games.py"
    compare = runpy.run_path(str(script))["main"]
    assert compare([str(files[0]), str(files[1])]) == 0
    assert "paired over 4 deals" in capsys.readouterr().out
    other = tmp_path / "other_seed.json"
    assert main(["match", "simple", "greedy", "--games", "8", "--seed", "4", "--duplicate", "--json", str(other),
                 "--no-progress"]) == 0
    assert compare([str(files[0]), str(other)]) == 2
    assert "seed differs" in capsys.readouterr().err
    # Several pairs (one per seed) pool deal by deal: 4 + 4 deals, each side's wins summed.
    other_b = tmp_path / "other_seed_b.json"
    assert main(["match", "greedy", "greedy", "--games", "8", "--seed", "4", "--duplicate", "--json", str(other_b),
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert compare([str(files[0]), str(files[1]), str(other), str(other_b)]) == 0
    out = capsys.readouterr().out
    wins_a = json.loads(files[0].read_text())["A"]["wins"] + json.loads(other.read_text())["A"]["wins"]
    assert "pooled over 2 pairs" in out and "paired over 8 deals" in out and f"({wins_a}/" in out.split("pooled")[1]
    assert "B: greedy" in out
    with pytest.raises(SystemExit):  # files come in pairs
        compare([str(files[0]), str(files[1]), str(other)])
