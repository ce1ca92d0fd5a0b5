"""Calibrated estimators at play time: a stored calibration map applied with numpy alone.

The maps are fitted by ``ginbots.training.calibration`` (scikit-learn, extra
``sklearn``); this module holds only what playing needs, so that a packed bot
using ``NAME+isotonic`` never imports scikit-learn.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .base import Estimator
from .snapshot import Snapshot, with_known_cards

METHODS = ("isotonic", "logistic")
_EPS = 1e-6


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(p, _EPS, 1 - _EPS)
    return np.log(p / (1 - p))


def apply_calibration(calibration: dict[str, Any], p: np.ndarray) -> np.ndarray:
    """The map applied to raw estimates (any shape); numpy only."""
    if calibration["method"] == "isotonic":
        return np.interp(p, calibration["x"], calibration["y"]).astype(np.float32)
    if calibration["method"] == "logistic":
        z = calibration["slope"] * _logit(p) + calibration["intercept"]
        return (1.0 / (1.0 + np.exp(-z))).astype(np.float32)
    raise ValueError(f"unknown calibration method {calibration.get('method')!r}")


def load_calibration(path: str | Path) -> dict[str, Any]:
    """A stored map, checked: a clear error names the file and what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"calibration file {path}: cannot be read as JSON ({exc})") from None
    method = data.get("method") if isinstance(data, dict) else None
    ok = (method == "isotonic" and isinstance(data.get("x"), list) and len(data["x"]) == len(data.get("y", []))
          and len(data["x"]) >= 1) or \
         (method == "logistic" and all(isinstance(data.get(k), (int, float)) for k in ("slope", "intercept")))
    if not ok:
        raise ValueError(f"calibration file {path}: not an isotonic (x, y) or logistic (slope, intercept) map")
    return data


class CalibratedEstimator(Estimator):
    """Another estimator's raw outputs passed through a calibration map (known cards stay pinned)."""

    def __init__(self, base: Estimator, calibration: dict[str, Any]) -> None:
        self.base = base
        self.calibration = calibration
        self.name = f"{base.name}+{calibration['method']}"

    def raw(self, snap: Snapshot) -> np.ndarray:
        return with_known_cards(snap, apply_calibration(self.calibration, self.base.raw(snap)))
