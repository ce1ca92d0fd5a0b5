"""How far apart the heuristic's own discard values lie, beside the afterstate term's, under two sets of
hand-building weights: why the afterstate weight that suits one set need not suit the other.

Usage: python experiments/champion-afterstate/value_spread.py GAMES SEED [SPEC ...] > spread.json
At every discard of the champion with two or more candidates (against simple, seats alternating), the
heuristic's values of all candidates are computed unpruned and without added terms, beside the afterstate
network's points for the same candidates; per spec, the medians over discards of (best - second best)
heuristic value and of the afterstate points' range (max - min), in the heuristic's units and in points.
"""

from __future__ import annotations

import json
import sys
from statistics import median

from ginbots.game.engine import GameConfig, play_game
from ginbots.players import champion as champion_module
from ginbots.players.heuristic import HeuristicUtilityPlayer
from ginbots.players.registry import parse_spec


def spread(spec: str, games: int, seed: int) -> dict:
    gaps, ranges = [], []
    original = HeuristicUtilityPlayer.discard_values
    original_afterstate = champion_module.afterstate_values

    def recording(self, candidates, opponents, holds=None, prune=True, terms=()):
        if len(candidates) >= 2 and terms:
            plain = sorted(original(self, candidates, opponents, holds, prune=False).values(), reverse=True)
            gaps.append(plain[0] - plain[1])
        return original(self, candidates, opponents, holds, prune, terms)

    def afterstate(knowledge, candidates, holds, suit_orders=1):
        points = original_afterstate(knowledge, candidates, holds, suit_orders)
        ranges.append(float(max(points) - min(points)))
        return points

    HeuristicUtilityPlayer.discard_values = recording
    champion_module.afterstate_values = afterstate
    try:
        for game in range(games):
            bot = parse_spec(spec).make(seed=seed * 1000 + game)
            other = parse_spec("simple").make(seed=seed * 1000 + game + 500)
            seats = [bot, other] if game % 2 == 0 else [other, bot]
            play_game(seats, seed=seed * 7919 + game, config=GameConfig(time_budget=None))
    finally:
        HeuristicUtilityPlayer.discard_values = original
        champion_module.afterstate_values = original_afterstate
    if not gaps or not ranges:
        raise SystemExit(f"{spec}: no discard read the afterstate network; give a champion spec with afterstate_weight > 0")
    return {"spec": spec, "games": games, "seed": seed, "discards": len(gaps),
            "heuristic_gap_median": round(median(gaps), 3), "afterstate_range_median": round(median(ranges), 3)}


if __name__ == "__main__":
    games, seed = int(sys.argv[1]), int(sys.argv[2])
    specs = sys.argv[3:] or ["champion"]
    print(json.dumps([spread(s, games, seed) for s in specs], indent=1))
