"""The champion's CPU a game in two checkouts, games alternated on one core (issue 37, part 2).

``side_by_side.py`` runs both checkouts at once, one per core; on this shared virtual machine its
round-to-round ratios spread from 0.77 to 1.20, so ten rounds say little. Here one long-lived worker per
checkout waits for game numbers; both are pinned to the same core and play the bench's games (champion seed
g, Simple seed 100 + g, game seed g) one after the other, the order flipped every game, so a change in the
machine's speed weighs on both alike and each game is compared with itself. The figure is the geometric
mean of the per-game ratios (this checkout over ``OTHER``) with a 95% interval, and the ratio of the totals.

Usage: python experiments/champion-budget/alternating.py OTHER_CHECKOUT [--games 60] [--core 0]
           [--code compiled] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]

#: Each worker: builds the players once to load its kernels, then plays the game numbers it reads.
WORKER = """
import json, sys
from ginbots.arena.bench import CpuMetered
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.champion import ChampionPlayer
code = sys.argv[1]
ChampionPlayer(seed=0, playouts=code).prepare()
print("ready", flush=True)
for line in sys.stdin:
    g = int(line)
    champion = ChampionPlayer(seed=g, playouts=code)
    champion.prepare()
    metered = CpuMetered(champion)
    result = play_game([metered, SimplePlayer(seed=100 + g)], seed=g, config=GameConfig(time_budget=None))
    print(json.dumps([metered.cpu, list(result.scores)]), flush=True)
"""


def _worker(checkout: Path, core: int, code: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    proc = subprocess.Popen(["taskset", "-c", str(core), sys.executable, "-c", WORKER, code], cwd=checkout, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    if proc.stdout.readline().strip() != "ready":
        raise RuntimeError(f"the worker for {checkout} did not start")
    return proc


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--code", default="compiled", choices=("compiled", "python"))
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    workers = {"this": _worker(HERE, args.core, args.code), "other": _worker(args.other.resolve(), args.core, args.code)}
    cpu: dict[str, list[float]] = {"this": [], "other": []}
    same = True
    for game in range(args.games):
        scores = {}
        for name in ("this", "other") if game % 2 == 0 else ("other", "this"):
            proc = workers[name]
            proc.stdin.write(f"{game}\n")
            proc.stdin.flush()
            seconds, scores[name] = json.loads(proc.stdout.readline())
            cpu[name].append(seconds)
        same &= scores["this"] == scores["other"]
    for proc in workers.values():
        proc.stdin.close()
        proc.wait()
    logs = [math.log(a / b) for a, b in zip(cpu["this"], cpu["other"])]
    mean, sd = statistics.mean(logs), statistics.stdev(logs)
    half = 1.96 * sd / math.sqrt(len(logs))
    out = {"command": "python experiments/champion-budget/alternating.py " + " ".join(argv or sys.argv[1:]),
           "date": time.strftime("%Y-%m-%d"), "code": args.code, "games": args.games, "core": args.core,
           "this_cpu_s_per_game": statistics.mean(cpu["this"]), "other_cpu_s_per_game": statistics.mean(cpu["other"]),
           "ratio_of_totals": sum(cpu["this"]) / sum(cpu["other"]), "ratio": math.exp(mean),
           "ratio_95": [math.exp(mean - half), math.exp(mean + half)], "same_games": same}
    print(f"this {out['this_cpu_s_per_game']:.3f} s a game, other {out['other_cpu_s_per_game']:.3f} s; ratio "
          f"{out['ratio']:.3f} [{out['ratio_95'][0]:.3f}, {out['ratio_95'][1]:.3f}] per game, "
          f"{out['ratio_of_totals']:.3f} of totals; same games: {same}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
