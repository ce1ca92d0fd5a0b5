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

import json
from pathlib import Path
from typing import Any

import numpy as np


from .estimators.data import KnowledgeWatcher, _freeze
from .estimators.snapshot import snapshot_rows
from .knowledge import Knowledge
from .chunks import chunk_files, generate_chunks, save_chunk
from .selfplay.stream import RESAMPLE, SINGLE_ROUND, play_sample  # noqa: F401 (SINGLE_ROUND lived here)
from .match import derive_seed
from .players.baselines import RandomDiscardPlayer, SimplePlayer  # noqa: F401 (RP lived here)
from .players.dual_inception import ESTIMATOR



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
                sample: int | None = None) -> list[Row]:
    """Rows (hand, knowledge, score, is RP's row) of one deal: the best-scoring of the dataset's samples.

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
        if best is None or score[max(rp_seat, 0)] > best[0]:
            best = (score[max(rp_seat, 0)], rows)
    assert best is not None
    return best[1]


def _best_samples(dataset: str, deal_seeds: list[int], resample: str) -> tuple[list[int | None], list[int | None]]:
    """(chosen sample, its RP score) per deal from the compiled core; all None without it (the engine plays
    every sample then) or for a one-sample dataset."""
    if _samples_of(dataset) == 1:
        return [0] * len(deal_seeds), [None] * len(deal_seeds)
    try:
        from .selfplay.core import best_of
    except ImportError:
        return [None] * len(deal_seeds), [None] * len(deal_seeds)
    seeds = np.array(deal_seeds, dtype=np.int64)
    best_k, best_score = best_of(seeds, _samples_of(dataset), seeds & 1, resample)
    return [int(k) for k in best_k], [int(s) for s in best_score]


_ESTIMATOR: list[Any] = []


def _setup() -> None:
    from .estimators import make_estimator

    _ESTIMATOR[:] = [make_estimator(ESTIMATOR)]


def _run(job: tuple[str, int, int, int, bool, str, str]) -> int:
    dataset, seed, start, size, all_stages, resample, path = job
    hands, knowledges, scores, deals, rp = [], [], [], [], []
    deal_seeds = [derive_seed(seed, deal) for deal in range(start, start + size)]
    chosen, core_scores = _best_samples(dataset, deal_seeds, resample)
    for deal, deal_seed, k, core_score in zip(range(start, start + size), deal_seeds, chosen, core_scores):
        rows = record_deal(dataset, deal_seed, all_stages, resample, sample=k)
        for hand, knowledge, score, is_rp in rows:
            if is_rp and core_score is not None and score != core_score:
                raise RuntimeError(f"deal {deal} (seed {deal_seed}): the engine scored sample {k} {score}, the "
                                   f"self-play core {core_score}; the core no longer plays the engine's hands")
            hands.append(hand)
            knowledges.append(knowledge)
            scores.append(score)
            deals.append(deal)
            rp.append(is_rp)
    estimate = _ESTIMATOR[0].raw(snapshot_rows(knowledges)) if knowledges else np.zeros((0, 52), np.float32)
    save_chunk(path, hands=np.array(hands, dtype=np.uint64), estimate=estimate.astype(np.float32),
               score=np.array(scores, dtype=np.float32), deal=np.array(deals, dtype=np.int64),
               rp=np.array(rp, dtype=bool))
    return size


def generate(out_dir: str | Path, dataset: str, deals: int, *, seed: int = 1, chunk: int = 200,
             workers: int = 1, all_stages: bool = False, resample: str = "stock",
             progress: bool | None = None) -> list[Path]:
    """Record ``deals`` deals of ``dataset`` into ``out_dir/FOLDER/chunk_NNNNN.npz`` (resumable).

    FOLDER is ``dataset_folder(dataset, resample, all_stages)``.
    """
    _samples_of(dataset)
    if resample not in RESAMPLE:
        raise ValueError(f"resample must be one of {RESAMPLE}, got {resample!r}")
    out = Path(out_dir) / dataset_folder(dataset, resample, all_stages)
    return generate_chunks(out, deals, chunk,
                           lambda start, size, path: (dataset, seed, start, size, all_stages, resample, path),
                           setup=_setup, run=_run, unit="deals", workers=workers, progress=progress)


def dataset_folder(dataset: str, resample: str = "stock", all_stages: bool = False) -> str:
    """Folder name of a dataset: a Random-N set sampled with ``--resample deck`` gets a ``-deck`` suffix."""
    name = dataset + ("-deck" if resample == "deck" and _samples_of(dataset) > 1 else "")
    return name + ("-all" if all_stages else "")


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


# --- command line: ``ginbots offense generate | train`` -----------------------------------------

DEFAULT_DATA = "data/offense"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("offense", help="document 000's offensive hand score: generate datasets, train networks")
    osub = p.add_subparsers(dest="offense_command", required=True)
    g = osub.add_parser("generate", help="record a dataset (simple or random-N) in resumable chunks")
    g.add_argument("dataset", help="simple, random-16, random-256, ... (random-N: N samples per deal)")
    g.add_argument("--deals", type=int, default=20000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--chunk", type=int, default=200)
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--all-stages", action="store_true", help="a row per discard, not only each player's last")
    g.add_argument("--resample", choices=RESAMPLE, default="stock",
                   help="Random-N samples: reshuffle the stock per sample, keeping both hands and the upcard "
                        "(default; its labels match the authors' published sample), or replay the whole deck")
    g.add_argument("--out", default=DEFAULT_DATA)
    g.set_defaults(func=_cmd_generate)
    lab = osub.add_parser("labels", help="label statistics of a Random-N dataset under both sampling recipes "
                                         "(compiled core, extra train; no rows recorded)")
    lab.add_argument("dataset", help="random-N")
    lab.add_argument("--deals", type=int, default=20000)
    lab.add_argument("--seed", type=int, default=1)
    lab.add_argument("--json", help="also write the statistics to this file")
    lab.set_defaults(func=_cmd_labels)
    t = osub.add_parser("train", help="train offensive-score networks and freeze them to ONNX (extra train)")
    t.add_argument("dataset", help="a data folder: simple, random-256, random-256-deck, ...")
    t.add_argument("--models", default="dual-inception,mlp,mlp-i")
    t.add_argument("--epochs", type=int, default=96, help="training epochs (default: the document's 96)")
    t.add_argument("--decay-every", type=int, default=32,
                   help="epochs between x0.1 learning-rate steps (default: the document's 32)")
    t.add_argument("--batch", type=int, default=64, help="batch size (default: the document's 64)")
    t.add_argument("--no-average", action="store_true",
                   help="keep identical states as separate rows instead of one row with their mean label")
    t.add_argument("--threads", type=int, help="torch threads (default: torch's choice)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--rows", choices=("rp", "all"), default="rp",
                   help="Random-N data: RP's rows only (default, the document's Figure 2) or both seats")
    t.add_argument("--bias-init", choices=("default", "mean"), default="default",
                   help="output bias: torch's initialisation, or the mean training score (used for random-256)")
    t.add_argument("--data", default=DEFAULT_DATA)
    t.add_argument("--out", default="weights")
    t.set_defaults(func=_cmd_train)


def _cmd_generate(args: Any) -> int:
    paths = generate(args.out, args.dataset, args.deals, seed=args.seed, chunk=args.chunk, workers=args.workers,
                     all_stages=args.all_stages, resample=args.resample)
    print(f"{args.dataset}: {len(paths)} chunks in {paths[0].parent}")
    return 0


def label_statistics(dataset: str, deals: int, seed: int = 1) -> dict[str, dict[str, float]]:
    """Mean, standard deviation and share of negative best-of-N labels (RP's score) per sampling recipe."""
    from .selfplay.core import best_of

    seeds = np.array([derive_seed(seed, deal) for deal in range(deals)], dtype=np.int64)
    out = {}
    for resample in RESAMPLE:
        _, scores = best_of(seeds, _samples_of(dataset), seeds & 1, resample)
        out[resample] = {"deals": deals, "mean": round(float(scores.mean()), 2),
                         "sd": round(float(scores.std()), 2), "negative": round(float((scores < 0).mean()), 4),
                         "zero": round(float((scores == 0).mean()), 4)}
    return out


def _cmd_labels(args: Any) -> int:
    stats = label_statistics(args.dataset, args.deals, args.seed)
    for resample, row in stats.items():
        print(f"{args.dataset} --resample {resample}: {row['deals']} deals, label mean {row['mean']:.1f}, "
              f"sd {row['sd']:.1f}, negative {100 * row['negative']:.1f}%, zero {100 * row['zero']:.1f}%")
    if args.json:
        Path(args.json).write_text(json.dumps({"dataset": args.dataset, "seed": args.seed, **stats}, indent=2) + "\n")
    return 0


def _cmd_train(args: Any) -> int:
    from .offense_train import train

    for model in args.models.split(","):
        card = train(model, args.dataset, args.data, args.out, epochs=args.epochs, decay_every=args.decay_every,
                     batch=args.batch, seed=args.seed, rows=args.rows, bias_init=args.bias_init,
                     average=not args.no_average, threads=args.threads)
        print(f"{card['file']}: {card['parameters']} parameters, {card['data']['train_rows']} training rows, "
              f"validation MSE {card['validation_mse']:.2f}, {card['training']['seconds_this_run']} s")
    return 0
