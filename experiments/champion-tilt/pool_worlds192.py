"""192 worlds against the default, paired by chunk over every target chunk both were played on.

Chunks 1-40 (`simple`) and 1-8 (`simple:knock_at=0`): 192 worlds in ``results/worlds_games``, the default in
``results/tilt_learning_games``; the fresh chunks 41-60 and 9-16: both in ``results/worlds_fresh_games``.
Prints, per opponent, the chunks, both win rates and the mean paired difference (points of wins) with its
standard error over chunks. Usage: python experiments/champion-tilt/pool_worlds192.py > results/compare_worlds_192_all_with_default.txt
"""

from __future__ import annotations

import json
from pathlib import Path
from statistics import mean, stdev

RESULTS = Path(__file__).resolve().parent / "results"
#: (opponent's file name, first chunks' range, fresh chunks' range)
OPPONENTS = (("simple", range(1, 41), range(41, 61)), ("simple_knock_at_0", range(1, 9), range(9, 17)))


def record(path: Path) -> tuple[int, int]:
    data = json.loads(path.read_text())
    return data["A"]["wins"], data["games"]


def main() -> None:
    for opponent, first, fresh in OPPONENTS:
        pairs = [(RESULTS / f"worlds_games/champion_worlds_192__vs__{opponent}__{i}.json",
                  RESULTS / f"tilt_learning_games/champion_tilt_learning_2__vs__{opponent}__{i}.json") for i in first]
        pairs += [(RESULTS / f"worlds_fresh_games/champion_worlds_192__vs__{opponent}__{i}.json",
                   RESULTS / f"worlds_fresh_games/champion__vs__{opponent}__{i}.json") for i in fresh]
        a = [record(p) for p, _ in pairs]
        b = [record(q) for _, q in pairs]
        diffs = [100 * (wa / ga - wb / gb) for (wa, ga), (wb, gb) in zip(a, b)]
        games = sum(g for _, g in a)
        print(f"{opponent:24s} chunks {first[0]}-{fresh[-1]} ({len(pairs)}): A {100 * sum(w for w, _ in a) / games:.1f}% "
              f"({games:,} games)  B {100 * sum(w for w, _ in b) / games:.1f}%  A-B {mean(diffs):+.1f} +- "
              f"{stdev(diffs) / len(diffs) ** 0.5:.1f} points")


if __name__ == "__main__":
    main()
