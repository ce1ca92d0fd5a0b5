"""How the afterstate value's held-out error falls with the games it trains on (issue 37, part 3).

Usage: python experiments/champion-afterstate/learning_curve.py DATA OUT.json
Trains the shipped recipe's first generation (outcome targets) on a quarter, a half and all of the
training games, each time scored on the same held-out games (every fifth), and writes the held-out
mean squared error and its share of the error of predicting the mean alone.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from ginbots.training.afterstate_train import POINT_SCALE, _fit, build_model, held_out, inputs, load


def main(data_dir: str, out: str) -> None:
    data = load(data_dir)
    x = inputs(data)
    y = (data["points"].astype(np.float32) / POINT_SCALE)[:, None]
    game, val = held_out(data["episode"])
    baseline = float(((y[val] - y[~val].mean()) ** 2).mean()) * POINT_SCALE ** 2
    rows = []
    for share in (0.25, 0.5, 1.0):
        used = val | ((game * 2654435761 % 1000) < share * 1000)  # a fixed pseudo-random subset of games
        _, best = _fit(build_model(0), x[used], y[used], val[used], epochs=5, batch=512, lr=1e-3,
                       weight_decay=1e-4, seed=0, label=f"share {share}: ")
        rows.append({"share": share, "train_games": int(len(np.unique(game[used & ~val]))),
                     "train_rows": int((used & ~val).sum()), "validation_mse": best,
                     "explained": 1 - best / baseline})
        print(rows[-1], flush=True)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"validation_games": int(len(np.unique(game[val]))), "mean_only_mse": baseline, "curve": rows},
                  fh, indent=2)


if __name__ == "__main__":
    main(*sys.argv[1:])
