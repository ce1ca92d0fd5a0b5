"""Issue 17: the estimators scored on held-out play of the player pool and on Simple-vs-Simple games.

The pool's validation rows are the same whole hands ``ginbots estimators trees`` held out (same split
seed); the Simple set is the 2,000 games of seed 2026 the README's estimator table uses.
Usage: python experiments/estimator-pool/estimator_pool_eval.py [--estimators gbt,shankar-cnn,mlp8,bayes,uniform]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ginbots.estimators import make_estimator
from ginbots.estimators.metrics import (
    card_accuracy_precision,
    mean_squared_difference,
    top_n_cards,
)
from ginbots.estimators.snapshot import bits, split_by_episode
from ginbots.training.calibration import probability_scores, unknown_pairs
from ginbots.training.estimator_data import generate, load


def scores(snap, est) -> dict:
    raw = est.raw(snap)
    truth = bits(snap.truth)
    p, y, _ = unknown_pairs(snap, raw)
    prob = probability_scores(p, y)
    accuracy, precision = card_accuracy_precision(raw, truth)
    return {"mean_squared_difference": round(float(mean_squared_difference(raw, truth).mean()), 4),
            "top_n_cards": round(float(top_n_cards(raw, truth).mean()), 3),
            "brier": round(prob["brier"], 4), "log_loss": round(prob["log_loss"], 4),
            "accuracy": round(accuracy, 4), "precision": round(precision, 4), "rows": len(snap)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--estimators", default="gbt,shankar-cnn,mlp8,bayes,uniform")
    parser.add_argument("--pool", default="data/estimators/pool")
    parser.add_argument("--out", default="experiments/estimator-pool/results/estimators_pool.json")
    args = parser.parse_args()
    _, pool_val = split_by_episode(load(args.pool), seed=0)
    simple_dir = Path("data/estimators/eval-seed2026-games2000")
    generate(simple_dir, 2000, seed=2026, workers=1)
    sets = {"pool (held-out hands)": pool_val, "simple vs simple (seed 2026)": load(simple_dir)}
    result = {name: {label: scores(snap, make_estimator(name)) for label, snap in sets.items()}
              for name in args.estimators.split(",")}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    for name, by_set in result.items():
        print(name, json.dumps(by_set))


if __name__ == "__main__":
    main()
