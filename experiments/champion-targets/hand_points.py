"""The hand-points table of ``ginbots.search.equity`` (HAND_POINTS): signed points of single hands, both sides.

Plays single hands (duplicate deals, no time limit) of PLAYER against each opponent, drops
cancelled hands, counts each hand once from each side (so the table favours neither player),
pools the opponents equally and prints the table as Python.

Usage: python experiments/champion-targets/hand_points.py [--player heuristic:tuned] [--hands 1000] [--seed 21] [OPPONENT ...]
"""

from __future__ import annotations

import argparse
import collections

from ginbots.arena.match import MatchConfig, run_match
from ginbots.game.engine import GameConfig
from ginbots.players.registry import parse_spec

OPPONENTS = ("simple", "heuristic:tuned", "keats:tuned", "planner:tuned")


def signed_hands(player: str, opponent: str, hands: int, seed: int) -> list[int]:
    """Every scored hand's points from the first player's side (+ won, - lost)."""
    config = MatchConfig(games=hands, seed=seed, workers=1, duplicate=True, single_hand=True,
                         game=GameConfig(time_budget=None))
    report = run_match(parse_spec(player), parse_spec(opponent), config, progress=False)
    out = []
    for game in report.games:
        for hand in game["hands"]:
            if hand["winner"] in ("A", "B") and hand["points"]:
                out.append(hand["points"] if hand["winner"] == "A" else -hand["points"])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="*", default=list(OPPONENTS))
    parser.add_argument("--player", default="heuristic:tuned")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args(argv)
    counts: collections.Counter[int] = collections.Counter()
    for opponent in args.opponents:
        points = signed_hands(args.player, opponent, args.hands, args.seed)
        # Equal weight per opponent: scale each one's hands to a common total (in whole counts).
        weight = round(10_000 / len(points))
        for x in points:
            counts[x] += weight
            counts[-x] += weight
        print(f"# {opponent}: {len(points)} scored hands", flush=True)
    print("HAND_POINTS = (" + ", ".join(f"({x}, {c})" for x, c in sorted(counts.items())) + ")")


if __name__ == "__main__":
    main()
