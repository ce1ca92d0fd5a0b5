"""Resumable data generation: one ``.npz`` per chunk, written whole or not at all.

The estimator recorder and the offensive-score datasets both cut a long run
into chunks, skip the chunks already on disk and spread the rest over worker
processes; this module is that mechanism, once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np

from .match import ProgressBar, run_in_workers


def save_chunk(path: str | Path, **arrays: np.ndarray) -> None:
    """Write a chunk atomically: it is either complete on disk or absent."""
    tmp = Path(str(path) + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def chunk_files(folder: str | Path) -> list[Path]:
    """The chunk files of a folder, in order."""
    return sorted(Path(folder).glob("chunk_*.npz"))


def generate_chunks(out: Path, total: int, chunk: int, job: Callable[[int, int, str], Any], *,
                    setup: Callable[[], None], run: Callable[[Any], int], unit: str, workers: int,
                    progress: bool | None, cluster: str | None = None) -> list[Path]:
    """Run ``run(job(start, size, path))`` for every chunk of ``total`` items not yet in ``out``.

    ``run`` returns the items it recorded (for the progress bar). Returns every
    chunk path; Ctrl-C keeps the finished chunks and raises KeyboardInterrupt. With ``cluster`` (a
    Dask scheduler's address) the chunks go to its workers, which write them to ``out``: on many
    machines, ``out`` must be a folder they all see (a shared file system).
    """
    out.mkdir(parents=True, exist_ok=True)
    paths, jobs, todo = [], [], 0
    for i, start in enumerate(range(0, total, chunk)):
        path = out / f"chunk_{i:05d}.npz"
        paths.append(path)
        if not path.exists():
            size = min(chunk, total - start)
            jobs.append(job(start, size, str(path.resolve())))  # a cluster worker's folder may differ
            todo += size
    bar = ProgressBar(todo, unit, progress)
    stopped = run_in_workers(jobs, workers, setup, (), run, bar.update, ordered=False, cluster=cluster)
    bar.close()
    if stopped:
        raise KeyboardInterrupt
    return paths
