"""Weights and their model cards: a swapped, corrupt or malformed file is named, never loaded silently."""

from __future__ import annotations

import json
import shutil

import pytest

from ginbots.estimators.weights import (
    OnnxNet,
    WeightsError,
    check_weights,
    find_weights,
)


def _copy(tmp_path, *names):
    for name in names:
        for path in (find_weights(name), find_weights(name.split(".")[0] + ".card.json")):
            shutil.copy(path, tmp_path / path.name)


def test_swapping_two_networks_with_their_cards_is_caught(tmp_path):
    _copy(tmp_path, "mlp8.onnx", "simple_nn.onnx")
    for ext in (".onnx", ".card.json"):  # swap both files and both cards
        a, b = tmp_path / f"mlp8{ext}", tmp_path / f"simple_nn{ext}"
        a.rename(tmp_path / "tmp"), b.rename(a), (tmp_path / "tmp").rename(b)
    with pytest.raises(WeightsError, match="describes 'simple_nn.onnx', not 'mlp8.onnx'"):
        OnnxNet(tmp_path / "mlp8.onnx")


@pytest.mark.parametrize("card, words", [
    ("{not json", "not valid JSON"), ("[1, 2]", "must be a JSON object"),
    ('{"file": "mlp8.onnx"}', "no 'sha256'"), ('{"sha256": "00"}', "no 'file'"),
    ('{"file": "mlp8.onnx", "sha256": "00"}', "corrupt or stale"),
])
def test_a_malformed_card_is_named_in_the_error(tmp_path, card, words):
    _copy(tmp_path, "mlp8.onnx")
    (tmp_path / "mlp8.card.json").write_text(card)
    with pytest.raises(WeightsError, match=words) as err:
        check_weights(tmp_path / "mlp8.onnx")
    assert "mlp8" in str(err.value)


def test_a_corrupt_network_is_named(tmp_path):
    _copy(tmp_path, "mlp8.onnx")
    path = tmp_path / "mlp8.onnx"
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(WeightsError, match="corrupt or stale"):
        OnnxNet(path)


def test_the_ensemble_has_a_card_and_is_checked(tmp_path):
    from ginbots.estimators.ensemble import EnsembleEstimator

    assert check_weights(find_weights("ensemble.json"))["file"] == "ensemble.json"
    _copy(tmp_path, "ensemble.json")
    data = json.loads((tmp_path / "ensemble.json").read_text())
    data["ranges"][0][2] = "uniform"
    (tmp_path / "ensemble.json").write_text(json.dumps(data))
    with pytest.raises(WeightsError, match="corrupt or stale"):
        EnsembleEstimator.load(tmp_path / "ensemble.json")


def test_a_match_whose_every_game_fails_on_missing_weights_stops_with_that_cause(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "shankar_cnn.onnx").write_bytes(b"not a network")
    shutil.copy(find_weights("shankar_cnn.card.json"), tmp_path / "shankar_cnn.card.json")
    env = {**os.environ, "GINBOTS_WEIGHTS": str(tmp_path)}  # a fresh process: no network cached in memory
    res = subprocess.run([sys.executable, "-m", "ginbots", "match", "safe", "simple", "--games", "12",
                          "--no-progress"], env=env, capture_output=True, text=True, timeout=120)
    assert res.returncode == 3, res.stdout + res.stderr
    assert "shankar_cnn" in res.stderr and res.stderr.count("corrupt or stale") == 1


def test_a_garbage_npz_with_a_matching_card_names_its_file(tmp_path):
    """A tables file whose card was re-hashed to match still has to be the tables: the error names it."""
    import hashlib

    from ginbots.estimators.bayes import BayesianEstimator

    _copy(tmp_path, "bayes_tables.npz")
    path = tmp_path / "bayes_tables.npz"
    path.write_bytes(b"PK\x03\x04 this is no zip archive")
    card = json.loads((tmp_path / "bayes_tables.card.json").read_text())
    card["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (tmp_path / "bayes_tables.card.json").write_text(json.dumps(card))
    with pytest.raises(WeightsError, match="bayes_tables.npz is not the Bayesian tables"):
        BayesianEstimator.load(path)


def test_a_corrupt_second_weights_file_stops_the_champion_before_its_first_game(tmp_path):
    """In process too: the runner prepares each bot (both of the champion's estimators) before any game."""
    import os
    import subprocess
    import sys

    (tmp_path / "gbt.onnx").write_bytes(b"not a model")  # the default second estimator's trees
    shutil.copy(find_weights("gbt.card.json"), tmp_path / "gbt.card.json")
    env = {**os.environ, "GINBOTS_WEIGHTS": str(tmp_path)}
    res = subprocess.run([sys.executable, "-m", "ginbots", "match", "champion", "simple", "--games", "4",
                          "--no-progress"], env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0 and "gbt.onnx" in res.stderr and "corrupt or stale" in res.stderr
    assert "games to 100" not in res.stdout  # stopped before any game was counted
