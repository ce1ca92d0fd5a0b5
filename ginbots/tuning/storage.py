"""Where studies live: Optuna storages that survive concurrent openers and killed workers.

A journal file or an RDB URL opens the same way; a trial left RUNNING by a killed worker is
found and requeued, so stopping a study never loses more than the trial in progress.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.storages.journal import JournalFileBackend
from optuna.trial import TrialState

from ginbots.connect.sandbox import pid_alive

#: A journal lock older than this is left over from a killed process (a write holds it for milliseconds).
STALE_LOCK_S = 5.0


def database_url(url: str) -> str:
    """``postgresql://`` with whichever PostgreSQL driver is installed, named (psycopg2, else psycopg 3):
    SQLAlchemy's own default for a bare ``postgresql://`` changed between its releases."""
    if url.startswith("postgresql://"):
        import importlib.util

        for module, dialect in (("psycopg2", "psycopg2"), ("psycopg", "psycopg")):
            if importlib.util.find_spec(module) is not None:
                return f"postgresql+{dialect}://" + url[len("postgresql://"):]
    return url


#: Attempts at opening a database server's study tables while other processes create them at once.
SERVER_OPEN_ATTEMPTS = 8


def _open_server(url: str) -> Any:
    """``RDBStorage`` on a database server. Processes on several machines that open a fresh database
    at the same moment all try to create Optuna's tables, and all but one fail with a duplicate-key
    (IntegrityError) or duplicate-table (ProgrammingError) error; those try again, and then find the
    tables made. An unreachable server fails at once."""
    import random

    from sqlalchemy.exc import IntegrityError, ProgrammingError

    for attempt in range(SERVER_OPEN_ATTEMPTS):
        try:
            return optuna.storages.RDBStorage(url)
        except (IntegrityError, ProgrammingError):
            if attempt == SERVER_OPEN_ATTEMPTS - 1:
                raise
            time.sleep(0.2 + random.random() * 0.3)  # not in step with the other openers
    raise AssertionError("unreachable")


def _sqlite_path(url: str) -> Path | None:
    return Path(url[len("sqlite:///"):]) if url.startswith("sqlite:///") and len(url) > len("sqlite:///") else None


class StorageError(ValueError):
    """A study's storage that cannot be used: names the file or URL and what is wrong with it."""


def open_storage(url: str) -> Any:
    """An Optuna storage: an RDB URL (``sqlite:///``, ``postgresql://``...) or a journal file path.

    Several processes may open a fresh SQLite file at once (its tables are created under a file
    lock); a journal's lock file left behind by a killed process is removed, and its torn last
    record (a process killed mid-write) set aside. Anything else that is not a study's storage
    raises ``StorageError`` naming it.
    """
    if "://" in url:
        url = database_url(url)
        sqlite = _sqlite_path(url)
        try:
            if sqlite is None:
                return _open_server(url)
            if sqlite.exists() and sqlite.stat().st_size and not sqlite.read_bytes()[:16].startswith(SQLITE_MAGIC):
                raise StorageError(f"{sqlite} is not an SQLite database (it does not start with the SQLite "
                                   "header); give a new file or the study's own database")
            sqlite.parent.mkdir(parents=True, exist_ok=True)
            with _file_lock(sqlite.with_name(sqlite.name + ".create-lock")):
                return optuna.storages.RDBStorage(url)
        except StorageError:
            raise
        except Exception as exc:  # SQLAlchemy's errors: unreachable server, wrong driver, a damaged file
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StorageError(f"storage {url} cannot be opened: {type(exc).__name__}: {first}") from None
    path = Path(url)
    if path.exists():
        check_journal(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lock = Path(str(path) + ".lock")
    try:
        if lock.exists() and time.time() - lock.stat().st_mtime > STALE_LOCK_S:
            lock.unlink()
    except OSError:
        pass
    return JournalStorage(JournalFileBackend(str(path)))


#: The first bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def check_journal(path: Path) -> None:
    """An Optuna journal file, checked before Optuna reads it: each line one JSON object. A torn last
    line (no newline, not JSON: a writer killed mid-record) is moved to ``FILE.torn`` and cut off, as
    nothing after it was ever written; anything else that is not a journal raises ``StorageError``."""
    data = path.read_bytes()
    if b"\x00" in data[:4096]:
        raise StorageError(f"{path} is not an Optuna journal (binary data); give a new file or the study's "
                           "own journal")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StorageError(f"{path} is not an Optuna journal (not UTF-8 text at byte {exc.start})") from None
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            ok = isinstance(json.loads(line), dict) and "op_code" in json.loads(line)
        except (ValueError, RecursionError):
            ok = False
        if ok:
            continue
        if number == len(lines):  # the last line, with no newline after it: a torn write
            torn = path.with_name(path.name + ".torn")
            torn.write_text(line)
            with open(path, "r+b") as fh:
                fh.truncate(len(data) - len(line.encode("utf-8")))
            print(f"ginbots tune: {path}: its last record was torn (a writer killed mid-write); set aside in "
                  f"{torn}, the study resumes from the records before it", file=sys.stderr)
            return
        raise StorageError(f"{path}:{number}: not an Optuna journal record ({line[:60]!r}); give a new file "
                           "or the study's own journal")


def ask_lock(url: str) -> Any:
    """A lock that serialises asking for trials on a local storage (a journal file, an SQLite file), or a
    no-op for a database server, which several machines share."""
    sqlite = _sqlite_path(url) if "://" in url else Path(url)
    if sqlite is None:
        return contextlib.nullcontext()
    return _file_lock(sqlite.with_name(sqlite.name + ".ask-lock"))


class _file_lock:
    """An exclusive flock on ``path`` for a with-block (no-op where flock is missing)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> "_file_lock":
        self.handle = open(self.path, "a")
        try:
            import fcntl

            fcntl.flock(self.handle.fileno(), fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover
            pass
        return self

    def __exit__(self, *exc: Any) -> None:
        self.handle.close()


#: The states of a trial that counts toward a study's trials.
FINISHED = (TrialState.COMPLETE, TrialState.PRUNED)
#: A RUNNING trial that no worker has tagged after this long was killed between its creation and its tag.
UNTAGGED_AFTER_S = 60.0


def _naive_utc(moment: datetime) -> datetime:
    if moment.tzinfo is not None:
        return moment.astimezone(timezone.utc).replace(tzinfo=None)
    # Optuna records local naive times
    return moment.astimezone().astimezone(timezone.utc).replace(tzinfo=None)


def abandoned(trial: optuna.trial.FrozenTrial) -> bool:
    """Whether a RUNNING trial's process is gone: it runs on this host and the process no longer exists,
    or no worker tagged it within ``UNTAGGED_AFTER_S`` of its start (killed between asking and tagging)."""
    if trial.state != TrialState.RUNNING:
        return False
    host, _, pid = trial.user_attrs.get("worker", "").rpartition(":")
    if not pid:
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        return trial.datetime_start is not None and \
            (now - _naive_utc(trial.datetime_start)).total_seconds() > UNTAGGED_AFTER_S
    return host == socket.gethostname() and not pid_alive(int(pid))


def recover_interrupted(study: optuna.Study, storage: Any) -> list[int]:
    """Requeue the trials a killed or interrupted worker left behind; return their numbers.

    A RUNNING trial whose worker process (on this host) is gone is marked
    FAIL; every interrupted trial not yet retried is enqueued again with the
    same parameters, so a kill loses no trial, only the one in progress.
    """
    trials = study.get_trials(deepcopy=False)
    retried = {t.user_attrs.get("retry_of") for t in trials if "retry_of" in t.user_attrs}
    requeued = []
    for t in trials:
        if abandoned(t):
            try:
                storage.set_trial_user_attr(t._trial_id, "interrupted", True)
                storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
            except optuna.exceptions.UpdateFinishedTrialError:
                continue  # its worker finished it between our look and now: not interrupted after all
        elif not (t.state == TrialState.FAIL and t.user_attrs.get("interrupted")):
            continue
        if t.number in retried:
            continue
        study.enqueue_trial(t.params, user_attrs={"retry_of": t.number})
        retried.add(t.number)
        requeued.append(t.number)
    return requeued
