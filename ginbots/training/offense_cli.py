"""``ginbots offense generate | labels | train``: document 000's datasets and networks from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ginbots.arena.cluster import add_cluster_argument
from ginbots.arena.match import derive_seed

from .offense import RESAMPLE, _samples_of, generate

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
    g.add_argument("--worst", action="store_true",
                   help="Random-N: record each deal's worst sample too (losing rows; folder suffix -worst)")
    g.add_argument("--out", default=DEFAULT_DATA)
    add_cluster_argument(g)
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
    t.add_argument("--features", choices=("document", "authors"), default="document",
                   help="macro features: the document's as we read it, or the authors' code's (raw, their definitions)")
    t.add_argument("--worst-share", type=float, default=0.0,
                   help="share of deals whose worst sample is trained on too (data generated with --worst; the "
                        "authors' published sample holds about 1%% losing rows)")
    t.add_argument("--init", choices=("torch", "keras"), default="torch",
                   help="initialisation and Adam epsilon: torch's defaults or Keras's (the authors')")
    t.add_argument("--data", default=DEFAULT_DATA)
    t.add_argument("--out", default="weights")
    t.set_defaults(func=_cmd_train)


def _cmd_generate(args: Any) -> int:
    paths = generate(args.out, args.dataset, args.deals, seed=args.seed, chunk=args.chunk, workers=args.workers,
                     all_stages=args.all_stages, resample=args.resample, cluster=args.cluster, worst=args.worst)
    print(f"{args.dataset}: {len(paths)} chunks in {paths[0].parent}")
    return 0


def label_statistics(dataset: str, deals: int, seed: int = 1) -> dict[str, dict[str, float]]:
    """Mean, standard deviation and share of negative best-of-N labels (RP's score) per sampling recipe."""
    from ginbots.training.selfplay.core import best_of

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
                     average=not args.no_average, threads=args.threads, features_kind=args.features,
                     worst=args.worst_share, init=args.init)
        print(f"{card['file']}: {card['parameters']} parameters, {card['data']['train_rows']} training rows, "
              f"validation MSE {card['validation_mse']:.2f}, {card['training']['seconds_this_run']} s")
    return 0
