"""How well the learned knock value and the worlds' estimate predict the points of knocking now.

On the held-out games of a ``knock_data`` folder (every fifth game, never trained on): the mean squared
error and the mean error (bias) of the worlds' estimate (``search_knock``), of the network, and of
blends of the two, overall and by the opponent of the game (the folder's opponents, game g against g mod n).

Usage: python experiments/champion-knock-net/score_knock_net.py DATA NET_FOLDER [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from ginbots.players.afterstate_value import KNOCK_NET, AfterstateValue
from ginbots.training.afterstate_train import held_out, inputs, load, opponents_of
from ginbots.training.knock_data import KNOCK_FIELDS

BLENDS = (0.0, 0.25, 0.5, 0.75, 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("net")
    parser.add_argument("--json")
    args = parser.parse_args()
    data = load(args.data, KNOCK_FIELDS)
    pool = opponents_of(Path(args.data))
    game, val = held_out(data["episode"], [len(pool)])
    truth = data["knock_points"][val].astype(float)
    worlds = data["search_knock"][val].astype(float)
    net = AfterstateValue(f"{args.net}/{KNOCK_NET}")(inputs({f: a[val] for f, a in data.items()})).astype(float)
    opponent = np.array([pool[g % len(pool)] for g in game[val]])
    report = {"rows": int(val.sum()), "games": int(len(np.unique(game[val]))), "label_var": float(truth.var()),
              "by": {}}
    for name, mask in [("all", np.ones(len(truth), bool))] + [(o, opponent == o) for o in pool]:
        row = {"rows": int(mask.sum())}
        for w in BLENDS:
            guess = (1 - w) * worlds[mask] + w * net[mask]
            error = guess - truth[mask]
            row[f"blend_{w:g}"] = {"mse": float((error ** 2).mean()), "bias": float(error.mean())}
        report["by"][name] = row
        print(f"{name:20s} {mask.sum():6d} rows  " + "  ".join(
            f"w={w:g}: mse {row[f'blend_{w:g}']['mse']:6.1f} bias {row[f'blend_{w:g}']['bias']:+5.1f}" for w in BLENDS))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    main()
