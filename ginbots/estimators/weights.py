"""Finding, checking and loading frozen weights: ONNX networks and tables, each with a model card.

Every weights file ``NAME.EXT`` sits beside ``NAME.card.json``, whose
``sha256`` is checked before the file is used, so a truncated download or a
stale file fails loudly with the file named instead of playing badly.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np


class WeightsError(Exception):
    """A weights file is missing, corrupt or does not match its model card."""


def weights_dirs() -> list[Path]:
    """Where weights are looked up: ``$GINBOTS_WEIGHTS``, the checkout's ``weights/``, the installed copy."""
    dirs = []
    if os.environ.get("GINBOTS_WEIGHTS"):
        dirs.append(Path(os.environ["GINBOTS_WEIGHTS"]))
    dirs.append(Path(__file__).resolve().parents[2] / "weights")
    try:
        from importlib.resources import files

        dirs.append(Path(str(files("ginbots.weights"))))
    except (ImportError, ModuleNotFoundError, TypeError):
        pass
    return dirs


def find_weights(filename: str) -> Path:
    """The first ``filename`` in ``weights_dirs()``; WeightsError lists where it looked."""
    if os.sep in filename or (os.altsep and os.altsep in filename):
        path = Path(filename)
        if path.exists():
            return path
        raise WeightsError(f"weights file {path} does not exist")
    tried = []
    for d in weights_dirs():
        path = d / filename
        if path.exists():
            return path
        tried.append(str(path))
    raise WeightsError(f"weights file {filename} not found (looked in {', '.join(tried)}); "
                       f"regenerate it (weights/README.md lists the commands) or reinstall ginbots")


def card_path(path: str | Path) -> Path:
    path = Path(path)
    return path.with_name(path.name.split(".")[0] + ".card.json")


def sha256_of(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_card(path: str | Path) -> dict[str, Any]:
    card = card_path(path)
    try:
        return json.loads(card.read_text())
    except FileNotFoundError:
        raise WeightsError(f"model card {card} for weights file {path} is missing") from None
    except json.JSONDecodeError as exc:
        raise WeightsError(f"model card {card} is not valid JSON: {exc.msg}") from None


def check_weights(path: str | Path) -> dict[str, Any]:
    """The model card of ``path`` after checking the file's sha256 against it."""
    path = Path(path)
    card = read_card(path)
    expected = card.get("sha256")
    if not path.exists():
        raise WeightsError(f"weights file {path} is missing (expected sha256 {expected})")
    actual = sha256_of(path)
    if actual != expected:
        raise WeightsError(f"weights file {path} is corrupt or stale: sha256 {actual}, "
                           f"its model card {card_path(path).name} expects {expected}")
    return card


class OnnxNet:
    """A checked ONNX network run by onnxruntime on the CPU, one thread, batched calls."""

    def __init__(self, path: str | Path) -> None:
        import onnxruntime as ort

        self.path = Path(path)
        self.card = check_weights(self.path)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own types; name the file and the cause
            raise WeightsError(f"weights file {self.path} could not be loaded by onnxruntime: {exc}") from None
        self.input_name = self.session.get_inputs()[0].name

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.session.run(None, {self.input_name: np.ascontiguousarray(x, dtype=np.float32)})[0]
