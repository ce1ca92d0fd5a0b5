"""The learned estimators at play time: frozen ONNX networks run by onnxruntime.

``shankar-cnn`` (document 001: plug-rule array, 17x13 ambi-superpermutation
rows, CNN 16/32/64), ``simple-nn`` (document 001: dense 100-85-60-52 sigmoid,
fed its own previous estimate, hence trained in generations) and ``mlp8``
(document 002: four 13x4 turn matrices, dense 500-500 ReLU, 52 sigmoid).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import numpy as np

from ginbots.game.knowledge import Knowledge

from .base import Estimator, UniformEstimator
from .features import mlp8_input, shankar_input, simple_nn_input
from .snapshot import Snapshot, normalise, snapshot_rows, with_known_cards
from .weights import OnnxNet, find_weights

#: estimator name -> weights file
NET_FILES = {"shankar-cnn": "shankar_cnn.onnx", "simple-nn": "simple_nn.onnx", "mlp8": "mlp8.onnx",
             "mlp8-heuristic": "mlp8_heuristic.onnx", "mlp8-retuned": "mlp8_retuned.onnx"}


class NetEstimator(Estimator):
    """An ONNX network over one feature encoding; one batched inference per call."""

    features: Callable[[Snapshot], np.ndarray]

    def __init__(self, path: str | Path | None = None) -> None:
        self.net = OnnxNet(path or find_weights(NET_FILES[self.name]))

    def raw(self, snap: Snapshot) -> np.ndarray:
        return with_known_cards(snap, self.net(type(self).features(snap)))

    # A seat asks for the same view several times in one turn (the draw's search, the heuristic's
    # discard values, its knock test): the network's answer is a function of the snapshot alone, so
    # the last one is kept, keyed on every field the snapshot is built from.
    _memo: tuple[tuple, Snapshot, np.ndarray] | None = None

    def _row(self, knowledge: Knowledge, probabilities: np.ndarray | None = None) -> tuple[Snapshot, np.ndarray]:
        k = knowledge
        key = (k.hand, k.unknown, k.opp_known, k.stock_size, k.opp_turns, tuple(k.pile), tuple(k.opp_picked),
               tuple(k.opp_declined), tuple(k.opp_discards))
        memo = self._memo
        if memo is not None and memo[0] == key:
            return memo[1], memo[2] if probabilities is None else probabilities
        snap, estimate = super()._row(knowledge, probabilities)
        if probabilities is None:  # only a network answer is worth keeping
            self._memo = (key, snap, estimate)
        return snap, estimate

    def estimate(self, knowledge: Knowledge) -> np.ndarray:
        return self._row(knowledge)[1].copy()


class ShankarCNNEstimator(NetEstimator):
    name = "shankar-cnn"
    features = staticmethod(shankar_input)


class MLP8Estimator(NetEstimator):
    name = "mlp8"
    features = staticmethod(mlp8_input)


class MLP8HeuristicEstimator(MLP8Estimator):
    """``mlp8`` trained document 002's way: on the heuristic agents' own games over three
    generations (``experiments/mlp8-generations/mlp8_generations.sh``), not on Simple's."""

    name = "mlp8-heuristic"


class MLP8RetunedEstimator(MLP8Estimator):
    """``mlp8`` from document 002's loop with the heuristic re-tuned between generations
    (``experiments/mlp8-generations/mlp8_retuned.sh``, generation 2); the re-tuned heuristic plays with it."""

    name = "mlp8-retuned"


def run_in_sequence(snap: Snapshot, step_fn: Callable[[Snapshot, np.ndarray], np.ndarray]) -> np.ndarray:
    """Apply a recurrent estimator over recorded rows: each row sees the output of
    the previous row of its episode (uniform for an episode's first row)."""
    out = np.zeros((len(snap), 52), dtype=np.float32)
    order = np.lexsort((snap.step, snap.episode))
    ep, st = snap.episode[order], snap.step[order]
    has_prev = np.zeros(len(order), dtype=bool)
    has_prev[1:] = (ep[1:] == ep[:-1]) & (st[1:] == st[:-1] + 1)
    uniform = UniformEstimator().raw(snap)
    rank = np.zeros(len(order), dtype=np.int64)  # position within the run of consecutive rows
    for i in range(1, len(order)):
        rank[i] = rank[i - 1] + 1 if has_prev[i] else 0
    for r in range(int(rank.max(initial=-1)) + 1):
        pos = np.flatnonzero(rank == r)
        rows = order[pos]
        prev = out[order[pos - 1]] if r > 0 else uniform[rows]
        out[rows] = step_fn(snap.select(rows), prev)
    return out


class SimpleNNEstimator(NetEstimator):
    """Recurrent: its previous estimate is an input; remembered between calls in a hand."""

    name = "simple-nn"

    def __init__(self, path: str | Path | None = None) -> None:
        super().__init__(path)
        self._last: tuple[Knowledge, int, np.ndarray] | None = None  # (tracker, opp turns, estimate)

    def _step(self, snap: Snapshot, prev: np.ndarray) -> np.ndarray:
        return with_known_cards(snap, self.net(simple_nn_input(snap, prev)))

    def raw(self, snap: Snapshot) -> np.ndarray:
        return run_in_sequence(snap, self._step)

    _row = Estimator._row  # recurrent: its estimate depends on the calls before, so no memo of views

    def estimate(self, knowledge: Knowledge) -> np.ndarray:
        snap = snapshot_rows([knowledge])
        last = self._last
        if last is not None and last[0] is knowledge and last[1] == knowledge.opp_turns:
            raw = last[2]
        else:
            fresh = last is None or last[0] is not knowledge or last[1] > knowledge.opp_turns
            prev = UniformEstimator().raw(snap) if fresh else last[2][None]
            raw = self._step(snap, prev)[0]
            self._last = (knowledge, knowledge.opp_turns, raw)
        return normalise(snap, raw[None])[0]


#: estimator name -> its class, for every network-backed estimator of ``NET_FILES``
NET_ESTIMATORS: dict[str, type[NetEstimator]] = {
    cls.name: cls for cls in (ShankarCNNEstimator, SimpleNNEstimator, MLP8Estimator, MLP8HeuristicEstimator,
                              MLP8RetunedEstimator)}
