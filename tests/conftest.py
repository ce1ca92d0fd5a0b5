"""Shared test helpers: the EAAI fixtures (copied into tests/data/eaai) and scripted players."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

DATA = Path(__file__).parent / "data" / "eaai"


def fixture_records(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


def iter_fixture(name: str) -> Iterator[dict[str, Any]]:
    yield from fixture_records(name)


#: One line per bot from tests/test_openspiel.py, printed at the end of the run.
OPENSPIEL_RESULTS: list[str] = []


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if OPENSPIEL_RESULTS:
        terminalreporter.section("OpenSpiel gin_rummy: bundled bots vs OpenSpiel's simple bot")
        for line in OPENSPIEL_RESULTS:
            terminalreporter.write_line(line)


# --- markers: `python -m pytest -m "not slow"` is the quick subset (about two minutes) ------------------
#: Whole modules that play many games, build environments or train: slow.
SLOW_MODULES = {"test_openspiel", "test_no_loops", "test_judging", "test_tuning", "test_package",
                "test_simple_statistics", "test_supervisor", "test_tournament"}
#: Modules that need a JDK (javac, java).
JAVA_MODULES = {"test_java_shim"}
#: Modules that train networks or compile the self-play core (torch, numba).
TRAIN_MODULES = {"test_dual_inception", "test_estimator_pipeline", "test_selfplay", "test_tabular",
                 "test_calibration"}
#: Single slow tests in otherwise quick modules (a second or more each).
SLOW_TESTS = {"test_example_trains_and_plays_on_a_tiny_budget", "test_the_api_reference_builds_from_the_docstrings",
              "test_the_readme_walk_through_runs", "test_the_same_seed_gives_the_same_games_under_a_cpu_hog",
              "test_champion_plays_gin_waiters_and_simple_reproducibly_within_its_budget",
              "test_knock_points_score_as_the_engine_does", "test_planner_plays_hundreds_of_games_without_forfeit",
              "test_keats_plays_hundreds_of_games_without_forfeit", "test_piped_input_plays_a_whole_game_that_replays_and_views",
              "test_hostile_names_in_a_trace_are_text_in_headless_chromium",
              "test_an_interrupted_decision_kills_the_child_and_the_next_game_starts_fresh",
              "test_champion_stops_searching_when_the_hosts_clock_runs_short",
              "test_a_corrupt_second_weights_file_stops_the_champion_before_its_first_game"}


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        module = item.module.__name__.rpartition(".")[2]
        if module in JAVA_MODULES:
            item.add_marker(pytest.mark.java)
        if module in TRAIN_MODULES:
            item.add_marker(pytest.mark.train)
        if module in SLOW_MODULES | JAVA_MODULES | TRAIN_MODULES or item.originalname in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
