"""Throughput of a match on the plain local runner and on a local Dask cluster, 1 and 2 workers.

Usage: python experiments/cluster-overhead/measure.py OUT.json [GAMES]
Wall-clock games per second (the machine otherwise idle: stop background jobs first), the same
games on every runner (checked), and what the cluster adds per game.
"""

from __future__ import annotations

import json
import platform
import sys
import time

from distributed import LocalCluster

from ginbots.arena.match import MatchConfig, run_match
from ginbots.players.registry import parse_spec


def timed(config: MatchConfig) -> tuple[float, list]:
    a, b = parse_spec("keats"), parse_spec("simple")
    start = time.perf_counter()
    report = run_match(a, b, config)
    seconds = time.perf_counter() - start
    return seconds, [(g["index"], g["winner"], g["scores"]) for g in report.games]


def main() -> None:
    out, games = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    rows, reference = [], None
    for workers in (1, 2):
        seconds, played = timed(MatchConfig(games=games, seed=11, duplicate=True, workers=workers))
        reference = reference or played
        assert played == reference
        rows.append({"runner": "local", "workers": workers, "seconds": round(seconds, 2),
                     "games_per_s": round(games / seconds, 1)})
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            seconds, played = timed(MatchConfig(games=games, seed=11, duplicate=True, workers=workers,
                                                cluster=cluster.scheduler_address))
        assert played == reference, "the cluster played other games"
        rows.append({"runner": "dask LocalCluster", "workers": workers, "seconds": round(seconds, 2),
                     "games_per_s": round(games / seconds, 1)})
    for workers in (1, 2):
        local, cluster = (r for r in rows if r["workers"] == workers)
        cluster["overhead_ms_per_game"] = round(1000 * (cluster["seconds"] - local["seconds"]) / games, 2)
    result = {"match": "keats vs simple, duplicate deals, games to 100", "games": games, "same_games": True,
              "machine": f"{platform.machine()}, 2 cores", "date": time.strftime("%Y-%m-%d"), "rows": rows,
              "command": f"python experiments/cluster-overhead/measure.py {out} {games}"}
    with open(out, "w") as fh:
        json.dump(result, fh, indent=2)
    for r in rows:
        print(r)


if __name__ == "__main__":
    main()
