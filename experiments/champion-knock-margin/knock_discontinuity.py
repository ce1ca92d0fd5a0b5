"""What the champion's searched knock decisions were worth, on both sides of its knock rule.

At every knock decision the champion searches, it compares the mean value of knocking now with
that of playing on over the same sampled worlds, and knocks when the margin (knock now minus play
on, less its learned correction and ``knock_margin``) is above 0. Neighbouring decisions on either
side of that line are alike, so the points the hand then paid, by margin bin, show whether the
line is in the right place: if knocks just above it pay less than play-ons just below it, the
search overrates knocking against playing on by about the gap (a regression-discontinuity reading).

Plays games to 100 in this process against one bot. Each hand's points (ours minus theirs) are
given to every searched decision of that hand; play-on rows can be limited to each hand's first.

Usage: python experiments/champion-knock-margin/knock_discontinuity.py OPPONENT [--spec champion:...]
       --games N --seed S --json OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from statistics import mean
from typing import Any

from ginbots.arena.stats import mean_and_se
from ginbots.game.melds import min_deadwood
from ginbots.players.champion import ChampionPlayer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "champion-tilt"))
from knock_calibration import recorded_games  # noqa: E402  (the same command line and games)

#: Margin bins (knock now minus play on, points).
EDGES = (-99, -15, -8, -4, 0, 4, 8, 15, 99)


class RecordingChampion(ChampionPlayer):
    """The champion, recording each searched knock decision and the points its hand then paid."""

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.rows: list[dict[str, Any]] = getattr(self, "rows", [])
        self.this_hand: list[dict[str, Any]] = []
        self.decision: dict[str, Any] | None = None

    def knock(self):
        self.decision = None
        melds = super().knock()
        if self.decision is not None:
            self.decision["knocked"] = melds is not None
            self.this_hand.append(self.decision)
        return melds

    def _knock_values(self, hand: int):
        values = super()._knock_values(hand)
        self.decision = {"now": values[0], "on": values[1], "deadwood": min_deadwood(hand),
                         "stock": self.knowledge.stock_size, "correction": self.knock_correction()}
        return values

    def report_scores(self, scores: tuple[int, int]) -> None:
        ours = scores[self.seat] - self.last_scores[self.seat]
        theirs = scores[1 - self.seat] - self.last_scores[1 - self.seat]
        super().report_scores(scores)
        for i, row in enumerate(self.this_hand):
            self.rows.append({**row, "realised": ours - theirs, "first_of_hand": i == 0})
        self.this_hand = []


def bins(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per margin bin: decisions (knocks and each hand's first play-on), knocks, mean realised points."""
    out = []
    for lo, hi in zip(EDGES, EDGES[1:]):
        chosen = [r for r in rows if lo <= r["now"] - r["on"] < hi and (r["knocked"] or r["first_of_hand"])]
        if len(chosen) < 2:
            continue
        realised, se = mean_and_se([r["realised"] for r in chosen])
        out.append({"margin": [lo, hi], "decisions": len(chosen), "knocks": sum(r["knocked"] for r in chosen),
                    "realised": realised, "se": se, "now": mean(r["now"] for r in chosen),
                    "on": mean(r["on"] for r in chosen)})
    return out


def main(argv: list[str] | None = None) -> None:
    args, bot, wins = recorded_games(argv, __doc__.splitlines()[0], RecordingChampion, 200, 6000)
    table = bins(bot.rows)
    print(f"{args.spec} vs {args.opponent}: {wins} of {args.games} games, {len(bot.rows)} searched knock decisions")
    for b in table:
        lo, hi = b["margin"]
        print(f"  margin [{lo:+d}, {hi:+d}): {b['decisions']:4d} decisions, {b['knocks']:4d} knocks, "
              f"realised {b['realised']:+6.1f} +- {b['se']:.1f} (knock now {b['now']:+5.1f}, play on {b['on']:+5.1f})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"spec": args.spec, "opponent": args.opponent, "games": args.games, "seed": args.seed,
                       "wins": wins, "bins": table, "rows": bot.rows}, fh)


if __name__ == "__main__":
    main()
