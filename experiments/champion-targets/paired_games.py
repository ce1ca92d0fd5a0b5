"""Per-game results of one spec against an opponent, for paired comparisons of champion variants.

Games to 100 on duplicate deals; with the same seed two variants play the same deals, and a
deterministic bot plays the same games until the variants' first different decision, so the
difference of their wins comes from the games that diverged. ``--compare A.json B.json`` prints
both win rates and the paired difference (+- one standard error over games).

Usage: python experiments/champion-targets/paired_games.py SPEC OPPONENT --games N --seed S --json OUT
       python experiments/champion-targets/paired_games.py --compare A.json B.json [C.json ...]
"""

from __future__ import annotations

import argparse
import json
import sys

from ginbots.arena.match import MatchConfig, run_match
from ginbots.arena.stats import mean_and_se
from ginbots.players.registry import parse_spec


def play(spec: str, opponent: str, games: int, seed: int, out: str) -> None:
    config = MatchConfig(games=games, seed=seed, workers=1, duplicate=True)
    report = run_match(parse_spec(spec), parse_spec(opponent), config, progress=False)
    wins = [1 if g["winner"] == "A" else 0 for g in report.games]
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"spec": spec, "opponent": opponent, "seed": seed, "wins": wins}, fh)
    print(f"{spec} vs {opponent}: {sum(wins)}/{len(wins)}")


def compare(paths: list[str]) -> None:
    runs = [json.load(open(p, encoding="utf-8")) for p in paths]
    base = runs[0]
    for run in runs:
        n = len(run["wins"])
        print(f"{run['spec']:55s} {100 * sum(run['wins']) / n:5.1f}%  ({n} games, seed {run['seed']})")
    for run in runs[1:]:
        d = [a - b for a, b in zip(run["wins"], base["wins"])]
        mean, se = mean_and_se(d)
        print(f"  {run['spec']} - {base['spec']}: {100 * mean:+.2f} +- {100 * se:.2f} points "
              f"({sum(x != 0 for x in d)} of {len(d)} games differ)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", nargs="?")
    parser.add_argument("opponent", nargs="?")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1001)
    parser.add_argument("--json")
    parser.add_argument("--compare", nargs="+")
    args = parser.parse_args(argv)
    if args.compare:
        compare(args.compare)
    else:
        play(args.spec, args.opponent, args.games, args.seed, args.json)


if __name__ == "__main__":
    sys.exit(main())
