"""Score afterstate networks on the same held-out rows of one data folder (issue 37, part 3).

Usage: python experiments/champion-afterstate/score_nets.py DATA FIRST_NEW_GAME NET.onnx [NET.onnx ...]

Each network's mean squared error (points squared) against the hands' real points, on the held-out
games (every fifth), on the held-out games numbered FIRST_NEW_GAME or later (games no shipped network
trained on, when the data was extended past the games it saw), and on every game from FIRST_NEW_GAME;
each beside the error of predicting the training games' mean. Prints one JSON line per network and set.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from ginbots.players.afterstate_value import AfterstateValue
from ginbots.training.afterstate_train import held_out, inputs, load


def main(data_dir: str, first_new: str, *nets: str) -> None:
    data = load(data_dir)
    x, points = inputs(data), data["points"].astype(np.float32)
    game, val = held_out(data["episode"])
    new = game >= int(first_new)
    mean = points[~val & ~new].mean()
    sets = {"held-out": val, "held-out, new games": val & new, "new games": new}
    for net in nets:
        predicted = AfterstateValue(net)(x)
        for name, rows in sets.items():
            mse = float(((predicted[rows] - points[rows]) ** 2).mean())
            base = float(((points[rows] - mean) ** 2).mean())
            print(json.dumps({"net": net, "rows": name, "n": int(rows.sum()), "mse": round(mse, 1),
                              "mean_only": round(base, 1), "explained": round(1 - mse / base, 4)}))


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
