"""Paired difference of two champion_ab runs on the same deals (same opponent, seed and deal count).

Two networks cannot play in one champion_ab run (the weights folder is one per process), so each
network's run is saved with ``--json`` and this script pairs their per-deal points.

Usage: python experiments/champion-afterstate/compare_nets.py OLD.json OLD_SPEC NEW.json NEW_SPEC
"""

from __future__ import annotations

import json
import sys

from ginbots.arena.stats import mean_and_se


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    old, old_spec, new, new_spec = load(argv[0]), argv[1], load(argv[2]), argv[3]
    for key in ("opponent", "seed", "deals"):
        if old[key] != new[key]:
            print(f"the runs differ in {key}: {old[key]} vs {new[key]}; their deals are not paired", file=sys.stderr)
            return 1
    mean, se = mean_and_se([b - a for a, b in zip(old["points"][old_spec], new["points"][new_spec])])
    print(json.dumps({"opponent": old["opponent"], "seed": old["seed"], "deals": old["deals"],
                      "old": [argv[0], old_spec], "new": [argv[2], new_spec],
                      "mean": round(mean, 2), "se": round(se, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
