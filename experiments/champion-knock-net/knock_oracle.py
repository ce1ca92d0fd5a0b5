"""What perfect knowledge of the opponent's hand is worth at the champion's searched decisions (a ceiling).

The champion with the opponent's true hand in every world of one kind of searched decision, paired
single hands against OPP (each deal played from both seats, the same deals for every variant):
``knock`` (both branches of the knock decision on true-hand worlds), ``knocknow`` (only the value of
knocking now; playing on keeps the sampled worlds), ``draw`` (the searched draws). Evaluation only:
the variant reads its opponent's hand, which no real seat can.

Usage: python experiments/champion-knock-net/knock_oracle.py OPP DEALS SEED VARIANTS [--json OUT]
(VARIANTS: slash-separated, such as none/knock/knocknow/draw; a variant already in OUT is not replayed)
"""

from __future__ import annotations

import argparse
import json
import os
from multiprocessing import Pool

from ginbots.arena.match import derive_seed
from ginbots.arena.stats import mean_and_se
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec
from ginbots.search.playouts import worlds_for

ONE_HAND = GameConfig(time_budget=None, max_hands_per_game=1)


class OracleChampion(ChampionPlayer):
    """The champion whose worlds hold the opponent's true hand at the decisions named in ``where``."""

    where: frozenset = frozenset()
    opponent = None

    def _true_worlds(self, count: int = 0):
        k = self.knowledge
        hands = [self.opponent.hand] * (count or self.params["worlds"])
        return worlds_for(hands, k.unknown, k.stock_size, self.rng, self.playout_code())

    def _knock_values(self, hand):
        if "knocknow" in self.where:  # knocking now on true worlds, playing on on sampled ones
            self.worlds = self._true_worlds(self.params["knock_worlds"])
            knock_now, _, melds, points = super()._knock_values(hand)
            self.worlds = self.sampled_worlds(self.params["knock_worlds"])
            _, play_on, _, _ = super()._knock_values(hand)
            return knock_now, play_on, melds, points
        if "knock" in self.where:
            self.worlds = self._true_worlds(self.params["knock_worlds"])
        return super()._knock_values(hand)

    def sampled_worlds(self, count: int = 0):
        if "draw" in self.where and self.drawing:
            return self._true_worlds(count)
        return super().sampled_worlds(count)

    def _search_draw(self, card, choice, throw, after):
        self.drawing = True
        try:
            return super()._search_draw(card, choice, throw, after)
        finally:
            self.drawing = False

    drawing = False


def play_deal(job: tuple[int, str, str, int]) -> float:
    """The variant's mean signed points over the deal's two seatings."""
    deal, variant, opponent, base_seed = job
    seed = derive_seed(base_seed, deal)
    margins = []
    for seat in (0, 1):
        ours = OracleChampion(seed=derive_seed(seed, 10 + seat))
        ours.where = frozenset(variant.split(",")) - {"none"}
        ours.opponent = theirs = parse_spec(opponent).make(seed=derive_seed(seed, 20 + seat))
        players = (ours, theirs) if seat == 0 else (theirs, ours)
        result = play_game(players, seed, config=ONE_HAND, first_starter=seat,
                           player_seeds=[derive_seed(seed, 1), derive_seed(seed, 2)])
        margins.append(result.scores[seat] - result.scores[1 - seat])
    return sum(margins) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent")
    parser.add_argument("deals", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("variants")
    parser.add_argument("--json")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    out = args.json or f"oracle_{args.opponent.replace(':', '_')}_{args.deals}_{args.seed}.json"
    saved = json.load(open(out)) if os.path.exists(out) else {}
    results = saved.get("points", {})
    with Pool(args.workers) as pool:
        for variant in args.variants.split("/"):
            if variant not in results:
                jobs = [(d, variant, args.opponent, args.seed) for d in range(args.deals)]
                results[variant] = pool.map(play_deal, jobs, chunksize=10)
                write(out, args, results)
    for variant, row in write(out, args, results).items():
        line = f"{variant:10s} {row['mean']:+.2f} +- {row['se']:.2f} points a hand ({args.deals} deals x 2)"
        if "minus_none" in row:
            line += f"; minus none {row['minus_none']['mean']:+.2f} +- {row['minus_none']['se']:.2f}"
        print(line)


def write(out: str, args: argparse.Namespace, results: dict[str, list[float]]) -> dict[str, dict]:
    """Save every variant's points a deal and a summary (mean and standard error, and paired with ``none``)."""
    summary = {}
    for variant, points in results.items():
        mean, se = mean_and_se(points)
        summary[variant] = {"mean": mean, "se": se}
        if "none" in results and variant != "none":
            mean, se = mean_and_se([a - b for a, b in zip(points, results["none"])])
            summary[variant]["minus_none"] = {"mean": mean, "se": se}
    with open(out, "w", encoding="utf-8") as fh:
        json.dump({"opponent": args.opponent, "deals": args.deals, "seed": args.seed, "summary": summary,
                   "points": results}, fh)
    return summary


if __name__ == "__main__":
    main()
