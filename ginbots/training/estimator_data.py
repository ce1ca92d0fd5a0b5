"""Self-play observation data for training and evaluating estimators.

Two recorders sit at the table around any two players; after every opponent
discard the observer's knowledge is encoded as a ``Snapshot`` row together
with the opponent's true hand (both recorders live in this process, which is
the only reason the truth is available).  Generation runs in chunks of games,
one ``.npz`` per chunk, resumable and spread over worker processes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ginbots.arena.chunks import chunk_files, generate_chunks, save_chunk
from ginbots.arena.match import derive_seed
from ginbots.estimators.snapshot import Snapshot, snapshot_rows
from ginbots.game.engine import play_game
from ginbots.game.knowledge import Knowledge
from ginbots.players.base import Player
from ginbots.players.registry import parse_spec


class _Table:
    def __init__(self) -> None:
        self.recorders: list[_Recorder] = []
        self.rows: list[tuple[Knowledge, int, int, int]] = []  # (frozen knowledge, truth, episode, step)
        self.episode = 0


class KnowledgeWatcher(Player):
    """Forwards every callback to ``inner`` and keeps ``knowledge``, this seat's view of the hand.

    Data recorders subclass it and override ``observed_discard``, called after
    every discard (either seat) once the knowledge and ``inner`` have seen it.
    """

    name = "watcher"

    def __init__(self, inner: Player) -> None:
        super().__init__(seed=inner.seed)
        self.inner = inner

    def new_game(self, seed: int | None = None) -> None:
        self.inner.new_game(seed)

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.seat = seat
        self.knowledge = Knowledge(seat, starter, hand)
        self.inner.start_hand(seat, starter, hand)

    def will_draw_face_up(self, card: int) -> bool:
        self.knowledge.offered(card)
        take = bool(self.inner.will_draw_face_up(card))
        self.knowledge.answered(card, take)
        return take

    def report_draw(self, seat: int, card: int | None) -> None:
        self.knowledge.drew(seat, card)
        self.inner.report_draw(seat, card)

    def discard(self) -> int:
        return self.inner.discard()

    def report_discard(self, seat: int, card: int) -> None:
        self.knowledge.discarded(seat, card)
        self.inner.report_discard(seat, card)
        self.observed_discard(seat, card)

    def observed_discard(self, seat: int, card: int) -> None:
        pass

    def knock(self) -> Any:
        return self.inner.knock()

    def declare_melds(self) -> Any:
        return self.inner.declare_melds()

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        self.inner.report_final_melds(seat, melds)

    def report_layoff(self, seat: int, card: int, meld_before: int) -> None:
        self.inner.report_layoff(seat, card, meld_before)

    def report_final_hand(self, seat: int, hand: int) -> None:
        self.inner.report_final_hand(seat, hand)

    def report_scores(self, scores: tuple[int, int]) -> None:
        self.inner.report_scores(scores)


class _Recorder(KnowledgeWatcher):
    """Records a row after every opponent discard: this seat's knowledge and the opponent's true hand."""

    name = "recorder"

    def __init__(self, inner: Player, table: _Table) -> None:
        super().__init__(inner)
        self.table = table
        table.recorders.append(self)

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.step = 0
        if seat == 0:
            self.table.episode += 1
        super().start_hand(seat, starter, hand)

    def observed_discard(self, seat: int, card: int) -> None:
        if seat != self.seat:
            other = self.table.recorders[seat].knowledge
            truth = other.hand & ~(1 << card)  # its own report of this discard may not have run yet
            episode = 2 * self.table.episode + self.seat
            self.table.rows.append((_freeze(self.knowledge), truth, episode, self.step))
            self.step += 1


def _freeze(k: Knowledge) -> Knowledge:
    copy = Knowledge.__new__(Knowledge)
    for slot in Knowledge.__slots__:
        value = getattr(k, slot)
        setattr(copy, slot, list(value) if isinstance(value, list) else value)
    return copy


def record_games(spec_a: str, spec_b: str, seeds: list[int], episode_base: int = 0) -> Snapshot:
    """Play one game per seed between two player specs and return every observation row."""
    a, b = parse_spec(spec_a), parse_spec(spec_b)
    table = _Table()
    table.episode = episode_base
    for seed in seeds:
        table.recorders = []
        players = (_Recorder(a.make(seed=derive_seed(seed, 0)), table),
                   _Recorder(b.make(seed=derive_seed(seed, 1)), table))
        play_game(players, seed=seed)
    if not table.rows:
        return snapshot_rows([])
    ks, truths, episodes, steps = zip(*table.rows)
    return snapshot_rows(list(ks), list(truths), list(episodes), list(steps))


def _setup() -> None:
    pass


def _run(job: tuple[str, str, int, int, int, str]) -> int:
    spec_a, spec_b, seed, start, size, path = job
    seeds = [derive_seed(seed, g) for g in range(start, start + size)]
    snap = record_games(spec_a, spec_b, seeds, episode_base=start * 1000)
    save_chunk(path, **snap.to_arrays())
    return size


def generate(out_dir: str | Path, games: int, *, players: tuple[str, str] = ("simple", "simple"),
             seed: int = 1, chunk: int = 250, workers: int = 1, progress: bool | None = None,
             cluster: str | None = None) -> list[Path]:
    """Record ``games`` self-play games into ``out_dir/chunk_NNNNN.npz``; chunks
    already on disk are kept, so an interrupted run resumes where it stopped. ``cluster``: a Dask
    scheduler's address to send the chunks to (``out_dir`` shared by its machines)."""
    return generate_chunks(Path(out_dir), games, chunk,
                           lambda start, size, path: (players[0], players[1], seed, start, size, path),
                           setup=_setup, run=_run, unit="games", workers=workers, progress=progress,
                           cluster=cluster, settings={"players": list(players), "seed": seed})


def chunk_folders(folder: str | Path) -> list[Path]:
    """The folder itself if it holds chunks, else each of its subfolders that does (a pool of datasets)."""
    folder = Path(folder)
    if chunk_files(folder):
        return [folder]
    return sorted({p.parent for p in folder.glob("*/chunk_*.npz")})


def load(paths: list[Path] | str | Path) -> Snapshot:
    """Every row of the given chunk files, or of every chunk in ``chunk_folders(folder)``."""
    if isinstance(paths, (str, Path)):
        paths = [p for folder in chunk_folders(paths) for p in chunk_files(folder)]
    if not paths:
        raise FileNotFoundError("no data chunks found; run `ginbots estimators generate` first")
    parts = []
    for p in paths:
        with np.load(p) as data:
            parts.append(Snapshot.from_arrays(data))
    return Snapshot.concat(parts)
