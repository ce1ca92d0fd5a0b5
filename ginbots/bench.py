"""Benchmarks (not tests): meld-solver throughput and Simple-vs-Simple engine speed.

``ginbots bench`` prints the figures the README quotes; run it on an idle
machine, since it measures wall-clock time on one core.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from .cards import mask_of
from .engine import GameConfig, play_game
from .melds import min_deadwood
from .players.baselines import SimplePlayer


def random_hands(size: int, count: int, seed: int = 0) -> list[int]:
    rng = random.Random(seed)
    deck = list(range(52))
    return [mask_of(rng.sample(deck, size)) for _ in range(count)]


def bench_min_deadwood(size: int, count: int = 200_000, repeats: int = 5, seed: int = 0) -> float:
    """Median computations per second of ``min_deadwood`` on ``count`` random hands.

    Cold: every hand is distinct work (no result cache exists); only the static
    per-suit table is shared, as the design intends.
    """
    hands = random_hands(size, count, seed)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in hands:
            min_deadwood(hand)
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def bench_simple_hands(seconds: float = 5.0, seed: int = 0) -> tuple[float, int]:
    """Simple-vs-Simple hands per second in this process (one core); (rate, hands)."""
    players = [SimplePlayer(seed=seed), SimplePlayer(seed=seed + 1)]
    config = GameConfig()
    hands = 0
    game = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        result = play_game(players, seed=seed * 1_000_003 + game, config=config)
        hands += len(result.hands)
        game += 1
    return hands / (time.perf_counter() - start), hands


#: Bots whose decision time is benchmarked, with the p50 target (ms) of their issue.
DECISION_TARGETS = {"planner": 5.0, "keats": None}


def bench_decisions(spec: str, hands: int = 200, seed: int = 0) -> dict[str, float]:
    """Per-decision thinking time (ms) of a bot over single hands against Simple, one core."""
    from .match import MatchConfig, run_match
    from .registry import parse_spec

    config = MatchConfig(games=hands, seed=seed, workers=1, single_hand=True, game=GameConfig(time_budget=None))
    data = run_match(parse_spec(spec), parse_spec("simple"), config, progress=False).to_json()
    ms = data["A"]["decision_ms"]
    return {"p50_ms": ms["p50"], "p99_ms": ms["p99"], "decisions": ms["decisions"]}


def run_all(quick: bool = False) -> dict[str, Any]:
    count = 50_000 if quick else 200_000
    seconds = 1.0 if quick else 10.0
    out: dict[str, Any] = {
        "min_deadwood_10_per_s": bench_min_deadwood(10, count),
        "min_deadwood_11_per_s": bench_min_deadwood(11, count),
    }
    rate, hands = bench_simple_hands(seconds)
    out["simple_vs_simple_hands_per_s"] = rate
    out["simple_vs_simple_hands"] = hands
    out["decisions"] = {spec: bench_decisions(spec, 40 if quick else 300) for spec in DECISION_TARGETS}
    return out


def format_results(results: dict[str, Any]) -> str:
    lines = [
        f"min_deadwood, random 10-card hands: {results['min_deadwood_10_per_s']:,.0f} /s  (target >= 700,000)",
        f"min_deadwood, random 11-card hands: {results['min_deadwood_11_per_s']:,.0f} /s",
        f"Simple vs Simple, one core:         {results['simple_vs_simple_hands_per_s']:,.0f} hands/s  "
        f"({results['simple_vs_simple_hands']:,} hands; target >= 2,500)",
    ]
    for spec, d in results.get("decisions", {}).items():
        target = DECISION_TARGETS.get(spec)
        goal = f"; target p50 <= {target:g} ms" if target else ""
        lines.append(f"{spec + ' decision time, one core:':<36}p50 {d['p50_ms']:.3f} ms, p99 {d['p99_ms']:.3f} ms"
                     f"  ({d['decisions']:,} decisions{goal})")
    return "\n".join(lines)
