from __future__ import annotations

from ginbots.arena.bench import DECISION_KINDS, bench_decisions, format_results


def test_decision_bench_times_each_kind_of_callback() -> None:
    result = bench_decisions("keats", hands=4, seed=3)
    assert set(result) == set(DECISION_KINDS) | {"all"}
    assert result["discard"]["decisions"] > 0 and result["will_draw_face_up"]["decisions"] > 0
    assert result["all"]["decisions"] == sum(result[k]["decisions"] for k in DECISION_KINDS)
    assert 0 <= result["discard"]["p50_ms"] <= result["discard"]["p99_ms"]
    text = format_results({"min_deadwood_10_per_s": 1.0, "min_deadwood_11_per_s": 1.0,
                           "simple_vs_simple_hands_per_s": 1.0, "simple_vs_simple_hands": 1,
                           "decisions": {"keats": result}})
    assert "keats discard time" in text and "keats decision time" in text


def test_every_target_is_marked_met_or_missed_and_the_champion_has_a_line() -> None:
    from ginbots.arena.bench import bench_champion

    champ = bench_champion(games=1, seed=2)
    assert champ["python"]["playouts_per_game"] > 0 and champ["python"]["cpu_s_per_game"] > 0
    if "compiled" in champ:  # numba installed: the same games on both paths, and a marked target
        assert champ["same_games"] is True
        assert champ["compiled"]["playouts_per_game"] == champ["python"]["playouts_per_game"]
    text = format_results({"min_deadwood_10_per_s": 800_000.0, "min_deadwood_11_per_s": 1.0,
                           "simple_vs_simple_hands_per_s": 1000.0, "simple_vs_simple_hands": 1,
                           "decisions": {"planner": bench_decisions("planner", hands=2, seed=1)},
                           "champion": champ})
    assert "target >= 700,000: met" in text and "target >= 2,500: MISSED" in text
    assert "against the Java engine:" in text and "target >= 1.5x: MISSED" in text
    assert "planner decision time" in text and ("target p50 <= 5 ms: met" in text or "MISSED" in text)
    assert "champion vs Simple, CPU per game (python)" in text
    if "compiled" in champ:
        assert "same games: yes" in text and "target >= 10x:" in text


def test_the_java_figure_the_bench_compares_with_is_the_last_measured_one() -> None:
    import json
    from pathlib import Path

    from ginbots.arena.bench import JAVA_MEASURED_ON, JAVA_SIMPLE_HANDS_PER_S

    record = json.loads((Path(__file__).parents[1] / "experiments/engine-speed/results/java_vs_python_pooled.json")
                        .read_text())
    assert round(record["java_hands_per_s_median"]) == JAVA_SIMPLE_HANDS_PER_S
    assert record["dates"][-1] == JAVA_MEASURED_ON


def test_the_champion_bench_plays_the_spec_it_is_given_and_refuses_other_bots() -> None:
    import pytest

    from ginbots.arena.bench import bench_champion
    from ginbots.cli import main

    lighter = bench_champion(games=1, seed=2, spec="champion:worlds=8,playouts=python")
    default = bench_champion(games=1, seed=2)
    assert lighter["spec"] == "champion:worlds=8,playouts=python"
    assert lighter["python"]["playouts_per_game"] < default["python"]["playouts_per_game"]  # 8 worlds, not 192
    with pytest.raises(ValueError, match="champion spec"):
        bench_champion(games=1, spec="simple")
    assert main(["bench", "champion", "--spec", "keats"]) == 2
