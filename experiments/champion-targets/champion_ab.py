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
import sys

from ginbots.arena.match import MatchConfig, run_match
from ginbots.arena.stats import mean_and_se
from ginbots.game.engine import GameConfig
from ginbots.players.registry import parse_spec


def signed_points(report) -> list[float]:
    """Per deal: the mean over its two seatings of A's signed points (each single hand's margin, as
    the match report records it)."""
    values = report.per_game()["game_margins"]
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
        mean, se = mean_and_se(per_spec[spec])
        hands = [h for g in report.games for h in g["hands"]]
        won = sum(h["winner"] == "A" for h in hands) / len(hands)
        print(f"{spec:60s} {mean:+6.2f} +- {se:.2f} pts/hand  "
              f"hands won {100 * won:.1f}%  ({args.deals} deals x 2)", flush=True)
    base = args.specs[0]
    summary = {spec: dict(zip(("mean", "se"), mean_and_se(v))) for spec, v in per_spec.items()}
    differences = {}
    for spec in args.specs[1:]:
        mean, se = mean_and_se([a - b for a, b in zip(per_spec[spec], per_spec[base])])
        differences[spec] = {"mean": mean, "se": se}
        print(f"  {spec} - {base}: {mean:+.2f} +- {se:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"opponent": args.opponent, "seed": args.seed, "deals": args.deals, "base": base,
                       "summary": summary, "differences": differences, "points": per_spec}, fh)



if __name__ == "__main__":
    sys.exit(main())
