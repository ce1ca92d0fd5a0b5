"""Playouts alone, with playout_build_trial.patch applied: our seat's points per hand against Simple
on 20,000 random deals (seats alternating), for each knock threshold and `build` (0 = Simple's discard).
Run: PYTHONPATH=WORKTREE_WITH_PATCH python playout_build_policy_check.py"""
import random

from ginbots.game.cards import ALL_CARDS_MASK
from ginbots.search.rollout import play_out

rng = random.Random(2)
cases = []
for _ in range(20000):
    deck = list(range(52))
    rng.shuffle(deck)
    cases.append((sum(1 << c for c in deck[:10]), sum(1 << c for c in deck[10:20]), deck[21:], deck[20]))
for knock_at in (0, 10):
    for build in (0.0, 1.0, 2.0, 3.0, 4.0, 6.0):
        total = 0
        for i, (us, them, stock, top) in enumerate(cases):
            live = ALL_CARDS_MASK & ~us & ~(1 << top)
            total += play_out(us, them, stock, 0, top, i % 2, (knock_at, 10), build, live)
        print(f"our knock_at={knock_at:2d} build={build}: {total / len(cases):+.2f} points per hand")
