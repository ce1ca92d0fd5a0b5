"""``ginbots match`` with onnxruntime's networks run as another machine's kernels might run them.

``python experiments/champion-budget/perturbed_match.py MODE match ARGS...``; MODE ``noopt`` (onnxruntime
without its graph optimisations: no fused operators, other summation orders) or ``ulp`` (each output of
every network moved one float32 ulp up or down at random, from a generator of its own, so the game's own
draws are untouched). A decision that turns on the last bits of a network's output shows as a game that
differs from the plain run's (``cross_cpu.sh``)."""
import sys
import numpy as np
import onnxruntime as ort
from ginbots.estimators import weights

mode = sys.argv.pop(1)
if mode == "noopt":
    real = ort.SessionOptions
    def options():
        o = real()
        o.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        return o
    ort.SessionOptions = options
elif mode == "ulp":
    call = weights.OnnxNet.__call__
    noise = np.random.default_rng(12345)  # its own generator: the game's draws are untouched
    def perturbed(self, x):
        y = call(self, x)
        up = noise.random(y.shape) < 0.5  # each output one float32 ulp up or down
        return np.where(up, np.nextafter(y, np.float32(np.inf)), np.nextafter(y, np.float32(-np.inf))).astype(y.dtype)
    weights.OnnxNet.__call__ = perturbed
from ginbots.cli import main
sys.exit(main(sys.argv[1:]))
