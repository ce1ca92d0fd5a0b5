"""Runs on a real local Dask cluster (separate worker processes) give the local runner's games (issue 39)."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from ginbots.arena.match import MatchConfig, run_match  # noqa: E402
from ginbots.arena.tournament import TournamentConfig, load_games, run_tournament  # noqa: E402
from ginbots.players.registry import parse_spec  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        yield c


def _played(report) -> list[dict]:
    """Each game's outcome without its timings (which differ run to run)."""
    return [{k: v for k, v in g.items() if "think" not in k and "time" not in k} for g in report.games]


def test_a_match_on_the_cluster_plays_the_local_games(cluster) -> None:
    a, b = parse_spec("keats"), parse_spec("simple")
    local = run_match(a, b, MatchConfig(games=40, seed=3, duplicate=True))
    remote = run_match(a, b, MatchConfig(games=40, seed=3, duplicate=True, cluster=cluster.scheduler_address))
    assert _played(remote) == _played(local)
    assert [g["index"] for g in remote.games] == list(range(40))
    assert "cluster tcp://" in remote.to_text()


def test_a_worker_killed_mid_run_costs_only_its_chunk(cluster) -> None:
    """SIGKILL one worker while it plays a chunk: the scheduler re-runs that chunk elsewhere and every
    game is counted once, the same games as a local run."""
    a, b = parse_spec("keats"), parse_spec("simple")
    config = MatchConfig(games=240, seed=8, duplicate=True)
    local = run_match(a, b, config)
    killed: list[int] = []

    def kill_a_busy_worker() -> None:
        with distributed.Client(cluster.scheduler_address) as client:
            pids = client.run(os.getpid)
            deadline = time.time() + 60
            while time.time() < deadline:
                busy = [w for w, tasks in client.processing().items() if tasks]
                if busy:
                    time.sleep(0.8)  # well inside its chunk (its process is spawned, then plays 30 games)
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(pids[busy[0]])
                    return
                time.sleep(0.05)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    remote = run_match(a, b, MatchConfig(games=240, seed=8, duplicate=True, cluster=cluster.scheduler_address))
    killer.join()
    assert killed, "no worker was busy to kill"
    assert [g["index"] for g in remote.games] == list(range(240))
    assert _played(remote) == _played(local)
    assert not any(g.get("forfeit") for g in remote.games)


def test_a_tournament_on_the_cluster_writes_the_local_games(cluster, tmp_path) -> None:
    config = TournamentConfig(bots=("simple", "keats", "greedy"), games_per_pair=6, seed=2, time_budget=None)
    run_tournament(config, tmp_path / "local")
    run_tournament(config, tmp_path / "remote", cluster=cluster.scheduler_address)

    def games(folder):
        return sorted((g["pair"], g["index"], g["winner"], tuple(g["scores"]), g["hands"])
                      for g in load_games(folder, config))

    assert games(tmp_path / "remote") == games(tmp_path / "local")
    assert len(games(tmp_path / "remote")) == 3 * 6


def test_data_chunks_on_the_cluster_equal_local_chunks(cluster, tmp_path) -> None:
    from ginbots.training.estimator_data import generate

    local = generate(tmp_path / "local", 40, seed=4, chunk=10, workers=1, progress=False)
    remote = generate(tmp_path / "remote", 40, seed=4, chunk=10, progress=False, cluster=cluster.scheduler_address)
    assert len(local) == len(remote) == 4
    for x, y in zip(local, remote):
        with np.load(x) as p, np.load(y) as q:
            assert sorted(p.files) == sorted(q.files)
            for key in p.files:
                assert np.array_equal(p[key], q[key]), (x.name, key)


def test_a_bad_address_is_named() -> None:
    from ginbots.arena.cluster import connect

    with pytest.raises(FileNotFoundError, match="no such scheduler file"):
        connect("/nonexistent/scheduler.json")
