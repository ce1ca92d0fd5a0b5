"""One searched decision's playouts over its sampled worlds, in compiled code or pure Python.

A search player samples worlds (an opponent hand and a stock order each) and plays each
option of a decision out on them. ``WorldPlayouts`` holds those worlds and answers "this
option's points on worlds ``lo:hi``" for the kinds of option the champion searches. Two paths
give the same numbers: numba kernels (``playout_kernels``, extra ``fast``; about a
hundredth of the pure-Python cost) and the pure-Python functions of ``rollout``. The
compiled path is used where numba is installed, unless ``code="python"`` asks otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from ginbots.game.cards import cards_of

from .rollout import knock_points, play_out, simple_discard

World = tuple[int, list[int]]
#: Which code plays the playouts: "auto" (compiled where numba is installed), "compiled", "python".
PLAYOUT_CODES = ("auto", "compiled", "python")


@lru_cache(maxsize=None)
def compiled_available() -> bool:
    """Whether the compiled playouts can run here (numba installed and the kernels compile)."""
    try:
        from . import playout_kernels  # noqa: F401
    except ImportError:
        return False
    return True


def resolve_code(code: str) -> str:
    """"compiled" or "python" for a ``PLAYOUT_CODES`` choice; "compiled" without numba is an error."""
    if code not in PLAYOUT_CODES:
        raise ValueError(f"playout code must be one of {', '.join(PLAYOUT_CODES)}, got {code!r}")
    if code == "auto":
        return "compiled" if compiled_available() else "python"
    if code == "compiled" and not compiled_available():
        raise ImportError("compiled playouts need numba: pip install 'ginbots[fast]' (or use playouts=python)")
    return code


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now, so no decision pays for it, and hand
    the compiled meld solver to ``melds_batch.deadwood_and_melded_batch`` (the opponent filter's and the
    heuristic's hot loop), the knock's layoff search to ``tactics`` and the filter's kernels to
    ``opponent_model`` for this process: they give the same numbers, faster."""
    from ginbots.game.melds import use_discard_kernel
    from ginbots.game.melds_batch import use_batch_kernel
    from ginbots.game.tactics import use_layoff_kernel

    from . import filter_kernels, random_kernels
    from . import playout_kernels as k

    k.deadwood_and_melded_batch(np.array([0x1FFF, 0x7], dtype=np.uint64))
    use_batch_kernel(k.deadwood_and_melded_batch)
    k.discard_deadwoods_list(0x1FFF | 1 << 20)
    use_discard_kernel(k.discard_deadwoods_list)
    k.knock_melds_min_layoffs([(0x7, 0x7 << 13), (0x7 << 13, 0x7)], [0x7 << 3 | 1 << 26])
    use_layoff_kernel(k.knock_melds_min_layoffs)
    filter_kernels.warm_up()
    random_kernels.warm_up()
    plays = WorldPlayouts([(0b111 << 13 | 0b111 << 26 | 1 << 40, list(range(30, 50)))], (0, 10), "compiled")
    hand = 0b1111111 | 1 << 20 | 1 << 33 | 1 << 46
    for kind in (k.PLAY, k.PLAY_OR_KNOCK, k.AFTER_DISCARD, k.AFTER_STOCK_DRAW):
        plays._compiled(kind, hand, 5, 20, 0.0, (), 0, 1)
    plays.knock(hand, (0b1111111,), 0, 1)


def use_numpy() -> None:
    """Undo ``warm_up``'s installs for this process: the meld solver and the opponent filter in numpy
    (the pure-Python path, for comparison; the same numbers)."""
    from ginbots.game.melds import use_discard_kernel
    from ginbots.game.melds_batch import use_batch_kernel
    from ginbots.game.tactics import use_layoff_kernel

    from . import opponent_model

    use_batch_kernel(None)
    use_discard_kernel(None)
    use_layoff_kernel(None)
    opponent_model.use_kernels(None)


class Worlds(list):
    """A decision's worlds, as ``World`` tuples, and on the compiled path also as the arrays the
    kernels read (``arrays``: opponent hands, stock orders, their lengths), built once."""

    arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


def tilt_for_drop(deadwood: np.ndarray, drop: float, highest: float = 1.0) -> float:
    """The tilt T (0 to ``highest``) under which weights exp(-T x deadwood) lower the mean of
    ``deadwood`` by ``drop`` points, or as near as T allows: how hard to resample sampled opponent
    hands toward low deadwood so that their mean matches what opponents have shown (bisection)."""
    if drop <= 0:
        return 0.0
    values = deadwood.astype(np.float64) - float(deadwood.min())
    target = float(values.mean()) - drop

    def tilted_mean(t: float) -> float:
        w = np.exp(-t * values)
        return float((w * values).sum() / w.sum())

    if tilted_mean(highest) >= target:
        return highest
    low, high = 0.0, highest
    for _ in range(30):
        mid = (low + high) / 2
        low, high = (mid, high) if tilted_mean(mid) > target else (low, mid)
    return (low + high) / 2


def worlds_for(opponents: Sequence[int], unknown: int, stock_size: int, rng: random.Random,
               code: str = "auto") -> list[World]:
    """A world per opponent hand: the hand and a stock order of the other unseen cards, ``stock_size``
    long, each shuffled by ``rng.shuffle`` in turn; on the compiled path by its twin on ``rng``'s own
    state (``random_kernels``), the same orders and ``rng`` left in the same place."""
    if resolve_code(code) == "compiled":
        from .random_kernels import rests, shuffle_rows

        opps = np.array(opponents, dtype=np.int64)
        rows, lengths = rests(opps, unknown)
        shuffle_rows(rng, rows, lengths)
        lens = np.minimum(lengths, stock_size)
        orders = np.ascontiguousarray(rows[:, :max(stock_size, 1)])
        worlds = Worlds((opp, row[:size]) for opp, row, size in
                        zip(opponents, orders.tolist(), lens.tolist()))
        worlds.arrays = (opps, orders, lens)
        return worlds
    rests_ = [cards_of(unknown & ~opp) for opp in opponents]
    for rest in rests_:
        rng.shuffle(rest)
    return [(opp, rest[:stock_size]) for opp, rest in zip(opponents, rests_)]


class WorldPlayouts:
    """The worlds of one decision and its options' points on them (both seats play Simple's rule,
    with knock thresholds ``knock_at`` = (ours, theirs), as ``rollout.play_out``; with ``defence`` >= 0
    the opponent throws ``rollout.guarded_discard`` with that slack)."""

    def __init__(self, worlds: Sequence[World], knock_at: tuple[int, int], code: str = "auto",
                 defence: int = -1) -> None:
        self.worlds = worlds
        self.knock_at = (int(knock_at[0]), int(knock_at[1]))
        self.defence = int(defence)
        self.code = resolve_code(code)
        arrays = getattr(worlds, "arrays", None)
        if self.code == "compiled" and arrays is not None:
            self._opps, self._orders, self._lens = arrays
            self._out = np.zeros(len(worlds), dtype=np.float64)
        elif self.code == "compiled":
            width = max((len(order) for _, order in worlds), default=0)
            self._opps = np.array([opp for opp, _ in worlds], dtype=np.int64)
            self._orders = np.zeros((len(worlds), max(width, 1)), dtype=np.int64)
            for i, (_, order) in enumerate(worlds):
                self._orders[i, :len(order)] = order
            self._lens = np.array([len(order) for _, order in worlds], dtype=np.int64)
            self._out = np.zeros(len(worlds), dtype=np.float64)

    def _compiled(self, kind: int, hand: int, deadwood: int, card: int, margin: float, melds: Sequence[int],
                  lo: int, hi: int) -> list[float]:
        from .playout_kernels import evaluate

        meld_array = np.array(list(melds) + [0] * (8 - len(melds)), dtype=np.int64)
        evaluate(kind, hand, deadwood, card, float(margin), meld_array, len(melds), self._opps, self._orders,
                 self._lens, lo, hi, self.knock_at[0], self.knock_at[1], self.defence, self._out)
        return self._out[:hi - lo].tolist()

    def play(self, hand: int, top: int, lo: int, hi: int) -> list[float]:
        """Play on from ``hand`` with ``top`` face up and the opponent to draw."""
        if self.code == "compiled":
            from .playout_kernels import PLAY
            return self._compiled(PLAY, hand, 0, top, 0.0, (), lo, hi)
        ks, guard = self.knock_at, self.defence
        return [play_out(hand, opp, order, 0, top, 1, ks, guard) for opp, order in self.worlds[lo:hi]]

    def play_or_knock(self, hand: int, top: int, margin: float, lo: int, hi: int) -> list[float]:
        """The better of playing on and knocking at once (less ``margin``), world by world."""
        if self.code == "compiled":
            from .playout_kernels import PLAY_OR_KNOCK
            return self._compiled(PLAY_OR_KNOCK, hand, 0, top, margin, (), lo, hi)
        ks, guard = self.knock_at, self.defence
        return [max(play_out(hand, opp, order, 0, top, 1, ks, guard), knock_points(hand, opp) - margin)
                for opp, order in self.worlds[lo:hi]]

    def after_discard(self, hand: int, deadwood: int, top: int, lo: int, hi: int) -> list[float]:
        """``hand`` (``deadwood`` points) has just thrown ``top``: it knocks at once when its own
        playout threshold allows, else plays on."""
        if self.code == "compiled":
            from .playout_kernels import AFTER_DISCARD
            return self._compiled(AFTER_DISCARD, hand, deadwood, top, 0.0, (), lo, hi)
        if deadwood <= self.knock_at[0]:
            return [knock_points(hand, opp) for opp, _ in self.worlds[lo:hi]]
        return self.play(hand, top, lo, hi)

    def after_stock_draw(self, hand: int, lo: int, hi: int) -> list[float]:
        """``hand`` draws the stock's top card, throws Simple's discard, then as ``after_discard``."""
        if self.code == "compiled":
            from .playout_kernels import AFTER_STOCK_DRAW
            return self._compiled(AFTER_STOCK_DRAW, hand, 0, 0, 0.0, (), lo, hi)
        ks, guard = self.knock_at, self.defence
        values: list[float] = []
        for opp, order in self.worlds[lo:hi]:
            if len(order) <= 2:
                values.append(0.0)
                continue
            drawn = hand | 1 << order[0]
            throw, after = simple_discard(drawn)
            kept = drawn ^ 1 << throw
            values.append(knock_points(kept, opp) if after <= ks[0] else play_out(kept, opp, order, 1, throw, 1, ks, guard))
        return values

    def knock(self, hand: int, melds: Sequence[int], lo: int, hi: int) -> list[float]:
        """Knocking now with ``melds``, scored exactly with the opponent's layoffs."""
        if self.code == "compiled":
            from .playout_kernels import KNOCK
            return self._compiled(KNOCK, hand, 0, 0, 0.0, melds, lo, hi)
        return [knock_points(hand, opp, tuple(melds)) for opp, _ in self.worlds[lo:hi]]
