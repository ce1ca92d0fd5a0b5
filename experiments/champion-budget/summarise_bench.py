"""Medians over repeated runs of ``ginbots bench champion --json`` (issue 37, part 2).

One run's CPU figures move by a tenth or more with the load of this shared machine, the pure-Python
path's most; the median of a few runs, each file kept, is the figure shown.

Usage: python experiments/champion-budget/summarise_bench.py RUN.json [RUN.json ...] --json OUT
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--json", required=True)
    args = parser.parse_args(argv)
    runs = [json.loads(path.read_text()) for path in args.runs]
    summary = {
        "runs": [str(path) for path in args.runs],
        "games_per_run": runs[0]["games"],
        "python_cpu_s_per_game": statistics.median(r["python"]["cpu_s_per_game"] for r in runs),
        "compiled_cpu_s_per_game": statistics.median(r["compiled"]["cpu_s_per_game"] for r in runs),
        "compiled_search_cpu_s_per_game": statistics.median(r["compiled"]["search_cpu_s_per_game"] for r in runs),
        "speedup": statistics.median(r["speedup"] for r in runs),
        "speedup_range": [min(r["speedup"] for r in runs), max(r["speedup"] for r in runs)],
        "same_games": all(r["same_games"] for r in runs),
    }
    Path(args.json).write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
