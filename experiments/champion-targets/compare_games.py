"""Two match results on the same deals, compared game for game.

``ginbots match A OPP --seed S --duplicate --json FILE`` records each game's winner and final margin
in the order of the games (``game_winners``, ``game_margins``). Two such files with the same opponent,
seed and number of games were played on the same deals, so the difference between the two A players
can be taken deal by deal (a deal is the pair of games with seats swapped), which removes the deals'
luck that two unpaired win rates carry. Prints each file's win rate (90% Wilson) and the paired
difference in wins (percentage points) and in final margin (points a game), each with its standard
error over deals.

Usage: python experiments/champion-targets/compare_games.py FILE_A FILE_B
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ginbots.arena.stats import mean_and_se, wilson


def load(path: Path) -> dict:
    data = json.loads(path.read_text())
    if "game_winners" not in data:
        raise SystemExit(f"{path}: no game_winners (written before matches recorded each game's outcome)")
    return data


def same_deals(a: dict, b: dict) -> str | None:
    """Why the two files are not on the same deals (None when they are)."""
    for key in ("seed", "games", "duplicate", "mode"):
        if a[key] != b[key]:
            return f"{key} differs: {a[key]} vs {b[key]}"
    if a["players"]["B"] != b["players"]["B"]:
        return f"the opponent differs: {a['players']['B']} vs {b['players']['B']}"
    return None


def per_deal(values: list[float], duplicate: bool) -> list[float]:
    """Games pooled by deal: a duplicate match plays each deal twice, seats swapped (games 2i, 2i+1)."""
    if not duplicate:
        return values
    return [values[i] + values[i + 1] for i in range(0, len(values) - 1, 2)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file_a", type=Path)
    parser.add_argument("file_b", type=Path)
    args = parser.parse_args(argv)
    a, b = load(args.file_a), load(args.file_b)
    problem = same_deals(a, b)
    if problem:
        print(f"not the same deals: {problem}", file=sys.stderr)
        return 2
    for data in (a, b):
        wins, decided = data["A"]["wins"], data["A"]["wins"] + data["A"]["losses"]
        low, high = wilson(wins, decided)
        print(f"{data['players']['A']:50s} {100 * wins / decided:5.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
              f"({wins}/{decided})")
    won = [[1.0 if w == "A" else 0.0 for w in data["game_winners"]] for data in (a, b)]
    wins_a, wins_b = (per_deal(w, a["duplicate"]) for w in won)
    margins_a, margins_b = (per_deal(d["game_margins"], a["duplicate"]) for d in (a, b))
    games_per_deal = 2 if a["duplicate"] else 1
    win_diff, win_se = mean_and_se([(x - y) * 100 / games_per_deal for x, y in zip(wins_a, wins_b)])
    margin_diff, margin_se = mean_and_se([(x - y) / games_per_deal for x, y in zip(margins_a, margins_b)])
    print(f"A - B, paired over {len(wins_a)} deals: wins {win_diff:+.1f} +- {win_se:.1f} points, "
          f"final margin {margin_diff:+.1f} +- {margin_se:.1f} points a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
