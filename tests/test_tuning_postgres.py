"""Tuning across machines on a real PostgreSQL server, started here (issue 39).

The server is the system's PostgreSQL (``initdb`` and ``pg_ctl`` on PATH or under
/usr/lib/postgresql; ``.ci/run`` installs it). It runs as an unprivileged user when the tests run
as root (PostgreSQL refuses root), on a free local port, in a temporary folder.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import optuna
import pytest

pytest.importorskip("psycopg2")
pytestmark = pytest.mark.slow

from ginbots.tuning.storage import database_url  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _postgres_bin() -> Path:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    raise RuntimeError("no PostgreSQL server here (initdb): install it (Debian: apt-get install postgresql); "
                       ".ci/run does")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def postgres():
    """``postgresql://`` URL of a fresh server and database, stopped and removed after the module."""
    bin_dir = _postgres_bin()
    # Not under pytest's tmp_path: its folders are private to the user running the tests, and the
    # server may have to run as another one.
    home = Path(tempfile.mkdtemp(prefix="ginbots-pg-"))
    data = home / "data"
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root
        home.chmod(0o777)
        as_user = ["runuser", "-u", "nobody", "--"]
    subprocess.run(as_user + [str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "ginbots"],
                   check=True, capture_output=True)
    port = _free_port()
    log = data.parent / "server.log"
    subprocess.run(as_user + [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-o",
                              f"-p {port} -k {data.parent} -c listen_addresses=127.0.0.1", "start"],
                   check=True, capture_output=True)
    try:
        import psycopg2

        deadline = time.time() + 30
        while True:
            try:
                conn = psycopg2.connect(host="127.0.0.1", port=port, user="ginbots", dbname="postgres")
                break
            except psycopg2.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        conn.autocommit = True
        conn.cursor().execute("CREATE DATABASE studies")
        conn.close()
        yield f"postgresql://ginbots@127.0.0.1:{port}/studies"
    finally:
        subprocess.run(as_user + [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def test_two_tune_processes_on_one_postgresql_study_finish_exactly_the_trials(postgres, tmp_path):
    """Two ``ginbots tune`` processes (as on two machines) share one study on the server: exactly
    --trials finished trials, numbered without gaps, both processes at work, no parameters played twice."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "ginbots.tuning", "keats", "--trials", "8", "--games-per-trial", "8", "--batches", "1",
           "--heldout-games", "4", "--study", "machines", "--only", "take_threshold,mid_range_bonus",
           "--storage", postgres, "--out", str(tmp_path / "out")]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for _ in range(2)]
    outs = [p.communicate(timeout=600)[0].decode() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    study = optuna.load_study(study_name="machines", storage=database_url(postgres))
    counted = [t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
               and not t.user_attrs.get("surplus")]
    assert len(counted) == 8
    assert len({t.user_attrs["worker"] for t in counted}) == 2
    played = [t for t in counted if "duplicate_of" not in t.user_attrs]
    assert len({json.dumps(t.params, sort_keys=True) for t in played}) == len(played)
    assert not [t for t in study.trials if t.state == optuna.trial.TrialState.RUNNING]


def test_a_postgresql_url_that_cannot_be_reached_is_named(tmp_path):
    from ginbots.tuning.storage import StorageError, open_storage

    with pytest.raises((StorageError, Exception)) as info:
        open_storage(f"postgresql://nobody@127.0.0.1:{_free_port()}/none")
    assert "127.0.0.1" in str(info.value) or "connect" in str(info.value).lower()
