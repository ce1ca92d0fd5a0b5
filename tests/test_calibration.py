"""Estimator calibration: the sklearn fits, the numpy-only maps, the scores, and bad map files."""

import json

import numpy as np
import pytest

from ginbots.training.calibration import (
    CalibratedEstimator,
    apply_calibration,
    fit_calibration,
    load_calibration,
    probability_scores,
)


def overconfident(seed=0, n=20000):
    """Outcomes whose true chance is 0.5 * the stated estimate: a badly calibrated source."""
    rng = np.random.default_rng(seed)
    p = rng.uniform(0, 1, n)
    y = (rng.uniform(0, 1, n) < 0.5 * p).astype(float)
    return p, y


@pytest.mark.parametrize("method", ["isotonic", "logistic"])
def test_a_fitted_map_repairs_an_overconfident_estimate(method):
    p, y = overconfident()
    calibration = fit_calibration(p, y, method)
    json.dumps(calibration)  # plain numbers only
    test_p, test_y = overconfident(seed=1)
    before = probability_scores(test_p, test_y)
    after = probability_scores(apply_calibration(calibration, test_p), test_y)
    assert after["brier"] < before["brier"] and after["log_loss"] < before["log_loss"]
    mapped = apply_calibration(calibration, np.array([0.2, 0.8]))
    assert np.allclose(mapped, [0.1, 0.4], atol=0.06)
    assert len(after["reliability"]["predicted"]) == len(after["reliability"]["observed"]) > 3


def test_calibrated_estimator_keeps_known_cards_pinned(tmp_path):
    from ginbots.estimators import make_estimator
    from ginbots.training.estimator_data import generate, load

    generate(tmp_path / "d", 4, seed=5, workers=1)
    snap = load(tmp_path / "d")
    base = make_estimator("uniform")
    est = CalibratedEstimator(base, {"method": "logistic", "slope": 1.0, "intercept": -1.0})
    raw, calibrated = base.raw(snap), est.raw(snap)
    known = raw == 1.0
    assert (calibrated[known] == 1.0).all() and (calibrated[raw == 0.0] == 0.0).all()
    free = (raw > 0) & (raw < 1)
    assert (calibrated[free] < raw[free]).all()  # a negative intercept lowers every free estimate
    assert est.name == "uniform+logistic"


def test_bad_calibration_files_are_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match="bad.json"):
        load_calibration(bad)
    bad.write_text(json.dumps({"method": "isotonic", "x": [0, 1], "y": [0]}))
    with pytest.raises(ValueError, match="not an isotonic"):
        load_calibration(bad)
    with pytest.raises(ValueError, match="method must be one of"):
        fit_calibration(np.array([0.1, 0.9]), np.array([0.0, 1.0]), "platt")


@pytest.mark.parametrize("name", ["shankar-cnn+isotonic", "mlp8+logistic", "bayes+isotonic"])
def test_shipped_calibrated_estimators_load_by_name_and_apply_their_map(name):
    from ginbots.estimators import calibration_file, make_estimator, weight_files_for
    from ginbots.estimators.weights import find_weights
    from ginbots.game.knowledge import Knowledge

    estimator = make_estimator(name)
    base = make_estimator(name.partition("+")[0])
    knowledge = Knowledge(0, 0, 0b1111111111)
    knowledge.offered(20)
    raw, calibrated = base.raw_one(knowledge), estimator.raw_one(knowledge)
    unknown = [c for c in range(52) if knowledge.unknown >> c & 1]
    expected = apply_calibration(load_calibration(find_weights(calibration_file(name))), raw[unknown])
    assert np.allclose(calibrated[unknown], expected, atol=1e-6)
    assert calibrated[:10].tolist() == [0.0] * 10  # our own cards stay pinned
    assert {p.name for p in weight_files_for(name)} >= {calibration_file(name)}


def test_a_tampered_shipped_map_is_refused(tmp_path, monkeypatch):
    import shutil

    from ginbots.estimators import calibration_file, make_estimator
    from ginbots.estimators.weights import WeightsError, find_weights

    for name in ("mlp8.onnx", "mlp8.card.json", calibration_file("mlp8+logistic"), "calibration_mlp8_logistic.card.json"):
        shutil.copy(find_weights(name), tmp_path / name)
    (tmp_path / calibration_file("mlp8+logistic")).write_text('{"method": "logistic", "slope": 9, "intercept": 0}')
    monkeypatch.setenv("GINBOTS_WEIGHTS", str(tmp_path))
    with pytest.raises(WeightsError, match="calibration_mlp8_logistic.json"):
        make_estimator("mlp8+logistic")
