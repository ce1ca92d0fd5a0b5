"""The champion's searched knocks by the deadwood it knocked with: how far each band overrated knocking,
and how many decisions the learned correction (``knock_learning``) turned from a knock to a play-on.

Knock learning marks every knock down by one mean error. If the error grows with the deadwood we knock
with (an undercut is likelier the more we keep), that mean holds back low knocks and lets high ones
through; this measures whether it does. Games to 100 in this process, one champion for every game (its
memory carries as in a match), the seats alternating.

Usage: python experiments/champion-knock-margin/knock_errors_by_deadwood.py OPPONENT [--spec champion:...]
       --games N --seed S --json OUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "champion-tilt"))
from knock_calibration import CalibratedChampion, recorded_games  # noqa: E402 (an experiment beside this one)

from ginbots.arena.stats import mean_and_se  # noqa: E402

BANDS = ((1, 3), (4, 6), (7, 10))


class DecisionRecorder(CalibratedChampion):
    """The knock calibration's champion, also keeping every searched knock decision: our deadwood, the
    two predicted values, the learned correction and the margin at that moment."""

    def _knock_values(self, hand: int):
        values = super()._knock_values(hand)
        deadwood = self.searched["our_deadwood"]  # the calibration's record of this decision
        self.__dict__.setdefault("decisions", []).append(
            {"deadwood": deadwood, "knock_now": values[0], "play_on": values[1],
             "correction": self.knock_correction(deadwood), "margin": self.knock_margin()})
        return values


def band_rows(knocks: list[dict], decisions: list[dict]) -> list[dict]:
    """Per deadwood band: the knocks taken and their mean predicted and realised points, and the
    decisions, those knocked and those declined only because of the correction."""
    rows = []
    for low, high in BANDS:
        taken = [k for k in knocks if low <= k["our_deadwood"] <= high]
        asked = [d for d in decisions if low <= d["deadwood"] <= high]
        raw = [d for d in asked if d["knock_now"] - d["margin"] > d["play_on"]]
        corrected = [d for d in raw if d["knock_now"] - d["correction"] - d["margin"] > d["play_on"]]
        realised = mean_and_se([k["realised"] for k in taken]) if len(taken) > 1 else (float("nan"), float("nan"))
        predicted = mean(k["predicted"] for k in taken) if taken else float("nan")
        rows.append({"deadwood": f"{low}-{high}", "knocks": len(taken), "predicted": predicted,
                     "realised": realised[0], "realised_se": realised[1], "error": predicted - realised[0],
                     "lost": sum(k["realised"] < 0 for k in taken) / max(len(taken), 1),
                     "decisions": len(asked), "knocked": len(corrected),
                     "declined_by_correction": len(raw) - len(corrected),
                     "mean_correction": mean(d["correction"] for d in asked) if asked else float("nan")})
    return rows


def main(argv: list[str] | None = None) -> None:
    args, bot, wins = recorded_games(argv, __doc__.splitlines()[0], DecisionRecorder, 300, 5000)
    rows = band_rows(bot.records, getattr(bot, "decisions", []))
    print(f"{args.spec} vs {args.opponent}: {args.games} games, {wins} won")
    print("deadwood  knocks  predicted  realised      error  lost  decisions  knocked  declined by the correction  mean correction")
    for r in rows:
        print(f"{r['deadwood']:>8}  {r['knocks']:6d}  {r['predicted']:+9.1f}  {r['realised']:+6.1f} +- {r['realised_se']:3.1f}  "
              f"{r['error']:+5.1f}  {r['lost']:4.2f}  {r['decisions']:9d}  {r['knocked']:7d}  "
              f"{r['declined_by_correction']:26d}  {r['mean_correction']:15.1f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"spec": args.spec, "opponent": args.opponent, "games": args.games,
                                               "seed": args.seed, "wins": wins, "bands": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
