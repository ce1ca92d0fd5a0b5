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


def run_all(quick: bool = False) -> dict[str, Any]:
    count = 50_000 if quick else 200_000
    seconds = 1.0 if quick else 10.0
    out = {
        "min_deadwood_10_per_s": bench_min_deadwood(10, count),
        "min_deadwood_11_per_s": bench_min_deadwood(11, count),
    }
    rate, hands = bench_simple_hands(seconds)
    out["simple_vs_simple_hands_per_s"] = rate
    out["simple_vs_simple_hands"] = hands
    return out


def format_results(results: dict[str, Any]) -> str:
    return "\n".join([
        f"min_deadwood, random 10-card hands: {results['min_deadwood_10_per_s']:,.0f} /s  (target >= 700,000)",
        f"min_deadwood, random 11-card hands: {results['min_deadwood_11_per_s']:,.0f} /s",
        f"Simple vs Simple, one core:         {results['simple_vs_simple_hands_per_s']:,.0f} hands/s  "
        f"({results['simple_vs_simple_hands']:,} hands; target >= 2,500)",
    ])
