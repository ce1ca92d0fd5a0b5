"""How well each opponent-hand estimator describes an opponent, from the champion's seat of traced games.

Replays ``ginbots match ... --trace`` files (the champion in one seat) through the champion's own
knowledge tracker and, at each of the champion's discards, scores every named estimator against the
opponent's true hand at that moment:

- **log score**: the log-likelihood (nats) of the true hand over the cards the champion could not see,
  per-card chances kept in [1e-4, 1 - 1e-4] (``ginbots.estimators.metrics.revealed_log_score``);
  higher is better; ``uniform`` is the no-model baseline;
- **deadwood bias**: the mean deadwood of 100 hands sampled from the estimator minus the true hand's
  (what the champion's worlds start from before their tilt; positive: the worlds think the opponent
  further from knocking or gin than it is).

Evaluation only: the opponent's hand is read from the trace. Rows are the champion's discards, grouped by
the opponent's turns so far; the standard errors treat the rows as independent (rows of one hand are not,
so they are optimistic).

Usage: python experiments/champion-estimator/score_estimators.py TRACE [TRACE ...] --estimators a,b,c
       [--games N] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from ginbots.estimators import shared_estimator
from ginbots.estimators.metrics import revealed_log_score
from ginbots.arena.trace import read_traces
from ginbots.game.cards import parse_card, parse_cards
from ginbots.game.knowledge import Knowledge
from ginbots.game.melds import min_deadwood
from ginbots.game.melds_batch import deadwood_and_melded_batch

#: Opponent-turn ranges the rows are grouped by (document 001's early stages, then the long tail).
STAGES = ((0, 4), (4, 8), (8, 12), (12, 99))
SAMPLES = 100


def decision_rows(trace: Path, games: int):
    """(knowledge, the opponent's true hand) at each of the champion's discards in the first ``games``."""
    for number, game in enumerate(read_traces(trace)):
        if number >= games:
            return
        me = game["players"].index("champion")
        for hand in game["hands"]:
            yield from _hand_rows(hand, me)


def _hand_rows(hand: dict[str, Any], me: int):
    held = [parse_cards(dealt) for dealt in hand["dealt"]]
    knowledge = Knowledge(me, hand["starting_player"], held[me])
    took = [False, False]
    for event in hand["events"]:
        kind, seat = event["e"], event.get("p")
        if kind == "offer":
            card = parse_card(event["card"])
            took[seat] = event["take"]
            if seat == me:
                knowledge.offered(card)
                knowledge.answered(card, event["take"])
        elif kind == "draw":
            card = parse_card(event["card"])
            held[seat] |= 1 << card
            # The champion sees its own draws and the opponent's face-up takes, never its stock draws.
            knowledge.drew(seat, card if seat == me or took[seat] else None)
            took[seat] = False
        elif kind == "discard":
            card = parse_card(event["card"])
            if seat == me:
                yield knowledge, held[1 - me]
            held[seat] &= ~(1 << card)
            knowledge.discarded(seat, card)


def score(traces: list[Path], names: list[str], games: int) -> dict[str, Any]:
    estimators = {name: shared_estimator(name) for name in names}
    rng = np.random.default_rng(0)
    logs: dict[str, dict[int, list[float]]] = {n: defaultdict(list) for n in names}
    bias: dict[str, dict[int, list[float]]] = {n: defaultdict(list) for n in names}
    for trace in traces:
        for knowledge, truth in decision_rows(trace, games):
            stage = next(i for i, (lo, hi) in enumerate(STAGES) if lo <= knowledge.opp_turns < hi)
            true_deadwood = min_deadwood(truth)
            for name, estimator in estimators.items():
                logs[name][stage].append(revealed_log_score(estimator.estimate(knowledge), truth, knowledge.unknown))
                hands = estimator.sample_masks(knowledge, SAMPLES, rng).astype(np.uint64)
                bias[name][stage].append(float(deadwood_and_melded_batch(hands)[0].mean()) - true_deadwood)
    return {"traces": [str(t) for t in traces], "games_per_trace": games,
            "stages": [f"{lo}-{hi - 1}" if hi < 99 else f"{lo}+" for lo, hi in STAGES],
            "log_score": {n: _summary(logs[n]) for n in names},
            "deadwood_bias": {n: _summary(bias[n]) for n in names}}


def _summary(by_stage: dict[int, list[float]]) -> dict[str, Any]:
    every = [x for values in by_stage.values() for x in values]
    return {"all": _mean_se(every), "rows": len(every),
            "by_stage": [_mean_se(by_stage.get(i, [])) for i in range(len(STAGES))]}


def _mean_se(values: list[float]) -> list[float]:
    if len(values) < 2:
        return [float(np.mean(values)) if values else float("nan"), float("nan")]
    a = np.asarray(values)
    return [float(a.mean()), float(a.std(ddof=1) / np.sqrt(len(a)))]


def table(report: dict[str, Any]) -> str:
    games = report["games_per_trace"]
    out = [f"{', '.join(report['traces'])} ({'every game' if games >= 10**9 else f'first {games} games each'})"]
    for metric in ("log_score", "deadwood_bias"):
        out.append(f"{metric}: all rows | by opponent turns {' | '.join(report['stages'])}")
        for name, s in report[metric].items():
            stages = " | ".join(f"{m:7.2f}" for m, _ in s["by_stage"])
            out.append(f"  {name:16s} {s['all'][0]:7.2f} +- {s['all'][1]:.2f} ({s['rows']} rows) | {stages}")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", type=Path)
    parser.add_argument("--estimators", default="uniform,mlp8,mlp8-heuristic,mlp8-retuned,gbt,shankar-cnn,ensemble")
    parser.add_argument("--games", type=int, default=10**9)
    parser.add_argument("--json")
    args = parser.parse_args()
    report = score(args.traces, args.estimators.split(","), args.games)
    print(table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
