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
