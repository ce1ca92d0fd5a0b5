"""Seconds to start an isolated (sandboxed) champion, with and without the copy of the kernel cache.

The bridge process prepares the champion (loads its networks, compiles or loads its kernels) before it
says it is ready, so the time to the ready message is the start a match pays for each fresh player.
Without the copy (``ginbots.connect.sandbox.copy_kernel_cache`` switched off here, in the runner), numba
cannot use the package's read-only cache inside the sandbox and compiles every kernel again.

Usage: python experiments/champion-bridge/isolated_start.py [REPEATS] --json OUT
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import time
from pathlib import Path

from ginbots.connect import sandbox
from ginbots.connect.host import make_player, parse_checked


def start_seconds() -> float:
    spec = dataclasses.replace(parse_checked("champion"), isolate=True)
    start = time.perf_counter()
    player = make_player(spec, seed=1)
    took = time.perf_counter() - start
    player.close()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", type=int, nargs="?", default=3)
    parser.add_argument("--json", required=True)
    args = parser.parse_args()
    with_copy = [start_seconds() for _ in range(args.repeats)]
    real_copy = sandbox.copy_kernel_cache
    sandbox.copy_kernel_cache = lambda scratch: None
    try:
        without_copy = [start_seconds() for _ in range(args.repeats)]
    finally:
        sandbox.copy_kernel_cache = real_copy
    out = {"command": f"python experiments/champion-bridge/isolated_start.py {args.repeats} --json {args.json}",
           "degraded": sandbox.degraded_reason(), "with_copy_s": with_copy, "without_copy_s": without_copy,
           "with_copy_median_s": statistics.median(with_copy), "without_copy_median_s": statistics.median(without_copy)}
    Path(args.json).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
