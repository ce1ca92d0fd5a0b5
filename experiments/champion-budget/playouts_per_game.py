"""Playouts and CPU seconds per game of the champion with no budget, to set ``game_playouts``.

Usage: python experiments/champion-budget/playouts_per_game.py OPPONENT GAMES SEED > rows.jsonl
       python experiments/champion-budget/playouts_per_game.py --summary rows.jsonl... > summary.json
Each game alternates seats; CPU time (process_time) of the champion's own thinking.
"""

from __future__ import annotations

import json
import sys

from ginbots.arena.stats import nearest_rank
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec


def play(opponent: str, games: int, seed: int) -> None:
    for game in range(games):
        champion = ChampionPlayer(seed=seed * 1000 + game, game_playouts=10 ** 8)
        other = parse_spec(opponent).make(seed=seed * 1000 + game + 500)
        seats = [champion, other] if game % 2 == 0 else [other, champion]
        play_game(seats, seed=seed * 7919 + game, config=GameConfig(time_budget=None))
        print(json.dumps({"opponent": opponent, "seed": seed, "game": game, "playouts": champion.playouts,
                          "cpu_s": round(champion.thought, 4)}), flush=True)


def summary(paths: list[str]) -> dict:
    rows = [json.loads(line) for path in paths for line in open(path) if line.startswith("{")]
    out = {}
    for opponent in sorted({r["opponent"] for r in rows}):
        mine = [r for r in rows if r["opponent"] == opponent]
        playouts = [r["playouts"] for r in mine]
        cpu = [r["cpu_s"] for r in mine]
        out[opponent] = {"games": len(mine), "playouts_median": nearest_rank(playouts, 0.5),
                         "playouts_max": max(playouts), "cpu_s_median": nearest_rank(cpu, 0.5),
                         "cpu_s_max": max(cpu), "ms_cpu_per_playout": round(1000 * sum(cpu) / sum(playouts), 3)}
    out["all"] = {"games": len(rows), "playouts_max": max(r["playouts"] for r in rows),
                  "ms_cpu_per_playout": round(1000 * sum(r["cpu_s"] for r in rows)
                                              / sum(r["playouts"] for r in rows), 3)}
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        print(json.dumps(summary(sys.argv[2:]), indent=2))
    else:
        play(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
