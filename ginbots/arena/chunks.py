"""Resumable data generation: one ``.npz`` per chunk, written whole or not at all.

The estimator recorder and the offensive-score datasets both cut a long run
into chunks, skip the chunks already on disk and spread the rest over worker
processes; this module is that mechanism, once. A folder holds one recording: the settings that
decide its chunks' contents are kept beside them (``settings.json``), and a resume with other
settings is refused rather than mixing two recordings' chunks.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .match import ProgressBar, run_in_workers

#: The file beside a folder's chunks that records the settings they were made with.
SETTINGS_FILE = "settings.json"


def save_chunk(path: str | Path, **arrays: np.ndarray) -> None:
    """Write a chunk atomically: it is either complete on disk or absent."""
    tmp = Path(str(path) + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)


def chunk_files(folder: str | Path) -> list[Path]:
    """The chunk files of a folder, in order."""
    return sorted(Path(folder).glob("chunk_*.npz"))


def check_settings(out: Path, settings: dict[str, Any]) -> None:
    """Record ``settings`` beside ``out``'s chunks, or, when the folder already has some, refuse to go on
    with others: chunk i of a recording is items ``i x chunk`` onward under those settings, so a resume with
    another seed, chunk size or player would silently mix two recordings."""
    path = out / SETTINGS_FILE
    wanted = json.loads(json.dumps(settings))  # as JSON reads them back (tuples become lists)
    if path.exists():
        kept = json.loads(path.read_text(encoding="utf-8"))
        changed = sorted(k for k in set(kept) | set(wanted) if kept.get(k) != wanted.get(k))
        if changed and chunk_files(out):
            said = ", ".join(f"{k}: {kept.get(k)!r} on disk, {wanted.get(k)!r} asked" for k in changed)
            raise ValueError(f"{out}: its chunks were recorded with other settings ({said}); a folder holds one "
                             f"recording, so resume it with the same settings or record into a new folder")
    path.write_text(json.dumps(wanted, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def generate_chunks(out: Path, total: int, chunk: int, job: Callable[[int, int, str], Any], *,
                    setup: Callable[[], None], run: Callable[[Any], int], unit: str, workers: int,
                    progress: bool | None, cluster: str | None = None,
                    settings: dict[str, Any] | None = None) -> list[Path]:
    """Run ``run(job(start, size, path))`` for every chunk of ``total`` items not yet in ``out``.

    ``run`` returns the items it recorded (for the progress bar). Returns every
    chunk path; Ctrl-C keeps the finished chunks and raises KeyboardInterrupt. With ``cluster`` (a
    Dask scheduler's address) the chunks go to its workers, which write them to ``out``: on many
    machines, ``out`` must be a folder they all see (a shared file system). ``settings``: what decides
    the chunks' contents besides their position (``check_settings``); the chunk size is always one.
    """
    out.mkdir(parents=True, exist_ok=True)
    check_settings(out, {**(settings or {}), "chunk": chunk})
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
