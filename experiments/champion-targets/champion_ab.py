"""Quick paired comparison of bot variants by points per hand (issue 19's development loop).

Single hands on duplicate deals: each deal is played with the variant in both seats, and the
pair's mean signed points (the variant's points won minus lost) is one sample. Points per hand
separates variants with far fewer games than win rates of games to 100; the same deals
serve every variant, so differences between variants are paired too.

Usage: python experiments/champion-targets/champion_ab.py OPPONENT SPEC [SPEC ...] [--deals N] [--seed S] [--workers W]
"""

from __future__ import annotations

import argparse
import json
import math
import sys

from ginbots.arena.match import MatchConfig, run_match
from ginbots.game.engine import GameConfig
from ginbots.players.registry import parse_spec


def signed_points(report) -> list[float]:
    """Per deal: the mean over its two seatings of A's signed points."""
    values = []
    for game in report.games:
        points = 0
        for hand in game["hands"]:
            if hand["winner"] == "A":
                points += hand["points"]
            elif hand["winner"] == "B":
                points -= hand["points"]
        values.append(points)
    return [(values[i] + values[i + 1]) / 2 for i in range(0, len(values) - 1, 2)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent")
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    config = MatchConfig(games=2 * args.deals, seed=args.seed, workers=args.workers, duplicate=True,
                         single_hand=True, game=GameConfig(time_budget=None))
    per_spec = {}
    for spec in args.specs:
        report = run_match(parse_spec(spec), parse_spec(args.opponent), config, progress=False)
        per_spec[spec] = signed_points(report)
        v = per_spec[spec]
        mean = sum(v) / len(v)
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1))
        hands = [h for g in report.games for h in g["hands"]]
        won = sum(h["winner"] == "A" for h in hands) / len(hands)
        print(f"{spec:60s} {mean:+6.2f} +- {sd / math.sqrt(len(v)):.2f} pts/hand  "
              f"hands won {100 * won:.1f}%  ({len(v)} deals x 2)", flush=True)
    base = args.specs[0]
    for spec in args.specs[1:]:
        d = [a - b for a, b in zip(per_spec[spec], per_spec[base])]
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        print(f"  {spec} - {base}: {mean:+.2f} +- {sd / math.sqrt(len(d)):.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"opponent": args.opponent, "seed": args.seed, "deals": args.deals,
                       "points": per_spec}, fh)


if __name__ == "__main__":
    sys.exit(main())
