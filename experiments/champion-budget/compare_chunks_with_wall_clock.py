"""The champion with its work budget against the same chunks played with the wall-clock budget it replaced.

Each chunk of experiments/champion-budget/results/targets (``game_playouts``, seeds 1000 + i) is compared
with experiments/champion-worlds/results/champion_worlds (96 worlds, 6 s of wall clock a game, the same
seeds): same wins, hands and points mean the same games. Prints one line per chunk and the totals.

Usage: python experiments/champion-budget/compare_chunks_with_wall_clock.py
"""

from __future__ import annotations

import json
from pathlib import Path

NEW = Path("experiments/champion-budget/results/targets")
OLD = Path("experiments/champion-worlds/results/champion_worlds")


def key(data: dict) -> tuple:
    a = data["A"]
    return a["wins"], a["losses"], data["hands"], round(a["points_per_hand"], 6), data["hand_rates"]


def main() -> None:
    same = differ = 0
    for new in sorted(NEW.glob("champion__vs__*.json"), key=lambda p: (p.name.rsplit("__", 1)[0],
                                                                       int(p.stem.rsplit("__", 1)[1]))):
        opponent, chunk = new.stem.split("__vs__")[1].rsplit("__", 1)
        old = OLD / f"champion_worlds_96__vs__{opponent}__{chunk}.json"
        if not old.exists():
            print(f"{new.name}: no wall-clock chunk to compare")
            continue
        a, b = json.loads(new.read_text()), json.loads(old.read_text())
        equal = key(a) == key(b)
        same, differ = same + equal, differ + (not equal)
        print(f"{opponent} chunk {chunk}: {'same games' if equal else 'DIFFERENT'} "
              f"({a['A']['wins']}-{a['A']['losses']} vs {b['A']['wins']}-{b['A']['losses']}); "
              f"thinking {a['A']['think_s_per_game']:.2f} s vs {b['A']['think_s_per_game']:.2f} s a game")
    print(f"{same} chunk(s) the same, {differ} different")


if __name__ == "__main__":
    main()
