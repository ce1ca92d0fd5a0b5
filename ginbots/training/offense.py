"""Training data and training for document 000's offensive hand score.

Datasets, as the document builds them: ``simple`` (Simple vs Simple) and
``random-N`` (a random-discard player, "RP", against Simple: each deal is
played N times with different RP choices and only the sample where RP scored
best is kept).  A row is one player's hand at its last discard of a round
(``--all-stages``: every discard), the ISRU Bayesian estimate of the opponent
at that moment, the round's score for that player (+s if it won, -s if it
lost) and whether the row is RP's.  Training on a Random-N dataset uses RP's
rows only by default: the document's Figure 2 has the score mean rising and
the spread shrinking with N, which only the sampled player's rows can do
(both seats together always average zero).  Rounds are recorded as separate
deals with gamma = 1 (no discount, the document's first case): neither player
looks at the game score, so this is the same data as rounds inside games.  Generation is chunked and
resumable; training (extra ``train``) writes ONNX files and model cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ginbots.arena.chunks import chunk_files, generate_chunks, save_chunk
from ginbots.arena.match import derive_seed
from ginbots.estimators.snapshot import snapshot_rows
from ginbots.game.knowledge import Knowledge
from ginbots.players.baselines import RandomDiscardPlayer, SimplePlayer  # noqa: F401 (RP lived here)
from ginbots.players.dual_inception import ESTIMATOR
from ginbots.training.selfplay.stream import RESAMPLE, SINGLE_ROUND, play_sample  # noqa: F401 (SINGLE_ROUND lived here)

from .estimator_data import KnowledgeWatcher, _freeze


class _Watcher(KnowledgeWatcher):
    """Keeps this seat's hand and knowledge at each of its own discards."""

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.stages: list[tuple[int, Knowledge]] = []
        super().start_hand(seat, starter, hand)

    def observed_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.stages.append((self.knowledge.hand, _freeze(self.knowledge)))


def _samples_of(dataset: str) -> int:
    if dataset == "simple":
        return 1
    if dataset.startswith("random-") and dataset[7:].isdigit() and int(dataset[7:]) >= 1:
        return int(dataset[7:])
    raise ValueError(f"dataset must be 'simple' or 'random-N' (N >= 1), got {dataset!r}")


Row = tuple[int, Knowledge, float, bool]


def record_deal(dataset: str, deal_seed: int, all_stages: bool = False, resample: str = "stock",
                sample: int | None = None, worst: bool = False) -> list[Row]:
    """Rows (hand, knowledge, score, is RP's row) of one deal: the best-scoring of the dataset's samples
    (``worst``: the worst-scoring, the first reaching it).

    Sample ``k`` is dealt by ``selfplay.sample_deck`` and its players draw from their
    ``StreamRandom`` streams, so the compiled core plays the same hands; ``sample`` replays the one
    sample the core chose instead of playing them all here.
    """
    samples = _samples_of(dataset)
    rp_seat = deal_seed & 1 if dataset != "simple" else -1
    if dataset == "simple":
        resample = "deck"
    kinds = [1 if seat == rp_seat else 0 for seat in (0, 1)]
    best: tuple[float, list[Row]] | None = None
    for k in (range(samples) if sample is None else (sample,)):
        result, seats = play_sample(deal_seed, k, kinds, resample, wrap=_Watcher)
        hand = result.hands[0]
        score = [0.0, 0.0]
        if hand.winner is not None:
            score[hand.winner], score[1 - hand.winner] = hand.points, -hand.points
        rows = []
        for seat, watcher in enumerate(seats):
            for hand_mask, knowledge in (watcher.stages if all_stages else watcher.stages[-1:]):
                rows.append((hand_mask, knowledge, score[seat], seat == rp_seat))
        mine = score[max(rp_seat, 0)]
        if best is None or (mine < best[0] if worst else mine > best[0]):
            best = (mine, rows)
    assert best is not None
    return best[1]


def _chosen_samples(dataset: str, deal_seeds: list[int], resample: str,
                    worst: bool = False) -> tuple[list[int | None], list[int | None]]:
    """(chosen sample, its RP score) per deal from the compiled core, the best (``worst``: the worst);
    all None without the core (the engine plays every sample then) or for a one-sample dataset."""
    if _samples_of(dataset) == 1:
        return [0] * len(deal_seeds), [None] * len(deal_seeds)
    try:
        from ginbots.training.selfplay.core import extremes_of
    except ImportError:
        return [None] * len(deal_seeds), [None] * len(deal_seeds)
    seeds = np.array(deal_seeds, dtype=np.int64)
    best_k, best_score, worst_k, worst_score = extremes_of(seeds, _samples_of(dataset), seeds & 1, resample)
    k, s = (worst_k, worst_score) if worst else (best_k, best_score)
    return [int(v) for v in k], [int(v) for v in s]


_ESTIMATOR: list[Any] = []


def _setup() -> None:
    from ginbots.estimators import make_estimator

    _ESTIMATOR[:] = [make_estimator(ESTIMATOR)]


def _run(job: tuple[str, int, int, int, bool, str, bool, str]) -> int:
    dataset, seed, start, size, all_stages, resample, with_worst, path = job
    hands, knowledges, scores, deals, rp, worst = [], [], [], [], [], []
    deal_seeds = [derive_seed(seed, deal) for deal in range(start, start + size)]
    for is_worst in (False, True) if with_worst else (False,):
        chosen, core_scores = _chosen_samples(dataset, deal_seeds, resample, is_worst)
        for deal, deal_seed, k, core_score in zip(range(start, start + size), deal_seeds, chosen, core_scores):
            rows = record_deal(dataset, deal_seed, all_stages, resample, sample=k, worst=is_worst)
            for hand, knowledge, score, is_rp in rows:
                if is_rp and core_score is not None and score != core_score:
                    raise RuntimeError(f"deal {deal} (seed {deal_seed}): the engine scored sample {k} {score}, the "
                                       f"self-play core {core_score}; the core no longer plays the engine's hands")
                hands.append(hand)
                knowledges.append(knowledge)
                scores.append(score)
                deals.append(deal)
                rp.append(is_rp)
                worst.append(is_worst)
    estimate = _ESTIMATOR[0].raw(snapshot_rows(knowledges)) if knowledges else np.zeros((0, 52), np.float32)
    save_chunk(path, hands=np.array(hands, dtype=np.uint64), estimate=estimate.astype(np.float32),
               score=np.array(scores, dtype=np.float32), deal=np.array(deals, dtype=np.int64),
               rp=np.array(rp, dtype=bool), worst=np.array(worst, dtype=bool))
    return size


def generate(out_dir: str | Path, dataset: str, deals: int, *, seed: int = 1, chunk: int = 200,
             workers: int = 1, all_stages: bool = False, resample: str = "stock",
             progress: bool | None = None, cluster: str | None = None, worst: bool = False) -> list[Path]:
    """Record ``deals`` deals of ``dataset`` into ``out_dir/FOLDER/chunk_NNNNN.npz`` (resumable).

    FOLDER is ``dataset_folder(dataset, resample, all_stages, worst)``; ``cluster``: a Dask scheduler's
    address to send the chunks to (``out_dir`` shared by its machines); ``worst``: each deal's worst
    sample is recorded too (rows flagged ``worst``), the losing rows best-of-N data lacks.
    """
    _samples_of(dataset)
    if resample not in RESAMPLE:
        raise ValueError(f"resample must be one of {RESAMPLE}, got {resample!r}")
    out = Path(out_dir) / dataset_folder(dataset, resample, all_stages, worst)
    return generate_chunks(out, deals, chunk,
                           lambda start, size, path: (dataset, seed, start, size, all_stages, resample, worst, path),
                           setup=_setup, run=_run, unit="deals", workers=workers, progress=progress,
                           cluster=cluster, settings={"dataset": dataset, "seed": seed, "all_stages": all_stages,
                                                      "resample": resample, "worst": worst})


def dataset_folder(dataset: str, resample: str = "stock", all_stages: bool = False, worst: bool = False) -> str:
    """Folder name of a dataset: a Random-N set sampled with ``--resample deck`` gets a ``-deck`` suffix,
    one with each deal's worst sample too ``-worst``."""
    name = dataset + ("-deck" if resample == "deck" and _samples_of(dataset) > 1 else "")
    return name + ("-worst" if worst and _samples_of(dataset) > 1 else "") + ("-all" if all_stages else "")


def load(folder: str | Path) -> dict[str, np.ndarray]:
    paths = chunk_files(folder)
    if not paths:
        raise FileNotFoundError(f"no data chunks in {folder}; run `ginbots offense generate` first")
    parts = [dict(np.load(p)) for p in paths]
    for path, part in zip(paths, parts):
        if "rp" not in part:
            raise ValueError(f"{path}: chunk has no 'rp' column (written by an older ginbots); delete {Path(folder)} "
                             "and run `ginbots offense generate` again")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
