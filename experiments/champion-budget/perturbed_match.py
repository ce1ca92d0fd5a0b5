"""``ginbots match`` with onnxruntime's networks run as another machine's kernels might run them.

``python experiments/champion-budget/perturbed_match.py MODE match ARGS...``; MODE ``noopt`` (onnxruntime
without its graph optimisations: no fused operators, other summation orders) or ``ulp`` (each output of
every network moved one float32 ulp up or down at random, from a generator of its own, so the game's own
draws are untouched). A decision that turns on the last bits of a network's output shows as a game that
differs from the plain run's (``cross_cpu.sh``)."""

from __future__ import annotations

import sys

import numpy as np
import onnxruntime as ort

from ginbots.estimators import weights


def unoptimised() -> None:
    """Every onnxruntime session made from now on runs the graph as written, unfused."""
    plain = ort.SessionOptions

    def options() -> ort.SessionOptions:
        made = plain()
        made.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        return made

    ort.SessionOptions = options


def one_ulp_off() -> None:
    """Every network output moved one float32 ulp up or down, at random."""
    call = weights.OnnxNet.__call__
    noise = np.random.default_rng(12345)

    def perturbed(self: weights.OnnxNet, x: np.ndarray) -> np.ndarray:
        y = call(self, x)
        up = noise.random(y.shape) < 0.5
        return np.where(up, np.nextafter(y, np.float32(np.inf)), np.nextafter(y, np.float32(-np.inf))).astype(y.dtype)

    weights.OnnxNet.__call__ = perturbed


if __name__ == "__main__":
    modes = {"noopt": unoptimised, "ulp": one_ulp_off}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(modes)}}} match ARGS...")
    modes[sys.argv.pop(1)]()
    from ginbots.cli import main

    sys.exit(main(sys.argv[1:]))
