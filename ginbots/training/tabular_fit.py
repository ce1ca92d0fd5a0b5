"""Fitting the ``gbt`` estimator with scikit-learn and freezing it to ONNX with skl2onnx.

Playing never imports this module (extra ``sklearn``). scikit-learn's
``HistGradientBoostingClassifier`` would fit faster, but skl2onnx 1.20 cannot
export it (it writes a boolean list into an integer ONNX attribute), so the
exact-split ``GradientBoostingClassifier`` is used, on a random sample of the
card examples.
"""

from __future__ import annotations

import datetime
import time
from pathlib import Path
from typing import Any

import numpy as np

from ginbots import __version__
from ginbots.estimators.metrics import mean_squared_difference, top_n_cards
from ginbots.estimators.snapshot import Snapshot, bits
from ginbots.estimators.tabular import (
    FEATURE_NAMES,
    GBT_FILE,
    TreeEstimator,
    training_pairs,
)
from ginbots.estimators.weights import write_card

EXPORT_TOLERANCE = 1e-4  # largest allowed gap between scikit-learn's and onnxruntime's probabilities


def _export(model: Any, sample: np.ndarray, path: Path) -> float:
    """Write ``model`` as ONNX and return the largest probability gap to scikit-learn on ``sample``."""
    import onnxruntime as ort
    from skl2onnx import to_onnx

    onx = to_onnx(model, sample[:1], options={id(model): {"zipmap": False}},
                  target_opset={"": 17, "ai.onnx.ml": 3})
    path.write_bytes(onx.SerializeToString())
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    ours = session.run(["probabilities"], {session.get_inputs()[0].name: sample})[0][:, 1]
    gap = float(np.abs(ours - model.predict_proba(sample)[:, 1]).max())
    if gap > EXPORT_TOLERANCE:
        path.unlink()
        raise RuntimeError(f"the exported trees disagree with scikit-learn by {gap:.2e} "
                           f"(tolerance {EXPORT_TOLERANCE}); {path} not written")
    return gap


def fit_trees(train: Snapshot, val: Snapshot, out_dir: str | Path, *, examples: int = 600_000, trees: int = 200,
              depth: int = 4, learning_rate: float = 0.1, subsample: float = 0.5, seed: int = 0,
              data_source: str = "") -> dict[str, Any]:
    """Fit the trees on a sample of ``train``'s card examples, export them, score them on ``val``; returns the card."""
    from sklearn.ensemble import GradientBoostingClassifier

    from .calibration import probability_scores, unknown_pairs

    rng = np.random.default_rng(seed)
    train_rows = len(train)
    if len(train) > examples // 4:  # about 30 unknown cards a row: bound the feature array's memory first
        train = train.select(np.sort(rng.choice(len(train), size=examples // 4, replace=False)))
    x, y = training_pairs(train)
    if len(x) > examples:
        keep = np.sort(rng.choice(len(x), size=examples, replace=False))
        x, y = x[keep], y[keep]
    started = time.time()
    model = GradientBoostingClassifier(n_estimators=trees, max_depth=depth, learning_rate=learning_rate,
                                       subsample=subsample, random_state=seed).fit(x, y)
    seconds = time.time() - started
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / GBT_FILE
    gap = _export(model, x[rng.choice(len(x), size=min(len(x), 5000), replace=False)], path)
    card = {"name": "gbt",
            "architecture": f"scikit-learn GradientBoostingClassifier, {trees} trees of depth {depth}, over "
                            f"{len(FEATURE_NAMES)} per-card features (ginbots.estimators.tabular.FEATURE_NAMES)",
            "parameters": int(sum(t.tree_.node_count for t in model.estimators_.ravel())),
            "features": list(FEATURE_NAMES),
            "feature_importances": {n: round(float(v), 4) for n, v in
                                    sorted(zip(FEATURE_NAMES, model.feature_importances_), key=lambda kv: -kv[1])},
            "data": {"source": data_source, "train_rows": train_rows, "rows_sampled": len(train), "validation_rows": len(val),
                     "card_examples": len(x), "held_fraction": round(float(y.mean()), 4)},
            "training": {"library": "scikit-learn + skl2onnx", "learning_rate": learning_rate,
                         "subsample": subsample, "seed": seed, "seconds": round(seconds, 1),
                         "export_max_gap": gap},
            "ginbots_version": __version__, "date": datetime.date.today().isoformat()}
    write_card(path, card)  # the estimator below checks the file against its card
    raw = TreeEstimator(path).raw(val)
    truth = bits(val.truth)
    p, held, _ = unknown_pairs(val, raw)
    scores = probability_scores(p, held)
    card["validation"] = {"rows": len(val), "mean_squared_difference": float(mean_squared_difference(raw, truth).mean()),
                          "top_n_cards": float(top_n_cards(raw, truth).mean()),
                          "brier": scores["brier"], "log_loss": scores["log_loss"]}
    write_card(path, card)
    return card
