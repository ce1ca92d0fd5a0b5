"""How well each opponent-hand estimator describes an opponent, from one seat of traced games.

Replays ``ginbots match ... --trace`` files (the champion, or the player ``--seat`` names, in one seat)
through the bots' knowledge tracker and, at each of that seat's discards, scores every named estimator
against the opponent's true hand at that moment:

- **log score**: the log-likelihood (nats) of the true hand over the cards the champion could not see,
  per-card chances kept in [1e-4, 1 - 1e-4] (``ginbots.estimators.metrics.revealed_log_score``);
  higher is better; ``uniform`` is the no-model baseline;
- **deadwood bias**: the mean deadwood of 100 hands sampled from the estimator minus the true hand's
  (what the champion's worlds start from before their tilt; positive: the worlds think the opponent
  further from knocking or gin than it is); a filter's, 100 of its hands drawn by weight once it has
  started (the draws use its own random stream, so a filter scored so is not move for move the one in play).

Besides the estimators, ``filter`` and ``filter:sweeps=S,near=R,particles=N`` score the bots' opponent
filter (``ginbots.players.filtered``: Metropolis sweeps, the other model's near-minimum ratio, hands
carried; by default 2, 0 and 1000, the champion's until 2026-12-08, which the results here name ``filter``;
the champion has run 8 sweeps since), fed the seat's view of every event as in play (its
policy weight rho carried from hand to hand within a game), and ``blend:A:NAME`` scores
A x the filter named first + (1 - A) x the estimator NAME.

Evaluation only: the opponent's hand is read from the trace. Rows are the seat's discards, grouped by
the opponent's turns so far; the standard errors treat the rows as independent (rows of one hand are not,
so they are optimistic).

Usage: python experiments/champion-estimator/score_estimators.py TRACE [TRACE ...] --estimators a,b,c
       [--games N] [--json OUT] [--seat NAME]   (names separated by ';' when a filter names options)
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
from ginbots.players.baselines import TrackingSimplePlayer
from ginbots.players.champion_hyperparameters import CHAMPION_HYPERPARAMETERS
from ginbots.players.filtered import FILTER_HYPERPARAMETERS, FilteringPlayer

#: Opponent-turn ranges the rows are grouped by (document 001's early stages, then the long tail).
STAGES = ((0, 4), (4, 8), (8, 12), (12, 99))
SAMPLES = 100
#: The champion's ``filter_trust``: it reads the filter's hands once rho reaches this.
TRUST = next(hp.default for hp in CHAMPION_HYPERPARAMETERS if hp.name == "filter_trust")


class FilterReplayer(FilteringPlayer, TrackingSimplePlayer):
    """The bots' opponent filter fed a traced seat's view; it answers offers as the trace did."""

    name = "filter-replayer"
    hyperparameters = FILTER_HYPERPARAMETERS

    def __init__(self, spec: str, seed: int) -> None:
        options = dict(kv.split("=") for kv in spec.partition(":")[2].split(",") if kv)
        super().__init__(seed=seed, filter_sweeps=int(options.get("sweeps", 2)),
                         filter_near_ratio=float(options.get("near", 0.0)),
                         filter_particles=int(options.get("particles", 1000)))
        self.answer = False

    def wants_face_up(self, card: int) -> bool:
        return self.answer


def decision_rows(trace: Path, games: int, seat_name: str = "champion", filters: tuple[FilterReplayer, ...] = ()):
    """(knowledge, the opponent's true hand) at each of the seat's discards in the first ``games``;
    the ``filters`` are fed the same view and stand at the same moment at each row."""
    for number, game in enumerate(read_traces(trace)):
        if number >= games:
            return
        me = game["players"].index(seat_name)
        for replayer in filters:
            replayer.new_game(number)
        for hand in game["hands"]:
            yield from _hand_rows(hand, me, filters)


def _hand_rows(hand: dict[str, Any], me: int, filters: tuple[FilterReplayer, ...] = ()):
    held = [parse_cards(dealt) for dealt in hand["dealt"]]
    knowledge = Knowledge(me, hand["starting_player"], held[me])
    for replayer in filters:
        replayer.start_hand(me, hand["starting_player"], held[me])
    took = [False, False]
    for event in hand["events"]:
        kind, seat = event["e"], event.get("p")
        if kind == "offer":
            card = parse_card(event["card"])
            took[seat] = event["take"]
            if seat == me:
                knowledge.offered(card)
                knowledge.answered(card, event["take"])
                for replayer in filters:
                    replayer.answer = event["take"]
                    replayer.will_draw_face_up(card)
        elif kind == "draw":
            card = parse_card(event["card"])
            held[seat] |= 1 << card
            # The seat sees its own draws and the opponent's face-up takes, never its stock draws.
            seen = card if seat == me or took[seat] else None
            knowledge.drew(seat, seen)
            for replayer in filters:
                replayer.report_draw(seat, seen)
            took[seat] = False
        elif kind == "discard":
            card = parse_card(event["card"])
            if seat == me:
                yield knowledge, held[1 - me]
            held[seat] &= ~(1 << card)
            knowledge.discarded(seat, card)
            for replayer in filters:
                replayer.report_discard(seat, card)


def score(traces: list[Path], names: list[str], games: int, seat_name: str = "champion") -> dict[str, Any]:
    filter_specs = [n for n in names if n.startswith("filter")]
    estimators = {name: shared_estimator(name) for name in names
                  if not name.startswith(("filter", "blend:"))}
    blends = {name: (float(name.split(":")[1]), name.split(":", 2)[2]) for name in names if name.startswith("blend:")}
    for _, base in blends.values():
        estimators.setdefault(base, shared_estimator(base))
    if blends and not filter_specs:
        raise SystemExit("blend:A:NAME needs a filter named among the models")
    plain_share = shared_estimator("uniform")
    rng = np.random.default_rng(0)
    logs: dict[str, dict[int, list[float]]] = {n: defaultdict(list) for n in names}
    bias: dict[str, dict[int, list[float]]] = {n: defaultdict(list) for n in names}
    rhos: dict[str, list[float]] = {n: [] for n in filter_specs}
    # Rows split by whether the first filter's rho had reached the champion's filter_trust (TRUST): where it
    # reads the filter's hands, and where the estimator's.
    by_trust: dict[str, dict[bool, list[float]]] = {n: defaultdict(list) for n in names}
    for trace in traces:
        filters = tuple(FilterReplayer(spec, seed=0) for spec in filter_specs)
        for knowledge, truth in decision_rows(trace, games, seat_name, filters):
            stage = next(i for i, (lo, hi) in enumerate(STAGES) if lo <= knowledge.opp_turns < hi)
            true_deadwood = min_deadwood(truth)
            chances = {name: est.estimate(knowledge) for name, est in estimators.items()}
            for spec, replayer in zip(filter_specs, filters):
                if replayer.filter.started:
                    chances[spec] = replayer.filter_holds()
                    rhos[spec].append(replayer.filter.rho)
                    bias[spec][stage].append(_deadwood_gap(replayer.filter_sample(SAMPLES), true_deadwood))
                else:  # before the seat's first draw the filter has seen nothing: the plain share
                    chances[spec] = plain_share.estimate(knowledge)
            for name, (share, base) in blends.items():
                chances[name] = share * chances[filter_specs[0]] + (1 - share) * chances[base]
            trusted = bool(filters) and filters[0].filter.started and filters[0].filter.rho >= TRUST
            for name in names:
                logs[name][stage].append(revealed_log_score(chances[name], truth, knowledge.unknown))
                by_trust[name][trusted].append(logs[name][stage][-1])
                if name in estimators:
                    hands = estimators[name].sample_masks(knowledge, SAMPLES, rng)
                    bias[name][stage].append(_deadwood_gap(hands, true_deadwood))
    return {"traces": [str(t) for t in traces], "games_per_trace": games, "seat": seat_name,
            "stages": [f"{lo}-{hi - 1}" if hi < 99 else f"{lo}+" for lo, hi in STAGES],
            "log_score": {n: _summary(logs[n]) for n in names},
            "deadwood_bias": {n: _summary(bias[n]) for n in names if bias[n]},
            "filter_rho_mean": {n: float(np.mean(r)) if r else float("nan") for n, r in rhos.items()},
            "log_score_by_trust": {n: {"trusted": _mean_se(v[True]), "trusted_rows": len(v[True]),
                                       "untrusted": _mean_se(v[False]), "untrusted_rows": len(v[False])}
                                   for n, v in by_trust.items()} if filter_specs else {}}


def _deadwood_gap(hands: Any, true_deadwood: int) -> float:
    """Mean deadwood of sampled opponent hands minus the true hand's."""
    return float(deadwood_and_melded_batch(np.asarray(hands, dtype=np.uint64))[0].mean()) - true_deadwood


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
    for name, rho in report.get("filter_rho_mean", {}).items():
        out.append(f"mean rho of {name} at the rows: {rho:.3f}")
    split = report.get("log_score_by_trust", {})
    if split:
        first = next(n for n in report["log_score"] if n.startswith("filter"))
        out.append(f"log_score where {first}'s rho >= {TRUST} (the champion reads the filter) | below")
        for name, s in split.items():
            out.append(f"  {name:16s} {s['trusted'][0]:7.2f} ({s['trusted_rows']} rows) | "
                       f"{s['untrusted'][0]:7.2f} ({s['untrusted_rows']} rows)")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", type=Path)
    parser.add_argument("--estimators", default="uniform,mlp8,mlp8-heuristic,mlp8-retuned,gbt,shankar-cnn,ensemble")
    parser.add_argument("--games", type=int, default=10**9)
    parser.add_argument("--json")
    parser.add_argument("--seat", default="champion", help="the traced player whose view is scored")
    args = parser.parse_args()
    names = args.estimators.split(";" if ";" in args.estimators else ",")
    report = score(args.traces, names, args.games, args.seat)
    print(table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
