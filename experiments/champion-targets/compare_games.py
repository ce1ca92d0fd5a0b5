"""Two match results on the same deals, compared game for game.

``ginbots match A OPP --seed S --duplicate --json FILE`` records each game's winner and final margin
in the order of the games (``game_winners``, ``game_margins``). Two such files with the same opponent,
seed and number of games were played on the same deals, so the difference between the two A players
can be taken deal by deal (a deal is the pair of games with seats swapped), which removes the deals'
luck that two unpaired win rates carry. Prints each file's win rate (90% Wilson) and the paired
difference in wins (percentage points) and in final margin (points a game), each with its standard
error over deals.

Usage: python experiments/champion-targets/compare_games.py FILE_A FILE_B [FILE_A FILE_B ...]
(several pairs, e.g. one per seed: each pair's lines, then the two sides pooled and the difference over every deal)
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
    if a.get("run_key", "") != b.get("run_key", ""):
        # A seed's deals are keyed by the judge's secret, which differs from machine to machine:
        # replay the other side with `ginbots match ... --run-key KEY` (the key its file records).
        return f"the run keys differ (a seed's deals depend on the machine's judge key): " \
               f"{a.get('run_key', '')[:12]}... vs {b.get('run_key', '')[:12]}...; rerun one with --run-key"
    return None


def per_deal(values: list[float], duplicate: bool) -> list[float]:
    """Games pooled by deal: a duplicate match plays each deal twice, seats swapped (games 2i, 2i+1)."""
    if not duplicate:
        return values
    return [values[i] + values[i + 1] for i in range(0, len(values) - 1, 2)]


def rate_line(name: str, wins: int, decided: int) -> str:
    low, high = wilson(wins, decided)
    return f"{name:50s} {100 * wins / decided:5.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({wins}/{decided})"


def deal_differences(a: dict, b: dict) -> tuple[list[float], list[float]]:
    """A minus B, deal by deal: points of wins (percentage of the deal's games) and final margin a game."""
    won = [[1.0 if w == "A" else 0.0 for w in data["game_winners"]] for data in (a, b)]
    wins_a, wins_b = (per_deal(w, a["duplicate"]) for w in won)
    margins_a, margins_b = (per_deal(d["game_margins"], a["duplicate"]) for d in (a, b))
    games_per_deal = 2 if a["duplicate"] else 1
    return ([(x - y) * 100 / games_per_deal for x, y in zip(wins_a, wins_b)],
            [(x - y) / games_per_deal for x, y in zip(margins_a, margins_b)])


def difference_line(wins: list[float], margins: list[float]) -> str:
    win_diff, win_se = mean_and_se(wins)
    margin_diff, margin_se = mean_and_se(margins)
    return (f"A - B, paired over {len(wins)} deals: wins {win_diff:+.1f} +- {win_se:.1f} points, "
            f"final margin {margin_diff:+.1f} +- {margin_se:.1f} points a game")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+", help="FILE_A FILE_B, and more pairs to pool")
    parser.add_argument("--same", action="store_true",
                        help="also count the games with the same winner and final margin in both files "
                             "(a replay of one spec, to check that it plays the same games)")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("files come in pairs: FILE_A FILE_B [FILE_A FILE_B ...]")
    pairs = [(load(args.files[i]), load(args.files[i + 1])) for i in range(0, len(args.files), 2)]
    totals = [[0, 0], [0, 0]]
    all_wins, all_margins = [], []
    for n, (a, b) in enumerate(pairs):
        problem = same_deals(a, b)
        if problem:
            print(f"not the same deals ({args.files[2 * n]}, {args.files[2 * n + 1]}): {problem}", file=sys.stderr)
            return 2
        for side, data in enumerate((a, b)):
            wins, decided = data["A"]["wins"], data["A"]["wins"] + data["A"]["losses"]
            totals[side][0] += wins
            totals[side][1] += decided
            print(rate_line(data["players"]["A"], wins, decided))
        wins, margins = deal_differences(a, b)
        all_wins += wins
        all_margins += margins
        print(difference_line(wins, margins))
        if args.same:
            same = sum(wa == wb and ma == mb for wa, wb, ma, mb in
                       zip(a["game_winners"], b["game_winners"], a["game_margins"], b["game_margins"]))
            print(f"the same winner and final margin in {same} of {len(a['game_winners'])} games")
    if len(pairs) > 1:
        print(f"pooled over {len(pairs)} pairs:")
        for side, label in enumerate("AB"):
            names = dict.fromkeys(pair[side]["players"]["A"] for pair in pairs)  # each spec once, in order
            print(rate_line(f"{label}: {' / '.join(names)}", *totals[side]))
        print(difference_line(all_wins, all_margins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
