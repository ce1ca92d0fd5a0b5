"""How well the champion's sampled worlds describe the opponent at its searched knocks.

Plays games to 100 in this process against a bundle bot and, at every knock the champion searched and
took, compares what its worlds said with what the hand showed: the mean deadwood of the worlds'
opponent hands against the opponent's true deadwood (revealed at the end of the hand, the same hand
it held at our knock), and the predicted points of knocking against the points the hand paid.

Usage: python experiments/champion-tilt/knock_calibration.py OPPONENT [--spec champion:...] --games N --seed S --json OUT
       [--one-opponent]
"""

from __future__ import annotations

import argparse
import json
from statistics import mean
from typing import Any

from ginbots.arena.stats import mean_and_se
from ginbots.game.engine import play_game
from ginbots.game.melds import min_deadwood
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec


class CalibratedChampion(ChampionPlayer):
    """The champion, recording each searched knock it took and what the hand then showed."""

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.records: list[dict[str, Any]] = getattr(self, "records", [])
        self.this_hand: dict[str, Any] | None = None

    def knock(self):
        self.searched = None
        melds = super().knock()
        if melds is not None and self.searched is not None:
            self.this_hand = self.searched
        return melds

    def _knock_values(self, hand: int):
        values = super()._knock_values(hand)
        self.searched = {"our_deadwood": min_deadwood(hand), "predicted": values[3],
                         "world_deadwood": mean(min_deadwood(w[0]) for w in self.worlds)}
        return values

    def report_final_hand(self, seat: int, hand: int) -> None:
        super().report_final_hand(seat, hand)
        if seat != self.seat and self.this_hand is not None:
            self.this_hand["true_deadwood"] = min_deadwood(hand)

    def report_scores(self, scores: tuple[int, int]) -> None:
        ours = scores[self.seat] - self.last_scores[self.seat]
        theirs = scores[1 - self.seat] - self.last_scores[1 - self.seat]
        super().report_scores(scores)
        if self.this_hand is not None and "true_deadwood" in self.this_hand:
            self.records.append({**self.this_hand, "realised": ours - theirs})
        self.this_hand = None


def play_against(bot: ChampionPlayer, opponent: str, games: int, seed: int, one_opponent: bool = False) -> int:
    """Games to 100 in this process, the seats alternating; the champion's wins. ``one_opponent``: one
    opponent object for every game (as a runner's match keeps it), closed at the end; needed for an
    opponent that lives in its own process (a Java entry), which a fresh object per game would start anew."""
    wins = 0
    kept = parse_spec(opponent).make(seed=seed) if one_opponent else None
    try:
        for g in range(games):
            other = kept or parse_spec(opponent).make(seed=seed + g)
            seats = (bot, other) if g % 2 == 0 else (other, bot)
            result = play_game(seats, seed + g, player_seeds=[seed + g, seed + g + 7])
            wins += result.winner == seats.index(bot)
    finally:
        if kept is not None and hasattr(kept, "close"):
            kept.close()
    return wins


def recorded_games(argv: list[str] | None, description: str, recorder: type[ChampionPlayer], games: int,
                   seed: int) -> tuple[argparse.Namespace, Any, int]:
    """The command line ``OPPONENT [--spec champion:...] --games N --seed S --json OUT`` played out: its
    arguments, the ``recorder`` (a recording champion) after the games, and the champion's wins."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("opponent")
    parser.add_argument("--spec", default="champion")
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--json")
    parser.add_argument("--one-opponent", action="store_true",
                        help="one opponent object for every game (an opponent in its own process, e.g. java-tonic)")
    args = parser.parse_args(argv)
    spec = parse_spec(args.spec)
    if spec.name != "champion":
        parser.error("--spec must be a champion spec")
    bot = recorder(seed=args.seed, **spec.params)
    bot.prepare()
    return args, bot, play_against(bot, args.opponent, args.games, args.seed, args.one_opponent)


def main(argv: list[str] | None = None) -> None:
    args, bot, wins = recorded_games(argv, __doc__.splitlines()[0], CalibratedChampion, 300, 5000)
    rows = bot.records
    summary = {"spec": args.spec, "opponent": args.opponent, "games": args.games, "seed": args.seed, "wins": wins,
               "knocks": len(rows)}
    for key in ("world_deadwood", "true_deadwood", "predicted", "realised"):
        summary[key] = dict(zip(("mean", "se"), mean_and_se([r[key] for r in rows])))
    print(f"{args.spec} vs {args.opponent}: {len(rows)} searched knocks in {args.games} games; opponent deadwood "
          f"worlds {summary['world_deadwood']['mean']:.1f}, true {summary['true_deadwood']['mean']:.1f}; "
          f"knock points predicted {summary['predicted']['mean']:+.1f}, realised {summary['realised']['mean']:+.1f} "
          f"+- {summary['realised']['se']:.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=1)


if __name__ == "__main__":
    main()
