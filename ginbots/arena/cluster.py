"""Runs past one machine: tasks of games or data chunks sent to a Dask cluster (extra ``cluster``).

Dask's ``distributed`` is used rather than Ray because it is a small pure-Python install, its
scheduler re-runs the task of a worker that dies (what a lost chunk needs), and the same
``dask scheduler`` / ``dask worker`` commands run on a lab's machines, under SLURM or PBS
(``dask-jobqueue``) and in the clouds. Nothing here is a home-made distributed engine.

Each task (a chunk of games, or of data) is one Dask task. A cluster worker runs today's local
runner, ``supervisor.supervise``, on it, with one supervised process of its own: forfeits,
isolation, call limits and budgets behave exactly as on one machine, and the task returns its
items' results when the chunk is done. A worker lost mid-chunk costs that chunk only, which the
scheduler gives to another worker; the chunk's games are seeded by their index, so the re-run
plays the same games and every game is counted once. Same seed, same results as a local run,
whatever the number of machines.
"""

from __future__ import annotations

import multiprocessing
import sys
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

from .supervisor import Lost, supervise

#: How many times the scheduler re-runs a task whose worker died before it gives the task up (it is
#: then reported lost, item by item, as a local run reports a worker that died).
TASK_RETRIES = 3


def add_cluster_argument(parser: Any) -> None:
    """``--cluster ADDRESS`` on a command that runs chunks of games or data."""
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="send chunks to the workers of a Dask cluster: its scheduler's tcp://HOST:PORT or a "
                             "scheduler file (.json); extra cluster, docs/scaling.md. Default: local --workers")


def connect(address: str) -> Any:
    """A Dask client for ``address``: a scheduler's ``tcp://host:port``, or a scheduler file (``.json``)."""
    try:
        from distributed import Client
    except ImportError as exc:
        raise ImportError("--cluster needs Dask's distributed: pip install 'ginbots[cluster]'") from exc
    if address.endswith(".json"):
        if not Path(address).is_file():
            raise FileNotFoundError(f"--cluster {address}: no such scheduler file")
        return Client(scheduler_file=address, timeout="30s")
    return Client(address, timeout="30s")


def _run_task(task: list[Any], setup: Callable[..., None], setup_args: tuple[Any, ...], run: Callable[[Any], Any],
              call_limit: float | None) -> list[tuple[Any, ...]]:
    """On a cluster worker: the local supervised runner on one task; its items' outcomes, in order."""
    # A Dask worker process is daemonic by default, and a daemonic process may not start children;
    # the supervised game process ends with its parent anyway (it watches its parent's pid).
    multiprocessing.current_process()._config["daemon"] = False  # type: ignore[attr-defined]
    out: list[tuple[Any, ...]] = []
    # spawn, not fork: a Dask worker runs threads (its event loop), and forking a threaded process
    # can copy a lock held by another thread.
    supervise([task], 1, setup, setup_args, run, lambda item, result: out.append(("result", item, result)),
              on_lost=lambda lost: out.append(("lost", lost)),
              on_error=lambda item, text: out.append(("error", item, text)),
              call_limit=call_limit, start_method="spawn")
    return out


def distribute(tasks: Sequence[list[Any]], workers: int, setup: Callable[..., None], setup_args: tuple[Any, ...],
               run: Callable[[Any], Any], on_result: Callable[[Any, Any], None], *, cluster: str | None = None,
               on_lost: Callable[[Lost], None] | None = None, on_error: Callable[[Any, str], None] | None = None,
               call_limit: float | None = None) -> bool:
    """``supervisor.supervise`` on ``workers`` local processes, or with ``cluster`` (a Dask scheduler's
    address) on that cluster's workers: the one entry point of every runner."""
    if cluster is None:
        return supervise(tasks, workers, setup, setup_args, run, on_result, on_lost=on_lost, on_error=on_error,
                         call_limit=call_limit)
    return supervise_on_cluster(tasks, cluster, setup, setup_args, run, on_result, on_lost=on_lost,
                                on_error=on_error, call_limit=call_limit)


def supervise_on_cluster(tasks: Sequence[list[Any]], address: str, setup: Callable[..., None],
                         setup_args: tuple[Any, ...], run: Callable[[Any], Any],
                         on_result: Callable[[Any, Any], None], *, on_lost: Callable[[Lost], None] | None = None,
                         on_error: Callable[[Any, str], None] | None = None,
                         call_limit: float | None = None) -> bool:
    """``supervisor.supervise`` with the tasks spread over the Dask cluster at ``address``.

    Results come back task by task, as tasks finish. Returns True when Ctrl-C stopped the run (the
    tasks not yet finished are cancelled; every finished one was handed over).
    """
    try:
        from distributed import as_completed
    except ImportError as exc:
        raise ImportError("--cluster needs Dask's distributed: pip install 'ginbots[cluster]'") from exc

    run_id = uuid.uuid4().hex[:8]
    with connect(address) as client:
        workers = len(client.scheduler_info().get("workers", {}))
        print(f"ginbots: {len(tasks)} tasks to the cluster at {address} ({workers} workers now)", file=sys.stderr)
        futures = {}
        for i, task in enumerate(t for t in tasks if t):
            future = client.submit(_run_task, task, setup, setup_args, run, call_limit, key=f"ginbots-{run_id}-{i}",
                                   pure=False, retries=TASK_RETRIES)
            futures[future] = task
        try:
            for future in as_completed(futures):
                task = futures[future]
                try:
                    outcomes = future.result()
                except Exception as exc:  # noqa: BLE001 - a task given up (its workers kept dying) is lost
                    if on_lost is not None:
                        for item in task:
                            on_lost(Lost(item, -1, "", "died", f"its cluster task failed: {type(exc).__name__}: {exc}"))
                    continue
                for kind, *payload in outcomes:
                    if kind == "result":
                        on_result(payload[0], payload[1])
                    elif kind == "lost" and on_lost is not None:
                        on_lost(payload[0])
                    elif kind == "error" and on_error is not None:
                        on_error(payload[0], payload[1])
        except KeyboardInterrupt:
            client.cancel(list(futures))
            return True
    return False
