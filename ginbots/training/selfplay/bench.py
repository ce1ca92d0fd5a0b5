"""Benchmark of the compiled self-play core against the engine on the same hands (``ginbots bench selfplay``)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ginbots.arena.match import derive_seed

from .core import RESULT_NAMES, play_deals
from .stream import play_sample


def bench_selfplay(hands: int = 2000, seed: int = 0) -> dict[str, Any]:
    """Single hands per second of the engine and of the compiled self-play core, on the same hands.

    The hands are document 000's Random-N samples (RP against Simple, sample 0 of
    each deal); both run in this process, one after the other, so each has one
    core; CPU time, so a busy machine inflates neither. The core repeats the
    hands until a second has passed; its compilation is not timed.
    """
    seeds = np.array([derive_seed(seed, 7, i) for i in range(hands)], dtype=np.int64)
    kinds = np.array([(1, 0) if s & 1 == 0 else (0, 1) for s in seeds], dtype=np.int64)
    play_deals(seeds[:10], kinds[:10])  # compile (or load the cache) outside the timing
    engine_rows = []
    start = time.process_time()
    for deal_seed, pair in zip(seeds.tolist(), kinds.tolist()):
        hand = play_sample(deal_seed, 0, pair)[0].hands[0]
        engine_rows.append((RESULT_NAMES.index(hand.result), hand.points, hand.turns))
    engine_s = time.process_time() - start
    rounds = 0
    start = time.process_time()
    while True:
        outcomes = play_deals(seeds, kinds)
        rounds += 1
        core_s = time.process_time() - start
        if core_s >= 1.0:
            break
    same = engine_rows == [(int(r[0]), int(r[3]), int(r[6])) for r in outcomes]
    engine_rate, core_rate = hands / engine_s, hands * rounds / core_s
    return {"hands": hands, "engine_hands_per_s": engine_rate, "core_hands_per_s": core_rate,
            "speedup": core_rate / engine_rate, "same_outcomes": same, "timer": "process CPU time, one process"}


def format_selfplay(results: dict[str, Any]) -> str:
    return (f"single hands, RP vs Simple, {results['hands']:,} hands: engine {results['engine_hands_per_s']:,.0f} "
            f"hands/s, compiled core {results['core_hands_per_s']:,.0f} hands/s: {results['speedup']:.0f}x "
            f"(target >= 100x); same outcomes: {results['same_outcomes']}")
