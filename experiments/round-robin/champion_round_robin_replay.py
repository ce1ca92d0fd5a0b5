"""Re-play a committed round robin's champion pairs with the champion as it is now, and re-rate.

The champion is the tournament's first bot, so its pairs are pairs 0..n-2; each is re-played as a
match on the same deals (the pair's seed from ``TournamentConfig.pair_seed``, duplicate, the tournament's
games per pair), resumably (a finished pair is skipped). The other pairs' wins come from the round
robin's ``summary.json`` (their bots have not changed), and Bradley-Terry ratings are fitted on the
merged table.

Usage: python experiments/round-robin/champion_round_robin_replay.py ROUND_ROBIN_DIR OUT_DIR [--champion SPEC] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from ginbots.arena.ratings import bradley_terry
from ginbots.arena.stats import wilson
from ginbots.arena.tournament import TournamentConfig


def replay(rr: Path, out: Path, champion: str, workers: int) -> dict[tuple[str, str], float]:
    config = json.loads((rr / "tournament.json").read_text())
    tournament = TournamentConfig(bots=tuple(config["bots"]), games_per_pair=config["games_per_pair"], seed=config["seed"])
    bots = config["bots"]
    if bots[0] != "champion":
        sys.exit(f"{rr}: the champion must be the first bot, got {bots[0]}")
    out.mkdir(parents=True, exist_ok=True)
    wins: dict[tuple[str, str], float] = {}
    for pair, opponent in enumerate(bots[1:]):
        path = out / f"pair_{pair:02d}.json"
        if not path.exists():
            seed = tournament.pair_seed(pair)
            subprocess.run([sys.executable, "-m", "ginbots", "match", champion, opponent,
                            "--games", str(config["games_per_pair"]), "--seed", str(seed), "--duplicate",
                            "--workers", str(workers), "--no-progress", "--json", str(path) + ".tmp"],
                           check=True, stdout=subprocess.DEVNULL)
            Path(str(path) + ".tmp").rename(path)
        match = json.loads(path.read_text())
        wins[("champion", opponent)] = match["A"]["wins"]
        wins[(opponent, "champion")] = match["B"]["wins"]
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_robin", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--champion", default="champion")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    summary = json.loads((args.round_robin / "summary.json").read_text())
    bots = summary["config"]["bots"]
    wins = replay(args.round_robin, args.out, args.champion, args.workers)
    for pair in summary["pairs"]:
        if "champion" not in (pair["a"], pair["b"]):
            wins[(pair["a"], pair["b"])] = pair["a_wins"]
            wins[(pair["b"], pair["a"])] = pair["b_wins"]
    ratings = bradley_terry(bots, wins)
    lines = [f"Round robin {args.round_robin} with the champion's pairs re-played by `{args.champion}` "
             f"({summary['config']['games_per_pair']} games per pair, same deals):", ""]
    for bot in sorted(bots, key=lambda b: -ratings[b][0]):
        won = sum(v for (a, _), v in wins.items() if a == bot)
        games = won + sum(v for (_, b), v in wins.items() if b == bot)
        low, high = wilson(round(won), round(games), 0.90)
        rating, lo, hi = ratings[bot]
        lines.append(f"{bot:22s} BT {rating:6.0f} [{lo:.0f}, {hi:.0f}]  won {100 * won / games:5.1f}% "
                     f"[{100 * low:.1f}, {100 * high:.1f}] of {games:.0f}")
    lines.append("")
    for opponent in bots[1:]:
        a, b = wins[("champion", opponent)], wins[(opponent, "champion")]
        lines.append(f"champion vs {opponent:22s} {a:.0f}-{b:.0f}")
    text = "\n".join(lines)
    (args.out / "summary.txt").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
