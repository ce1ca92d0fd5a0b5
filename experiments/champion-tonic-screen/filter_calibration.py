"""How well the opponent filter's chances for each unseen card match the opponent's true hand.

A watcher plays Simple's moves and feeds the bots' opponent filter (``ginbots.players.filtered``,
``ginbots.search.opponent_model``) the opponent's actions; after each opponent discard it reads the filter's chance that the opponent holds
each card it may hold and scores it against the truth (read from the opponent, in process: a probe
only) with the mean log score a card (clipped at 1e-4). Beside it, the same score for the plain share
(every unseen card given the fraction of them the opponent holds) and for blends of the two, a x filter +
(1 - a) x plain share: a blend scoring better than the filter itself means its chances are too sharp.

Opponents: Simple (minimum-deadwood discards) and a near-minimum thrower (Simple, except that a discard
leaving g points more than the least deadwood is 0.5 ** g times as likely). Filters: the other model
uninformative or near-minimum (``filter_near_ratio``), 2 (the default) or 8 Metropolis sweeps.

Usage: python experiments/champion-tonic-screen/filter_calibration.py [--games 8] [--particles 1000]
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np

from ginbots.game.engine import GameConfig, play_game
from ginbots.game.melds import discard_deadwoods, min_deadwood
from ginbots.players.baselines import SimplePlayer, TrackingSimplePlayer
from ginbots.players.filtered import FILTER_HYPERPARAMETERS, FilteringPlayer

BLENDS = (0.0, 0.5, 0.75, 1.0)


class NearThrower(SimplePlayer):
    """Simple, except that a discard leaving g points more than the least deadwood is 0.5 ** g times as likely."""

    def discard(self) -> int:
        banned = self.drawn if self.drawn == self.face_up else -1
        options = [(c, d) for c, d in discard_deadwoods(self.hand) if c != banned]
        best = min(d for _, d in options)
        choice = self.rng.choices([c for c, _ in options], [0.5 ** (d - best) for _, d in options])[0]
        self._kept = (self.hand ^ 1 << choice, min_deadwood(self.hand ^ 1 << choice))
        return choice


class Watcher(FilteringPlayer, TrackingSimplePlayer):
    """Simple's play with the bots' opponent filter fed from the callbacks, scored after each opponent discard."""

    name = "watcher"
    hyperparameters = FILTER_HYPERPARAMETERS

    def __init__(self, opponent: SimplePlayer, seed: int, **params: float) -> None:
        super().__init__(seed=seed, **params)
        self.opponent = opponent
        self.scores: list[list[float]] = []

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        if seat == self.seat:
            return
        k = self.knowledge
        holds = self.filter_holds()
        hidden = self.opponent.hand & ~(1 << card) & ~k.opp_known  # its own report may not have run yet
        cards = [c for c in range(52) if k.unknown >> c & 1 and not k.opp_known >> c & 1]
        held = np.array([hidden >> c & 1 for c in cards], dtype=bool)
        share = held.sum() / len(cards)
        row = []
        for a in BLENDS:
            p = np.clip(a * holds[cards] + (1 - a) * share, 1e-4, 1 - 1e-4)
            row.append(float(np.mean(np.where(held, np.log(p), np.log(1 - p)))))
        self.scores.append(row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games of three hands per setting")
    parser.add_argument("--particles", type=int, default=1000)
    args = parser.parse_args()
    print(f"mean log score a card, {args.games} games of 3 hands each, {args.particles} hands; a = the filter's "
          "share of the blend (0: the plain share alone)")
    for (name, cls), sweeps, ratio in itertools.product((("simple", SimplePlayer), ("near-thrower", NearThrower)),
                                                       (2, 8), (0.0, 0.5)):
        scores: list[list[float]] = []
        for seed in range(args.games):
            opponent = cls(seed=seed + 20)
            watcher = Watcher(opponent, seed, filter_particles=args.particles, filter_sweeps=sweeps,
                              filter_near_ratio=ratio)
            play_game([watcher, opponent], seed=seed, config=GameConfig(time_budget=None, max_hands_per_game=3))
            scores += watcher.scores
        means = np.mean(scores, axis=0)
        print(f"{name:12s} sweeps {sweeps} near_ratio {ratio}: {len(scores)} readings; "
              + "  ".join(f"a={a}: {m:.4f}" for a, m in zip(BLENDS, means)))


if __name__ == "__main__":
    main()
