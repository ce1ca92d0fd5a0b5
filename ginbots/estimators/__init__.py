"""Opponent-hand estimators: per card, the probability that the opponent holds it.

``make_estimator(name)`` builds one from the frozen weights in ``weights/``;
``ESTIMATOR_NAMES`` lists them.  See ``base.Estimator`` for the interface.
Fitting them lives in ``ginbots.training``; this wing is what a bot needs at play time.

Imports: ``ginbots.game`` only.
"""

from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Estimator

#: Estimators whose outputs ship with fitted calibration maps: ``NAME+isotonic`` / ``NAME+logistic``.
CALIBRATED = ("shankar-cnn", "mlp8", "bayes")
#: Every estimator ``make_estimator`` can build (``omniscient`` only in evaluation).
ESTIMATOR_NAMES = ("uniform", "omniscient", "bayes", "bayes-isru", "shankar-cnn", "simple-nn", "mlp8",
                   "mlp8-heuristic", "mlp8-retuned", "gbt", "ensemble") \
    + tuple(f"{name}+{method}" for name in CALIBRATED for method in ("isotonic", "logistic"))


def calibration_file(name: str) -> str:
    """The shipped map of a calibrated estimator name (``mlp8+isotonic`` -> ``calibration_mlp8_isotonic.json``)."""
    base, _, method = name.partition("+")
    return f"calibration_{base}_{method}.json"


BAYES_FILE = "bayes_tables.npz"


def make_estimator(name: str) -> "Estimator":
    """A ready estimator by name, its weights loaded and checked; ValueError for an unknown name."""
    from . import base, bayes, ensemble, nets
    from .weights import find_weights

    if name == "uniform":
        return base.UniformEstimator()
    if name == "omniscient":
        return base.OmniscientEstimator()
    if name in ("bayes", "bayes-isru"):
        return bayes.BayesianEstimator.load(find_weights(BAYES_FILE), "logistic" if name == "bayes" else "isru")
    if name in nets.NET_ESTIMATORS:
        return nets.NET_ESTIMATORS[name]()
    if name == "gbt":
        from .tabular import TreeEstimator

        return TreeEstimator()
    if name == "ensemble":
        return ensemble.EnsembleEstimator.load(make=make_estimator)
    if name in ESTIMATOR_NAMES and "+" in name:
        from .calibrated import CalibratedEstimator, load_calibration
        from .weights import check_weights

        path = find_weights(calibration_file(name))
        check_weights(path)
        return CalibratedEstimator(make_estimator(name.partition("+")[0]), load_calibration(path))
    raise ValueError(f"no estimator named {name!r}; choose from {', '.join(ESTIMATOR_NAMES)}")


@lru_cache(maxsize=None)
def shared_estimator(name: str) -> "Estimator":
    """``make_estimator(name)``, built once per process and shared by every seat and bot."""
    return make_estimator(name)


class UsesNamedEstimator:
    """Mixin for a bot whose ``estimator`` hyperparameter names its opponent-hand estimator: that
    estimator, shared, is what it plays with, packages and loads at start."""

    params: dict

    def estimator(self) -> "Estimator":
        return shared_estimator(self.params["estimator"])

    def weight_files(self) -> list:
        return weight_files_for(self.params["estimator"])

    def prepare(self) -> None:
        shared_estimator(self.params["estimator"])  # not self.estimator(): a subclass may pick by game state


def weight_files_for(name: str) -> list:
    """Every file estimator ``name`` loads (weights and their model cards), for packaging."""
    import json as _json

    from .nets import NET_FILES
    from .weights import card_path, find_weights

    if name in ("uniform", "omniscient"):
        return []
    if name in ESTIMATOR_NAMES and "+" in name:
        path = find_weights(calibration_file(name))
        return weight_files_for(name.partition("+")[0]) + [path, card_path(path)]
    from .tabular import GBT_FILE

    single_files = {**NET_FILES, "bayes": BAYES_FILE, "bayes-isru": BAYES_FILE, "gbt": GBT_FILE}
    if name in single_files:
        path = find_weights(single_files[name])
        return [path, card_path(path)]
    if name == "ensemble":
        path = find_weights("ensemble.json")
        members = {r[2] for r in _json.loads(path.read_text())["ranges"]}
        return [path, card_path(path)] + [f for m in sorted(members) for f in weight_files_for(m)]
    raise ValueError(f"no estimator named {name!r}; choose from {', '.join(ESTIMATOR_NAMES)}")
