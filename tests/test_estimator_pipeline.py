"""The whole estimator pipeline in miniature: generate, tabulate, train, export, load, play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginbots.cli import main
from ginbots.estimators import make_estimator
from ginbots.game.engine import play_game
from ginbots.game.melds import deadwood_after_discards
from ginbots.players.baselines import SimplePlayer, TrackingSimplePlayer
from ginbots.training.estimator_data import generate, load


def test_generation_resumes_and_is_deterministic(tmp_path: Path) -> None:
    paths = generate(tmp_path, 6, chunk=2, seed=3, progress=False)
    assert len(paths) == 3
    first = load(tmp_path)
    paths[1].unlink()
    generate(tmp_path, 6, chunk=2, seed=3, progress=False)  # regenerates only the missing chunk
    again = load(tmp_path)
    for a, b in zip(first.to_arrays().values(), again.to_arrays().values()):
        np.testing.assert_array_equal(a, b)

    # a folder holds one recording: resuming it with another seed or chunk size is refused, by name
    for other, said in (({"seed": 4, "chunk": 2}, "seed: 3 on disk, 4 asked"),
                        ({"seed": 3, "chunk": 3}, "chunk: 2 on disk, 3 asked")):
        with pytest.raises(ValueError, match=f"recorded with other settings \\({said}\\)"):
            generate(tmp_path, 6, progress=False, **other)
    assert len(list(tmp_path.glob("chunk_*.npz"))) == 3  # nothing written by the refused runs
    generate(tmp_path, 8, chunk=2, seed=3, progress=False)  # the same recording, extended: allowed
    assert len(load(tmp_path).to_arrays()["episode"]) > len(first.to_arrays()["episode"])


class SamplingDiscarder(TrackingSimplePlayer):
    """Simple, but among its minimum-deadwood discards it throws the one fewest sampled opponent hands want."""

    estimator_name = "mlp8"

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.estimator = make_estimator(self.estimator_name)
        self.np_rng = np.random.default_rng(self.seed)

    def discard(self) -> int:
        outcomes = dict(deadwood_after_discards(self.hand))
        legal = [c for c, dw in outcomes.items() if self.legal_discards() >> c & 1]
        best = min(outcomes[c] for c in legal)
        choices = [c for c in legal if outcomes[c] == best]
        hands = self.estimator.sample(self.knowledge, 50, self.np_rng)
        return min(choices, key=lambda c: hands[:, c].mean())


def test_tiny_pipeline_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data, weights = tmp_path / "data", tmp_path / "weights"
    assert main(["estimators", "generate", "--games", "8", "--chunk", "4", "--workers", "1", "--out", str(data)]) == 0
    assert main(["estimators", "bayes", "--data", str(data), "--out", str(weights)]) == 0
    assert main(["estimators", "train", "--data", str(data), "--out", str(weights), "--epochs", "1",
                 "--generations", "2"]) == 0
    for name in ("bayes_tables.npz", "shankar_cnn.onnx", "simple_nn.onnx", "mlp8.onnx"):
        assert (weights / name).exists() and (weights / (name.split(".")[0] + ".card.json")).exists()
    monkeypatch.setenv("GINBOTS_WEIGHTS", str(weights))
    for name in ("bayes", "shankar-cnn", "simple-nn", "mlp8"):
        est = make_estimator(name)
        assert str(weights) in str(getattr(getattr(est, "net", None), "path", weights))
        SamplingDiscarder.estimator_name = name
        result = play_game((SamplingDiscarder(seed=1), SimplePlayer(seed=2)), seed=11)
        assert result.forfeit is None and result.hands
