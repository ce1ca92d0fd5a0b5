"""How much a bot from outside the bundle can slow its opponent by burning CPU on the opponent's time, with
and without its confinement (``ginbots.connect.confine``).

The thief is ``tests/hostile.py``'s ``CpuThief`` with 60 busy processes, each in a session of its own (so
that the kernel's per-session CPU sharing, autogroup, does not hold them back), started at its first
decision of each game; it runs in its bubblewrap sandbox behind the bridge, as the runner runs any bot
from outside the bundle. The champion plays it in this process. Thinking time is the engine's clock
(wall time, as in the challenge). Usage:

    python experiments/robustness/cpu_thief.py --games 4 --json experiments/robustness/results/cpu_thief.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, "..", "..", "tests")
sys.path[:0] = [HERE, TESTS]

from hostile import CpuThief  # noqa: E402

from ginbots.connect.host import ProcessPlayer, bridge_command  # noqa: E402
from ginbots.game.engine import GameConfig, play_game  # noqa: E402
from ginbots.players.registry import parse_spec  # noqa: E402


class Thief60(CpuThief):
    """The thief with 60 busy processes."""

    name = "cpu-thief-60"
    processes = 60


def run(opponent: str, games: int, seed: int, confine: bool | None) -> dict:
    """``games`` games of ``opponent`` (in process) against the thief (None: Passive, no thief at all)."""
    think, start = [], time.perf_counter()
    for game in range(games):
        target = "cpu_thief:Thief60" if confine is not None else "hostile:Passive"
        thief = ProcessPlayer(bridge_command(target), label="thief", sandbox=True, confine=bool(confine),
                              pythonpath=[HERE, os.path.abspath(TESTS), *sys.path], memory_mb=2048)
        player = parse_spec(opponent).make(seed=game)
        try:
            result = play_game([player, thief], seed=seed + game, config=GameConfig(time_budget=None))
        finally:
            thief.close()
        think.append(result.think_time[0])
    return {"opponent_think_s_per_game": [round(t, 3) for t in think],
            "mean_s": round(sum(think) / len(think), 3), "elapsed_s": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--opponent", default="champion")
    parser.add_argument("--json")
    args = parser.parse_args()
    out = {"command": "python experiments/robustness/cpu_thief.py " + " ".join(sys.argv[1:]),
           "date": datetime.date.today().isoformat(), "machine": f"{os.cpu_count()} cores",
           "thief_processes": Thief60.processes, "opponent": args.opponent, "games": args.games}
    for label, confine in (("no_thief", None), ("thief_unconfined", False), ("thief_confined", True)):
        out[label] = run(args.opponent, args.games, args.seed, confine)
        print(label, out[label], flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
