"""Calibrated estimator outputs, and the probability scores document 001 does not report.

An estimator says, per unknown card, how likely the opponent is to hold it; whether
"0.3" really comes true three times in ten is calibration. Fitting uses scikit-learn
(extra ``sklearn``): isotonic regression, or a logistic fit on the estimate's logit,
of the true holding on the raw estimate over the unknown cards of held-out games.
The fitted map is stored as plain numbers (isotonic: its breakpoints; logistic: two
coefficients), so a ``CalibratedEstimator`` (``ginbots.estimators.calibrated``) plays
with numpy alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ginbots.estimators.calibrated import (  # noqa: F401 (the play-time half, re-exported for the fitting code's users)
    _EPS,
    METHODS,
    CalibratedEstimator,
    _logit,
    apply_calibration,
    load_calibration,
)
from ginbots.estimators.snapshot import Snapshot, bits


def unknown_pairs(snap: Snapshot, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(estimates, truths, mask): the cards whose holder the seat cannot name, flattened."""
    mask = (bits(snap.unknown & ~snap.opp_known) > 0)
    truth = bits(snap.truth) > 0
    return raw[mask].astype(np.float64), truth[mask].astype(np.float64), mask


def probability_scores(p: np.ndarray, y: np.ndarray, bins: int = 10) -> dict[str, Any]:
    """Brier score, log loss and a reliability curve (equal-count bins) of estimates ``p`` for outcomes ``y``."""
    from sklearn.calibration import calibration_curve
    from sklearn.metrics import brier_score_loss, log_loss

    p = np.clip(p, 0.0, 1.0)
    observed, predicted = calibration_curve(y, p, n_bins=bins, strategy="quantile")
    return {"brier": float(brier_score_loss(y, p)),
            "log_loss": float(log_loss(y, np.clip(p, _EPS, 1 - _EPS), labels=[0, 1])),
            "reliability": {"predicted": [round(float(v), 4) for v in predicted],
                            "observed": [round(float(v), 4) for v in observed]},
            "cards": int(len(p))}


def fit_calibration(p: np.ndarray, y: np.ndarray, method: str) -> dict[str, Any]:
    """A calibration map fitted on estimates ``p`` and outcomes ``y``, as plain numbers."""
    if method == "isotonic":
        from sklearn.isotonic import IsotonicRegression

        model = IsotonicRegression(y_min=0.0, y_max=1.0, out_of_bounds="clip").fit(p, y)
        return {"method": method, "x": [float(v) for v in model.X_thresholds_],
                "y": [float(v) for v in model.y_thresholds_]}
    if method == "logistic":
        from sklearn.linear_model import LogisticRegression

        logit = _logit(p)[:, None]
        model = LogisticRegression(C=1e6).fit(logit, y)
        return {"method": method, "slope": float(model.coef_[0, 0]), "intercept": float(model.intercept_[0])}
    raise ValueError(f"calibration method must be one of {METHODS}, got {method!r}")
