"""How often the champion trusts the opponent filter's hands: one remembering player, N games against OPPONENT
(game g at seed g, seats alternating), counting the discards at which ``trusts_filter()`` holds.

Usage: python experiments/champion-filter-trust/trust_count.py OPPONENT N MODE   (MODE: filter_trust_when, e.g. rho)
"""

from __future__ import annotations

import sys

from ginbots.game.engine import GameConfig, play_game
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec


def main() -> None:
    opponent, games, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    champion = ChampionPlayer(seed=1, opponent_filter=True, filter_trust_when=mode)
    champion.prepare()
    counts = {"discards": 0, "trusted": 0}
    discard = champion.discard

    def counted() -> int:
        counts["discards"] += 1
        counts["trusted"] += champion.trusts_filter()
        return discard()

    champion.discard = counted
    for game in range(games):
        other = parse_spec(opponent).make(seed=100 + game)
        seats = [champion, other] if game % 2 == 0 else [other, champion]
        play_game(seats, seed=game, config=GameConfig(time_budget=None))
    print(f"{opponent} filter_trust_when={mode}: trusted at {counts['trusted']} of {counts['discards']} discards "
          f"({games} games)")


if __name__ == "__main__":
    main()
