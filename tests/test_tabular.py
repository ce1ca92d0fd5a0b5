"""The gradient-boosted-trees estimator: per-card features, the skl2onnx export, the shipped file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from ginbots.estimators import make_estimator
from ginbots.estimators.metrics import mean_squared_difference
from ginbots.estimators.snapshot import Snapshot, bits, masks_of
from ginbots.estimators.tabular import (
    FEATURE_NAMES,
    LOCATIONS,
    TreeEstimator,
    card_features,
)
from ginbots.estimators.weights import WeightsError
from ginbots.game.cards import NUM_RANKS, card, parse_card
from ginbots.training.estimator_data import record_games


@pytest.fixture(scope="module")
def recorded() -> Snapshot:
    return record_games("simple", "simple", list(range(100, 130)))


def _feature(feats: np.ndarray, c: int, name: str) -> float:
    return float(feats[0, c, FEATURE_NAMES.index(name)])


def test_features_say_where_each_neighbour_lies(recorded) -> None:
    arrays = recorded.select(slice(0, 1)).to_arrays()
    five_h, four_s, five_s = parse_card("5H"), parse_card("4S"), parse_card("5S")
    hand = sum(1 << parse_card(n) for n in ("6H", "KC", "KD", "KS", "9C", "9D", "2S", "3D", "JH", "QH"))
    arrays.update(hand=np.array([hand]), pile=np.array([1 << four_s]), top=np.array([four_s], dtype=np.int8),
                  opp_known=np.array([1 << five_s]), unknown=np.array([((1 << 52) - 1) & ~hand & ~(1 << four_s)]),
                  picked=np.zeros((1, 52), np.int8), declined=np.zeros((1, 52), np.int8),
                  discarded=np.zeros((1, 52), np.int8))
    arrays["discarded"][0, four_s] = 3  # thrown on the opponent's second turn
    arrays["picked"][0, five_s] = 2
    feats = card_features(Snapshot.from_arrays(arrays))
    assert feats.shape == (1, 52, len(FEATURE_NAMES))
    assert _feature(feats, five_h, "run+1_own") == 1 and _feature(feats, five_h, "same_rank_opp_held") == 1
    assert _feature(feats, card(0, 0), "run-1_off_board") == 1 and _feature(feats, card(0, 0), "run-2_off_board") == 1
    assert _feature(feats, parse_card("3S"), "run+1_discard_turn") == 3
    assert _feature(feats, parse_card("4C"), "same_rank_first_discard_turn") == 3
    for c in range(52):  # each neighbour is in exactly one location
        for d in ("-2", "-1", "+1", "+2"):
            assert sum(_feature(feats, c, f"run{d}_{loc}") for loc in LOCATIONS) == 1


def _swap_suits(snap: Snapshot, a: int, b: int) -> Snapshot:
    """The same observation with suits ``a`` and ``b`` exchanged."""
    perm = np.arange(52)
    for r in range(NUM_RANKS):
        perm[card(r, a)], perm[card(r, b)] = card(r, b), card(r, a)
    arrays = snap.to_arrays()
    for key in ("hand", "pile", "opp_known", "unknown", "truth"):
        arrays[key] = masks_of(bits(arrays[key])[:, np.argsort(perm)])
    for key in ("picked", "declined", "discarded"):
        arrays[key] = arrays[key][:, np.argsort(perm)]
    arrays["top"] = np.where(arrays["top"] >= 0, perm[arrays["top"]], -1).astype(np.int8)
    return Snapshot.from_arrays(arrays)


def test_features_are_suit_symmetric(recorded) -> None:
    rows = recorded.select(slice(0, 200))
    swapped = _swap_suits(rows, 0, 2)
    perm = np.arange(52)
    for r in range(NUM_RANKS):
        perm[card(r, 0)], perm[card(r, 2)] = card(r, 2), card(r, 0)
    np.testing.assert_array_equal(card_features(swapped)[:, perm], card_features(rows))


def test_fitted_trees_export_exactly_and_load_as_an_estimator(recorded, tmp_path: Path) -> None:
    from ginbots.estimators.snapshot import split_by_episode
    from ginbots.training.tabular_fit import fit_trees

    train, val = split_by_episode(recorded, validation=0.3)
    card_ = fit_trees(train, val, tmp_path, examples=20_000, trees=20, depth=3)
    assert card_["training"]["export_max_gap"] < 1e-4
    est = TreeEstimator(tmp_path / "gbt.onnx")
    raw = est.raw(val)
    assert np.all((raw >= 0) & (raw <= 1))
    np.testing.assert_array_equal(raw[bits(val.opp_known) > 0], 1.0)
    assert not (raw * bits(val.hand)).any()
    uniform = make_estimator("uniform").raw(val)
    truth = bits(val.truth)
    assert mean_squared_difference(raw, truth).mean() < mean_squared_difference(uniform, truth).mean()
    assert card_["validation"]["mean_squared_difference"] == pytest.approx(
        float(mean_squared_difference(raw, truth).mean()), rel=1e-5)
    (tmp_path / "gbt.onnx").write_bytes(b"not a model")
    with pytest.raises(WeightsError, match="gbt.onnx"):
        TreeEstimator(tmp_path / "gbt.onnx")


def test_shipped_trees_beat_uniform_and_name_their_data(recorded) -> None:
    est = make_estimator("gbt")
    truth = bits(recorded.truth)
    ours = mean_squared_difference(est.raw(recorded), truth).mean()
    uniform = mean_squared_difference(make_estimator("uniform").raw(recorded), truth).mean()
    assert ours < uniform - 0.005
    card_ = json.loads(Path(est.net.path).with_name("gbt.card.json").read_text())
    assert card_["features"] == list(FEATURE_NAMES) and card_["data"]["source"]
