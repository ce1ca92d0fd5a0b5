"""The champion's search machinery: sampled worlds, playouts over them, the race between options.

A mixin of ``ChampionPlayer`` (``champion.py``), kept apart so that the player reads as its decisions
and its opponent model, and this as the machinery they share: how a decision's worlds are drawn
(the filter's hands, the estimator's, or the estimator's tilted toward structured hands), how options
are played out on them with successive halving, and how the search is metered in work.
"""

from __future__ import annotations

from collections.abc import Callable
from time import process_time

import numpy as np

from ginbots.game.melds_batch import deadwood_and_melded_batch
from ginbots.game.tactics import knock_melds_min_layoffs
from ginbots.search.playouts import WorldPlayouts, resolve_code, tilt_for_drop, worlds_for

World = tuple[int, list[int]]
#: One option of a searched decision: its values (points) on the decision's worlds ``lo:hi``.
Values = Callable[[int, int], list[float]]
#: The largest points a hand can move (gin against the costliest ten cards is 25 + 98).
RESULT_BOUND = 130


def shrunk_mean(errors: list[float], shrink: float) -> float:
    """The mean of ``errors`` as if ``shrink`` more had been 0 (0 when off or empty)."""
    if shrink <= 0 or not errors:
        return 0.0
    return sum(errors) / (len(errors) + shrink)


class WorldSearch:
    """Worlds, playouts and the race of a searched decision (module doc). Reads the player's
    ``params``, ``knowledge``, ``rng``, ``estimator()``, ``trusts_filter()``, ``filter_sample()`` and
    ``opponent_knock_at()`` and ``world_gaps``; keeps ``playouts``, ``thought``, ``clock_stops`` and ``world_mean``."""

    def sampled_worlds(self, count: int = 0) -> list[World]:
        """``count`` (else ``worlds``) opponent hands from the estimator and, for each, a stock order of
        the remaining cards."""
        k = self.knowledge
        count, tilt = count or self.params["worlds"], self.params["world_tilt"]
        self.world_mean = None
        if self.trusts_filter():
            hands = self.filter_sample(count)
        elif tilt > 0 or self.params["tilt_learning"] > 0:
            hands = self._tilted_hands(count, tilt, learned=self.learned_drop(), search=True)
        else:
            hands = self.estimator().sample_masks(k, count, self._numpy_rng()).tolist()
        return worlds_for(hands, k.unknown, k.stock_size, self.rng, self.playout_code())

    def learned_drop(self) -> float:
        """How far below the estimator's the worlds' mean opponent deadwood should be: the mean gap
        seen at our searched knocks, shrunk by ``tilt_learning`` (0 while off or none is known)."""
        return shrunk_mean(self.world_gaps, self.params["tilt_learning"])

    def _tilted_hands(self, count: int, tilt: float, holds: np.ndarray | None = None, *,
                      learned: float = 0.0, search: bool = False) -> list[int]:
        """``count`` opponent hands drawn ``tilt_pool`` times over from the estimator and resampled with
        weight exp(-tilt x deadwood), or harder where that lowers their mean deadwood by less than
        ``learned``. The estimator's hands are drawn card by card from its chances, so
        they hold fewer melds than a player keeps: their mean deadwood at our searched knocks was 39.4
        where Simple held 31.2 (the knock's value was overrated accordingly; experiments/champion-tilt).
        ``holds``: this seat's estimate, when the caller already has it; ``search``: these are the
        search's worlds (their mean deadwood is kept for the next gap)."""
        rng = self._numpy_rng()
        pool = self.estimator().sample_masks(self.knowledge, count * self.params["tilt_pool"], rng, holds)
        deadwood, _ = deadwood_and_melded_batch(pool.astype(np.uint64))
        if search and self.params["tilt_learning"] > 0:
            self.world_mean = float(deadwood.mean())
        if learned > 0:
            tilt = max(tilt, tilt_for_drop(deadwood, learned))
        weights = np.exp(-tilt * (deadwood - deadwood.min()))
        # Systematic resampling: each hand kept about count x its weight share times, with one draw.
        edges = np.cumsum(weights / weights.sum())
        picks = np.searchsorted(edges, (rng.random() + np.arange(count)) / count)
        return [int(pool[min(i, len(pool) - 1)]) for i in picks]

    def _knock_at(self) -> tuple[int, int]:
        return self.params["rollout_knock_at"], self.opponent_knock_at()

    def playout_code(self) -> str:
        """Which code plays the playouts here: "compiled" (numba) or "python" (same games either way)."""
        return resolve_code(self.params["playouts"])

    def playouts_over(self, worlds: list[World]) -> WorldPlayouts:
        """This decision's worlds, ready to play options out on (with the current knock thresholds)."""
        return WorldPlayouts(worlds, self._knock_at(), self.playout_code(), self.playout_defence())

    def playout_defence(self) -> int:
        """The opponent's ``guarded_discard`` slack in this decision's playouts (-1: Simple's discard)."""
        slack = self.params["playout_defence"]
        if slack < 0 or self.params["playout_defence_when"] == "always":
            return slack
        return slack if self._switched() else -1

    def knock_melds(self, hand: int, worlds: list[World]) -> tuple[int, ...]:
        """The meld set to knock ``hand`` with: the one leaving the first ``layoff_samples`` worlds'
        opponents fewest layoffs."""
        return knock_melds_min_layoffs(hand, [w[0] for w in worlds[:self.params["layoff_samples"]]])

    def _race(self, options: dict[int, Values], count: int) -> dict[int, float]:
        """Mean value of each option over the ``count`` worlds it survived (successive halving); the
        survivors of the last round were all played on every world. An option gives its values on
        worlds ``lo:hi`` (``WorldPlayouts``)."""
        if self.utility is not None:
            options = {key: self._scored(values) for key, values in options.items()}
        totals = {key: 0.0 for key in options}
        alive = list(options)
        done, step = 0, self.params["first_round"]
        while True:
            stop = min(done + step, count)
            for key in alive:
                totals[key] += sum(options[key](done, stop))
            self.playouts += len(alive) * (stop - done)
            done = stop
            alive.sort(key=lambda key: -totals[key])
            if done >= count or len(alive) <= 2:
                break
            alive = alive[:max(2, (len(alive) + 1) // 2)]
            step *= 2
        # Finish the last two on every world, so that they are compared on the same deals.
        for key in alive:
            totals[key] += sum(options[key](done, count))
        self.playouts += len(alive) * (count - done)
        return {key: totals[key] / count for key in alive}

    def _scored(self, values: Values) -> Values:
        """``values`` (a hand's signed points) as the game's equity after it (``score_aware``)."""
        utility = self.utility
        return lambda lo, hi: [utility[min(max(int(v), -RESULT_BOUND), RESULT_BOUND) + RESULT_BOUND]
                               for v in values(lo, hi)]

    def _timed(self, fn: Callable[[], object]) -> object:
        """Run ``fn``, adding its CPU time to this game's thinking (once, however deeply nested).
        Measured for reports; no decision depends on it."""
        if getattr(self, "_clock_running", False):
            return fn()
        self._clock_running = True
        start = process_time()
        try:
            return fn()
        finally:
            self.thought += process_time() - start
            self._clock_running = False

    def _searching(self) -> bool:
        """Whether to search this decision: while the game's playouts are inside ``game_playouts``, and,
        as a safety net, while the host's clock (where a host keeps one) shows at least ``host_reserve``."""
        if self.playouts >= self.params["game_playouts"]:
            return False
        if self.time_left is not None and self.time_left < self.params["host_reserve"]:
            self.clock_stops += 1
            return False
        return True
