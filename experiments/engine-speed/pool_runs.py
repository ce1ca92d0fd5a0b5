"""Pool the rounds of several java_vs_python.py runs into one record (medians over every round).

Each run launches its own JVMs, whose JIT outcome sets their speed for the whole run, so the pooled
median over many JVMs is the steadier figure.

Usage: python experiments/engine-speed/pool_runs.py OUT.json RUN.json [RUN.json ...]
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path


def main() -> None:
    out, runs = Path(sys.argv[1]), [Path(p) for p in sys.argv[2:]]
    records = [json.loads(p.read_text()) for p in runs]
    rows = [row for record in records for row in record["rounds"]]
    per_jvm = [statistics.median(r["java_hands_per_s"] for r in record["rounds"] if r.get("jvm") == j)
               for record in records for j in sorted({r.get("jvm", 1) for r in record["rounds"]})]
    summary = {"command": " ".join(["python", "experiments/engine-speed/pool_runs.py", *sys.argv[1:]]),
               "runs": [p.name for p in runs], "dates": sorted({r["date"] for r in records}),
               "jvms": len(per_jvm), "rounds": len(rows),
               "java_hands_per_s_by_jvm": [round(v) for v in per_jvm],
               "java_hands_per_s_median": statistics.median(r["java_hands_per_s"] for r in rows),
               "ginbots_hands_per_s_median": statistics.median(r["ginbots_hands_per_s"] for r in rows),
               "ratio_median": statistics.median(r["ratio"] for r in rows),
               "ratio_min": min(r["ratio"] for r in rows), "ratio_max": max(r["ratio"] for r in rows)}
    out.write_text(json.dumps(summary, indent=2) + "\n")
    print(f"{summary['jvms']} JVMs, {summary['rounds']} rounds: median {summary['ratio_median']:.2f}x "
          f"({summary['ratio_min']:.2f}-{summary['ratio_max']:.2f}x)")


if __name__ == "__main__":
    main()
