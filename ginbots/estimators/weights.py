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


def write_card(path: str | Path, card: dict[str, Any]) -> Path:
    """Write ``card`` beside ``path`` with the file's name and sha256 filled in; returns the card's path."""
    path = Path(path)
    full = {**card, "file": path.name, "sha256": sha256_of(path)}
    out = card_path(path)
    out.write_text(json.dumps(full, indent=2) + "\n")
    return out


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
    """The model card beside ``path``: a JSON object naming its ``file`` and that file's ``sha256``."""
    card = card_path(path)
    try:
        data = json.loads(card.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise WeightsError(f"model card {card} for weights file {path} is missing") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise WeightsError(f"model card {card} is not valid JSON: {exc}") from None
    except OSError as exc:
        raise WeightsError(f"model card {card} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise WeightsError(f"model card {card} must be a JSON object, got {type(data).__name__}")
    for key in ("file", "sha256"):
        if not isinstance(data.get(key), str):
            raise WeightsError(f"model card {card} has no {key!r} string (every card names its file and sha256)")
    return data


def check_weights(path: str | Path) -> dict[str, Any]:
    """The model card of ``path`` after checking that it describes this file and the file's sha256."""
    path = Path(path)
    card = read_card(path)
    if card["file"] != path.name:
        raise WeightsError(f"model card {card_path(path)} describes {card['file']!r}, not {path.name!r}: the card "
                           "and the file do not belong together")
    expected = card["sha256"]
    if not path.exists():
        raise WeightsError(f"weights file {path} is missing (expected sha256 {expected})")
    try:
        actual = sha256_of(path)
    except OSError as exc:
        raise WeightsError(f"weights file {path} cannot be read: {exc}") from None
    if actual != expected:
        raise WeightsError(f"weights file {path} is corrupt or stale: sha256 {actual}, "
                           f"its model card {card_path(path).name} expects {expected}")
    return card


class OnnxNet:
    """A checked ONNX network run by onnxruntime on the CPU, one thread, batched calls."""

    def __init__(self, path: str | Path, output: str | None = None) -> None:
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
        names = [o.name for o in self.session.get_outputs()]
        if output is not None and output not in names:
            raise WeightsError(f"weights file {self.path} has no output named {output!r} (it has {', '.join(names)})")
        self.outputs = [output or names[0]]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.session.run(self.outputs, {self.input_name: np.ascontiguousarray(x, dtype=np.float32)})[0]
