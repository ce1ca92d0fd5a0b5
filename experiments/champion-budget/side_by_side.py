"""The champion's CPU a game in two checkouts, measured side by side (issue 37, part 2).

On a shared two-core machine one run's CPU time can move by a quarter from one minute to the next, so
two versions are compared in rounds: each round plays the same games of ``ginbots bench champion``
(against Simple, seed 0) in this checkout and in ``OTHER`` at the same time, each pinned to its own
core, the cores swapped every round (the two cores of this machine differ in speed by up to a third). The
figure is the geometric mean over an even number of rounds of the per-round ratio, so that each checkout
ran as often on each core.

Usage: python experiments/champion-budget/side_by_side.py OTHER_CHECKOUT [--rounds 10] [--games 15]
           [--code compiled] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

#: Run in each checkout: the bench's games (champion seed g, Simple seed 100 + g, game seed g), every
#: callback of the champion metered in process CPU time, as ``ginbots.arena.bench.bench_champion``.
PLAY = """
import json, sys
from ginbots.arena.bench import CpuMetered
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.champion import ChampionPlayer
games, code = int(sys.argv[1]), sys.argv[2]
cpu, scores = [], []
for g in range(games):
    champion = ChampionPlayer(seed=g, playouts=code)
    champion.prepare()
    metered = CpuMetered(champion)
    result = play_game([metered, SimplePlayer(seed=100 + g)], seed=g, config=GameConfig(time_budget=None))
    cpu.append(metered.cpu)
    scores.append(list(result.scores))
print(json.dumps({"cpu": cpu, "scores": scores}))
"""


def _start(checkout: Path, core: int, games: int, code: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    command = ["taskset", "-c", str(core), sys.executable, "-c", PLAY, str(games), code]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--code", default="compiled", choices=("compiled", "python"))
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    if args.rounds % 2:
        parser.error("--rounds must be even, so that each checkout runs as often on each core")
    rounds = []
    for r in range(args.rounds):
        procs = {"this": _start(HERE, r % 2, args.games, args.code),
                 "other": _start(args.other.resolve(), (r + 1) % 2, args.games, args.code)}
        out = {}
        for name, proc in procs.items():
            stdout, _ = proc.communicate()
            if proc.returncode:
                sys.exit(f"{name} checkout failed (exit {proc.returncode})")
            out[name] = json.loads(stdout.strip().splitlines()[-1])
        this, other = (statistics.mean(out[k]["cpu"]) for k in ("this", "other"))
        rounds.append({"this_cpu_s_per_game": this, "other_cpu_s_per_game": other, "ratio": this / other,
                       "same_games": out["this"]["scores"] == out["other"]["scores"]})
        print(f"round {r + 1}: this {this:.3f} s a game, other {other:.3f} s, ratio {this / other:.3f}, "
              f"same games: {rounds[-1]['same_games']}", flush=True)
    summary = {
        "command": "python experiments/champion-budget/side_by_side.py " + " ".join(argv or sys.argv[1:]),
        "date": time.strftime("%Y-%m-%d"), "machine": f"{os.cpu_count()} cores, one process pinned to each",
        "code": args.code, "games_per_round": args.games, "rounds": rounds,
        "ratio": statistics.geometric_mean(r["ratio"] for r in rounds),
        "ratio_range": [min(r["ratio"] for r in rounds), max(r["ratio"] for r in rounds)],
        "same_games": all(r["same_games"] for r in rounds),
    }
    print(f"ratio this / other (geometric mean): {summary['ratio']:.3f} over {args.rounds} rounds; "
          f"same games: {summary['same_games']}")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
