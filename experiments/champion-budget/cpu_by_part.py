"""Where the champion's thinking goes: its CPU a game split by part, on the compiled path (issue 37, part 2).

Plays the games of ``ginbots bench champion`` (against Simple, seed 0) and meters, besides every callback
of the champion, the outermost call of each part below in process CPU time (a part called inside
another part counts toward the outer one). "other" is the rest: Python between the parts.

Usage: python experiments/champion-budget/cpu_by_part.py [GAMES] [--json OUT]
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from pathlib import Path
from typing import Any

from ginbots.arena.bench import CpuMetered
from ginbots.estimators import nets
from ginbots.game.engine import GameConfig, play_game
from ginbots.players import champion as champion_module
from ginbots.players import heuristic
from ginbots.players.baselines import SimplePlayer
from ginbots.search import opponent_model, playouts

SPENT: collections.Counter = collections.Counter()
_DEPTH = [0]


def _meter(owner: Any, name: str, part: str) -> None:
    inner = getattr(owner, name)

    def metered(*args: Any, **kwargs: Any) -> Any:
        if _DEPTH[0]:
            return inner(*args, **kwargs)
        _DEPTH[0] += 1
        start = time.process_time()
        try:
            return inner(*args, **kwargs)
        finally:
            SPENT[part] += time.process_time() - start
            _DEPTH[0] -= 1
    setattr(owner, name, metered)


PARTS = [
    (opponent_model.OpponentFilter, "rejuvenate", "opponent filter: Metropolis moves"),
    *((opponent_model.OpponentFilter, n, "opponent filter: weighing actions")
      for n in ("declined", "took", "drew_stock", "discarded", "start")),
    (nets.NetEstimator, "_row", "estimator: network and normalising"),
    (nets.NetEstimator, "sample_masks", "estimator: sampling hands"),
    (champion_module, "worlds_for", "search: stock orders"),
    (playouts.WorldPlayouts, "_compiled", "search: playouts"),
    (champion_module.ChampionPlayer, "_knock_values", "search: knock scoring"),
    (heuristic.HeuristicUtilityPlayer, "opponent_stock_utilities", "heuristic: opponent's stock draws"),
    (heuristic.HeuristicUtilityPlayer, "opponent_gain", "heuristic: opponent's gain"),
    (heuristic.HeuristicUtilityPlayer, "hand_utility", "heuristic: own hand utility"),
]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=10)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    for owner, name, part in PARTS:
        _meter(owner, name, part)
    total = 0.0
    for game in range(args.games):
        champion = champion_module.ChampionPlayer(seed=game, playouts="compiled")
        champion.prepare()
        metered = CpuMetered(champion)
        play_game([metered, SimplePlayer(seed=100 + game)], seed=game, config=GameConfig(time_budget=None))
        total += metered.cpu
    per_game = {part: spent / args.games for part, spent in SPENT.most_common()}
    per_game["other"] = total / args.games - sum(per_game.values())
    for part, spent in per_game.items():
        print(f"{part:40s} {spent * 1e3:6.1f} ms a game  {100 * spent * args.games / total:4.1f}%")
    print(f"{'all callbacks':40s} {total / args.games * 1e3:6.1f} ms a game")
    if args.json:
        out = {"command": "python experiments/champion-budget/cpu_by_part.py " + " ".join(argv or []),
               "date": time.strftime("%Y-%m-%d"), "games": args.games, "cpu_s_per_game": total / args.games,
               "parts_s_per_game": per_game,
               "parts_share": {part: spent * args.games / total for part, spent in per_game.items()}}
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
