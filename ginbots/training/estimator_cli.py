"""``ginbots estimators generate | bayes | train | eval``: the estimator pipeline, one command each."""

from __future__ import annotations

import argparse
import datetime
import json
import sys
from pathlib import Path
from typing import Any

from ginbots.arena.cluster import add_cluster_argument
from ginbots.estimators import BAYES_FILE, ESTIMATOR_NAMES, make_estimator

DEFAULT_DATA = "data/estimators/simple"
LEARNED = ["bayes", "bayes-isru", "shankar-cnn", "simple-nn", "mlp8", "gbt"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("estimators", help="opponent-hand estimators: generate data, build tables, train, evaluate")
    esub = p.add_subparsers(dest="estimators_command", required=True)

    g = esub.add_parser("generate", help="record self-play observations in resumable chunks")
    g.add_argument("--games", type=int, default=10000)
    g.add_argument("--players", default="simple,simple", help="two player specs, comma-separated")
    g.add_argument("--out", default=DEFAULT_DATA)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--chunk", type=int, default=250)
    g.add_argument("--workers", type=int, default=2)
    add_cluster_argument(g)
    g.set_defaults(func=cmd_generate)

    b = esub.add_parser("bayes", help="likelihood tables for the Bayesian estimators from recorded data")
    b.add_argument("--data", default=DEFAULT_DATA)
    b.add_argument("--out", default="weights")
    b.set_defaults(func=cmd_bayes)

    t = esub.add_parser("train", help="train networks and freeze them to ONNX (needs the train extra)")
    t.add_argument("networks", nargs="*", default=["shankar-cnn", "simple-nn", "mlp8"])
    t.add_argument("--data", default=DEFAULT_DATA)
    t.add_argument("--max-rows", type=int, default=400_000, help="use at most this many rows (whole episodes)")
    t.add_argument("--epochs", type=int, default=4)
    t.add_argument("--generations", type=int, default=3, help="simple-nn data/training cycles")
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--out", default="weights")
    t.set_defaults(func=cmd_train)

    r = esub.add_parser("trees", help="fit the gradient-boosted-trees estimator (gbt) and export it to ONNX "
                                      "(needs the sklearn extra)")
    r.add_argument("--data", default=DEFAULT_DATA, help="a folder of chunks, or of chunk folders")
    r.add_argument("--examples", type=int, default=600_000, help="card examples sampled for fitting")
    r.add_argument("--trees", type=int, default=200)
    r.add_argument("--depth", type=int, default=4)
    r.add_argument("--learning-rate", type=float, default=0.1)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--out", default="weights")
    r.set_defaults(func=cmd_trees)

    e = esub.add_parser("eval", help="score estimators per turn with document 001's five metrics")
    e.add_argument("--games", type=int, default=2000)
    e.add_argument("--seed", type=int, default=2026, help="evaluation seed (keep it apart from training seeds)")
    e.add_argument("--estimators", default=",".join(n for n in ESTIMATOR_NAMES if n != "ensemble"))
    e.add_argument("--workers", type=int, default=2)
    e.add_argument("--out", default="reports/estimators")
    e.add_argument("--write-ensemble", metavar="PATH", help="also store the chosen ranges here (weights/ensemble.json)")
    e.set_defaults(func=cmd_eval)


    c = esub.add_parser("calibrate", help="fit calibration maps on some games, score raw and calibrated "
                                          "estimates on others (needs the sklearn extra)")
    c.add_argument("--estimators", default="bayes,shankar-cnn,mlp8")
    c.add_argument("--methods", default="isotonic,logistic")
    c.add_argument("--fit-games", type=int, default=1000)
    c.add_argument("--fit-seed", type=int, default=3031, help="games the maps are fitted on")
    c.add_argument("--games", type=int, default=2000)
    c.add_argument("--seed", type=int, default=2026, help="held-out games they are scored on")
    c.add_argument("--workers", type=int, default=2)
    c.add_argument("--out", default="reports/calibration")
    c.set_defaults(func=cmd_calibrate)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from ginbots.estimators.evaluate import evaluate

    from .calibration import (
        CalibratedEstimator,
        fit_calibration,
        probability_scores,
        unknown_pairs,
    )
    from .estimator_data import generate, load

    names = [n.strip() for n in args.estimators.split(",") if n.strip()]
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    snaps = {}
    for role, games, seed in (("fit", args.fit_games, args.fit_seed), ("test", args.games, args.seed)):
        folder = Path("data/estimators") / f"eval-seed{seed}-games{games}"
        generate(folder, games, seed=seed, workers=args.workers)
        snaps[role] = load(folder)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    report: dict = {"fit": f"{args.fit_games} games simple vs simple, seed {args.fit_seed}",
                    "test": f"{args.games} games simple vs simple, seed {args.seed}", "estimators": {}}
    for name in names:
        base = make_estimator(name)
        fit_p, fit_y, _ = unknown_pairs(snaps["fit"], base.raw(snaps["fit"]))
        candidates = {name: base}
        for method in methods:
            calibration = fit_calibration(fit_p, fit_y, method)
            (out / f"calibration_{name}_{method}.json").write_text(json.dumps(calibration) + "\n")
            candidates[f"{name}+{method}"] = CalibratedEstimator(base, calibration)
        scored = evaluate(snaps["test"], candidates)["scores"]
        for label, est in candidates.items():
            p, y, _ = unknown_pairs(snaps["test"], est.raw(snaps["test"]))
            entry = probability_scores(p, y)
            entry.update({metric: values["all"] for metric, values in scored[label].items()})
            report["estimators"][label] = entry
            print(f"{label:28s} brier {entry['brier']:.4f}  log loss {entry['log_loss']:.4f}  "
                  f"mean sq diff {entry['mean_squared_difference']:.4f}  top-10 {entry['top_n_cards']:.2f}", flush=True)
    (out / "calibration.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"maps and report in {out}/")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .estimator_data import generate

    players = tuple(args.players.split(","))
    if len(players) != 2:
        print("ginbots estimators generate: --players needs two specs, e.g. simple,simple", file=sys.stderr)
        return 2
    paths = generate(args.out, args.games, players=players, seed=args.seed, chunk=args.chunk,
                     workers=args.workers, cluster=args.cluster)  # type: ignore[arg-type]
    (Path(args.out) / "source.json").write_text(json.dumps(
        {"players": players, "games": args.games, "seed": args.seed, "chunk": args.chunk}) + "\n")
    print(f"{len(paths)} chunks in {args.out}")
    return 0


def _source(data: str) -> str:
    try:
        meta = json.loads((Path(data) / "source.json").read_text())
        return f"{meta['games']} games {' vs '.join(meta['players'])}, seed {meta['seed']}"
    except (OSError, ValueError, KeyError):
        return f"recorded self-play in {data}"


def cmd_bayes(args: argparse.Namespace) -> int:
    from ginbots.estimators.bayes import count_tables, save_tables
    from ginbots.estimators.weights import sha256_of

    from .estimator_data import load

    snap = load(args.data)
    held, seen = count_tables(snap)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / BAYES_FILE
    meta = {"source": _source(args.data), "rows": int(len(snap))}
    save_tables(path, held, seen, meta)
    card = {"name": "bayes", "file": path.name,
            "architecture": "likelihood tables: took face-up (2) x face-up rank (14) x discard rank (14) "
                            "x card rank (13) x suit relation (4)",
            "parameters": int(seen.size * 2), "data": {**meta, "observations": int(seen.sum()),
                                                       "cells_with_50_or_more": int((seen >= 50).sum())},
            "regenerate": "ginbots estimators generate --games 10000 && ginbots estimators bayes",
            "date": datetime.date.today().isoformat(), "sha256": sha256_of(path)}
    (out / "bayes_tables.card.json").write_text(json.dumps(card, indent=2) + "\n")
    print(f"wrote {path}: {int(seen.sum()):,} observations, {int((seen >= 50).sum())} cells with >= 50")
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    try:
        from .estimator_train import split_by_episode, train_network
    except ImportError as exc:
        print(f"ginbots estimators train: {exc}", file=sys.stderr)
        return 2
    from .estimator_data import load

    snap = load(args.data)
    if len(snap) > args.max_rows:
        cut = snap.episode[args.max_rows]
        snap = snap.select(snap.episode < cut) if (snap.episode < cut).any() else snap.select(slice(args.max_rows))
    train, val = split_by_episode(snap, seed=args.seed)
    for name in args.networks:
        print(f"training {name} on {len(train):,} rows, validating on {len(val):,}")
        card = train_network(name, train, val, args.out, epochs=args.epochs, batch=args.batch, lr=args.lr,
                             generations=args.generations, seed=args.seed, data_source=_source(args.data))
        print(f"  {card['file']}: {card['parameters']:,} parameters, validation {card['validation']}")
    return 0


def cmd_trees(args: argparse.Namespace) -> int:
    try:
        from .tabular_fit import fit_trees
    except ImportError as exc:
        print(f"ginbots estimators trees: needs scikit-learn and skl2onnx: pip install 'ginbots[sklearn]' ({exc})",
              file=sys.stderr)
        return 2
    from ginbots.estimators.snapshot import split_by_episode

    from .estimator_data import chunk_folders, load

    train, val = split_by_episode(load(args.data), seed=args.seed)
    print(f"fitting gbt on {len(train):,} rows, validating on {len(val):,}", flush=True)
    card = fit_trees(train, val, args.out, examples=args.examples, trees=args.trees, depth=args.depth,
                     learning_rate=args.learning_rate, seed=args.seed,
                     data_source="; ".join(_source(str(folder)) for folder in chunk_folders(args.data)))
    print(f"  {args.out}/gbt.onnx: {card['parameters']:,} tree nodes, validation {card['validation']}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from ginbots.estimators.evaluate import evaluate, write_report

    from .estimator_data import generate, load

    names = [n.strip() for n in args.estimators.split(",") if n.strip()]
    estimators = {n: make_estimator(n) for n in names}
    data_dir = Path("data/estimators") / f"eval-seed{args.seed}-games{args.games}"
    generate(data_dir, args.games, seed=args.seed, workers=args.workers)
    snap = load(data_dir)
    result = evaluate(snap, estimators)
    report = write_report(result, args.out, [n for n in names if n in LEARNED])
    print(report["table"])
    print(f"\nensemble ranges (lowest mean squared difference per turn): {report['ranges']}")
    print(f"plots and summary in {args.out}/")
    if args.write_ensemble:
        from ginbots.estimators.weights import write_card

        Path(args.write_ensemble).write_text(json.dumps(
            {"ranges": report["ranges"], "chosen_by": "mean_squared_difference per opponent turn",
             "evaluation": f"{args.games} games simple vs simple, seed {args.seed}"}, indent=1) + "\n")
        write_card(args.write_ensemble, {"name": "estimator ensemble (turn ranges)",
                                         "chosen_by": "mean_squared_difference per opponent turn"})
    return 0
