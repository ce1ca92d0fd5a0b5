"""Simple against Simple: the challenge's Java engine and the ginbots engine, interleaved on one core.

Compiles experiments/engine-speed/JavaEngineBench.java against an engine checkout (tneller/gin-rummy-eaai,
a work tree or a bare git directory), warms the JVM up, then alternates rounds: SECONDS of the Java
thread's CPU time, then SECONDS of this process's CPU time playing ginbots.game.engine.play_game with
two SimplePlayers. Both processes are pinned to one core (taskset) and timed in CPU time, so another
job on the machine slows neither side's figure. Writes a JSON with every round and the ratio.

Each of JVMS fresh JVMs (the JIT's outcome differs from launch to launch) plays ROUNDS rounds;
the figure is the median over every round.

Usage: python experiments/engine-speed/java_vs_python.py ENGINE_CHECKOUT OUT.json [ROUNDS] [SECONDS] [JVMS]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer

HERE = Path(__file__).resolve().parent


def engine_sources(checkout: Path, work: Path) -> Path:
    out = work / "engine"
    bare = subprocess.run(["git", "-C", str(checkout), "rev-parse", "--is-bare-repository"],
                          capture_output=True, text=True).stdout.strip() == "true"
    if bare:
        out.mkdir()
        archive = subprocess.run(["git", "-C", str(checkout), "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "x", "-C", str(out)], input=archive.stdout, check=True)
    else:
        shutil.copytree(checkout, out)
    return out


def python_round(seconds: float, game: int) -> tuple[int, float, int]:
    players = [SimplePlayer(seed=1), SimplePlayer(seed=2)]
    config = GameConfig(time_budget=None)
    hands = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        hands += len(play_game(players, seed=game, config=config).hands)
        game += 1
    return hands, time.process_time() - start, game


def java_round(java: subprocess.Popen, seconds: float) -> tuple[int, float]:
    """One round of the JVM's games: (hands, CPU seconds of its thread)."""
    java.stdin.write(f"run {seconds}\n")
    java.stdin.flush()
    words = java.stdout.readline().split()
    return int(words[1]), float(words[3])


def main() -> None:
    checkout, out = Path(sys.argv[1]), Path(sys.argv[2])
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 5.0
    launches = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    load_before = os.getloadavg()[0]  # the other core's load moves the JVM's figure more than ours
    core = os.sched_getaffinity(0)
    pin = min(core)
    os.sched_setaffinity(0, {pin})
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        engine = engine_sources(checkout, work)
        classes = work / "classes"
        classes.mkdir()
        subprocess.run(["javac", "-nowarn", "-d", str(classes), *map(str, (engine / "ginrummy").glob("*.java")),
                        str(HERE / "JavaEngineBench.java")], check=True, capture_output=True)
        rows, game = [], 0
        python_round(1.0, 10_000_000)
        for launch in range(launches):  # a fresh JVM each time: its JIT's outcome moves its speed by up to 15%
            java = subprocess.Popen(["taskset", "-c", str(pin), "java", "-cp", str(classes), "JavaEngineBench"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

            java_round(java, seconds)  # JIT warm-up
            for r in range(rounds):
                jh, js = java_round(java, seconds)
                ph, ps, game = python_round(seconds, game)
                rows.append({"jvm": launch + 1, "round": r + 1, "java_hands_per_s": jh / js,
                             "ginbots_hands_per_s": ph / ps, "ratio": (ph / ps) / (jh / js)})
                print(f"JVM {launch + 1} round {r + 1}: Java {jh / js:,.0f} hands/s, ginbots {ph / ps:,.0f} hands/s: "
                      f"{(ph / ps) / (jh / js):.2f}x", flush=True)
            java.stdin.write("quit\n")
            java.stdin.flush()
            java.wait(timeout=30)
    summary = {"command": " ".join(["python", "experiments/engine-speed/java_vs_python.py", *sys.argv[1:]]),
               "date": date.today().isoformat(), "timer": "CPU time of each side, both pinned to one core",
               "load_average_before": load_before, "load_average_after": os.getloadavg()[0],
               "cores": os.cpu_count(), "jvms": launches,
               "rounds": rows, "java_hands_per_s_median": statistics.median(r["java_hands_per_s"] for r in rows),
               "ginbots_hands_per_s_median": statistics.median(r["ginbots_hands_per_s"] for r in rows),
               "ratio_median": statistics.median(r["ratio"] for r in rows)}
    out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"median: {summary['ratio_median']:.2f}x ginbots / Java ({out})")


if __name__ == "__main__":
    main()
