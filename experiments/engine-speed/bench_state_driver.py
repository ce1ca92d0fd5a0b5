"""Issue 18: the engine driven over ginbots.game.state against the engine before it (commit 65a7824).

Plays the same Simple-vs-Simple games through both, checks that every trace is identical, and
times them in turns, side by side in one process, in CPU time (the machine may be busy).
Usage: .venv/bin/python experiments/engine-speed/bench_state_driver.py [--games 40] [--rounds 7] [--json FILE]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ginbots import engine
from ginbots.players.baselines import SimplePlayer

BEFORE = "65a7824"


def load_engine_before() -> object:
    source = subprocess.run(["git", "show", f"{BEFORE}:ginbots/game/engine.py"], check=True, capture_output=True,
                            text=True, cwd=Path(__file__).resolve().parents[2]).stdout
    path = Path(tempfile.mkdtemp()) / "engine_before.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("ginbots._engine_before", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def hands_per_cpu_second(module: object, games: int, first_seed: int) -> float:
    players = [SimplePlayer(seed=0), SimplePlayer(seed=1)]
    start = time.process_time()
    hands = sum(len(module.play_game(players, seed=first_seed + g).hands) for g in range(games))
    return hands / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    before = load_engine_before()
    for g in range(200):
        a = engine.play_game([SimplePlayer(seed=g), SimplePlayer(seed=g + 1)], seed=g, trace=True)
        b = before.play_game([SimplePlayer(seed=g), SimplePlayer(seed=g + 1)], seed=g, trace=True)
        assert a.trace == b.trace and repr(a.hands) == repr(b.hands), f"game {g} differs"
    rows = []
    for r in range(args.rounds):
        old = hands_per_cpu_second(before, args.games, r * 1000)
        new = hands_per_cpu_second(engine, args.games, r * 1000)
        rows.append({"before_hands_per_cpu_s": round(old), "state_driver_hands_per_cpu_s": round(new),
                     "ratio": round(new / old, 3)})
        print(rows[-1])
    out = {"identical_games": 200, "games_per_round": args.games, "rounds": rows,
           "median_ratio": statistics.median(r["ratio"] for r in rows), "before_commit": BEFORE,
           "command": "python experiments/engine-speed/bench_state_driver.py " + " ".join(sys.argv[1:])}
    print(f"median ratio (state driver / before): {out['median_ratio']:.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
