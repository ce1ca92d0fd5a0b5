"""Training the learned estimators with PyTorch (extra ``train``) and freezing them to ONNX.

Playing never imports this module: the bots read the ONNX files through
onnxruntime.  Each network is written as ``weights/NAME.onnx`` beside a model
card ``NAME.card.json`` (architecture, parameter count, data, settings,
validation metrics, sha256).
"""

from __future__ import annotations

import datetime
import json
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ginbots import __version__
from ginbots.estimators.features import mlp8_input, shankar_input, simple_nn_input
from ginbots.estimators.metrics import mean_squared_difference, top_n_cards
from ginbots.estimators.nets import NET_FILES, run_in_sequence
from ginbots.estimators.snapshot import (  # noqa: F401 (split re-exported)
    Snapshot,
    bits,
    split_by_episode,
    with_known_cards,
)
from ginbots.estimators.weights import sha256_of

try:
    import torch
    from torch import nn
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("training needs PyTorch: pip install 'ginbots[train]' "
                      "(on this project's machines: pip install torch==2.13.0 onnx)") from exc

ARCHITECTURES = {
    "shankar-cnn": "plug-rule 4x13 -> rows 12341231423124312 (1x17x13) -> conv3x3x16 ReLU maxpool2 -> "
                   "conv3x3x32 ReLU maxpool2 -> conv3x3x64 ReLU -> dense 52 sigmoid",
    "simple-nn": "343 inputs (hand, pile, opp pickups/discards/declines, previous estimate, turn one-hot) -> "
                 "dense 100 sigmoid -> 85 sigmoid -> 60 sigmoid -> 52 sigmoid",
    "mlp8": "208 inputs (four 13x4 matrices: hand +1/pile -1, opp pickups, declines, discards by turn) -> "
            "dense 500 ReLU -> 500 ReLU -> 52 sigmoid",
}


def build_model(name: str) -> "nn.Module":
    if name == "shankar-cnn":
        return nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.Flatten(),
            nn.Linear(64 * 4 * 3, 52), nn.Sigmoid())
    if name == "simple-nn":
        return nn.Sequential(nn.Linear(343, 100), nn.Sigmoid(), nn.Linear(100, 85), nn.Sigmoid(),
                             nn.Linear(85, 60), nn.Sigmoid(), nn.Linear(60, 52), nn.Sigmoid())
    if name == "mlp8":
        return nn.Sequential(nn.Linear(208, 500), nn.ReLU(), nn.Linear(500, 500), nn.ReLU(),
                             nn.Linear(500, 52), nn.Sigmoid())
    raise ValueError(f"no network named {name!r}; choose from {', '.join(ARCHITECTURES)}")


def _numpy_fn(model: "nn.Module") -> Callable[[np.ndarray], np.ndarray]:
    def run(x: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            return model(torch.from_numpy(np.ascontiguousarray(x, dtype=np.float32))).numpy()
    return run


def _fit(model: "nn.Module", x: np.ndarray, y: np.ndarray, mask: np.ndarray, *, epochs: int, batch: int,
         lr: float, seed: int, log: Callable[[str], None]) -> list[float]:
    """Adam on binary cross-entropy over the cards the observer cannot place."""
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    xt, yt, mt = (torch.from_numpy(a) for a in (x, y, mask))
    losses = []
    for epoch in range(epochs):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total, seen = 0.0, 0
        for start in range(0, len(perm), batch):
            idx = perm[start:start + batch]
            p = model(xt[idx]).clamp(1e-6, 1 - 1e-6)
            m = mt[idx]
            loss = -((yt[idx] * p.log() + (1 - yt[idx]) * (1 - p).log()) * m).sum() / m.sum().clamp(min=1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
            seen += len(idx)
        losses.append(total / max(1, seen))
        log(f"  epoch {epoch + 1}/{epochs}: train loss {losses[-1]:.4f}")
    model.eval()
    return losses


def _validation(snap: Snapshot, raw: np.ndarray) -> dict[str, float]:
    truth = bits(snap.truth)
    mask = bits(snap.unknown & ~snap.opp_known)
    p = np.clip(raw, 1e-6, 1 - 1e-6)
    bce = -((truth * np.log(p) + (1 - truth) * np.log(1 - p)) * mask).sum() / max(1.0, mask.sum())
    return {"rows": int(len(snap)), "masked_bce": float(bce),
            "mean_squared_difference": float(mean_squared_difference(raw, truth).mean()),
            "top_n_cards": float(top_n_cards(raw, truth).mean())}


def export_onnx(model: "nn.Module", example: np.ndarray, path: Path) -> None:
    model.eval()
    torch.onnx.export(model, (torch.from_numpy(example[:1].astype(np.float32)),), str(path),
                      input_names=["x"], output_names=["p"], dynamic_axes={"x": {0: "batch"}, "p": {0: "batch"}},
                      dynamo=False)


def train_network(name: str, train: Snapshot, val: Snapshot, out_dir: str | Path, *, epochs: int = 4,
                  batch: int = 256, lr: float = 1e-3, generations: int = 3, seed: int = 0,
                  data_source: str = "", log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train ``name`` on ``train``, score it on ``val``, write the ONNX file and its card."""
    torch.manual_seed(seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    started = time.time()
    y, mask = bits(train.truth), bits(train.unknown & ~train.opp_known)
    history: list[list[float]] = []
    if name == "simple-nn":
        # Generation g learns from inputs that hold generation g-1's own estimates (document 001).
        model, fn = None, None
        for g in range(generations):
            if fn is None:
                prev = run_in_sequence(train, lambda s, p: p)  # generation 0: the uniform estimate throughout
            else:
                prev = run_in_sequence(train, lambda s, p, f=fn: with_known_cards(s, f(simple_nn_input(s, p))))
            x = simple_nn_input(train, prev)
            log(f"simple-nn generation {g + 1}/{generations}")
            model = build_model(name)
            history.append(_fit(model, x, y, mask, epochs=epochs, batch=batch, lr=lr, seed=seed + g, log=log))
            fn = _numpy_fn(model)
        assert model is not None and fn is not None
        val_raw = run_in_sequence(val, lambda s, p: with_known_cards(s, fn(simple_nn_input(s, p))))
        example = x
    else:
        encode = shankar_input if name == "shankar-cnn" else mlp8_input
        x = encode(train)
        model = build_model(name)
        history.append(_fit(model, x, y, mask, epochs=epochs, batch=batch, lr=lr, seed=seed, log=log))
        val_raw = with_known_cards(val, _numpy_fn(model)(encode(val)))
        example = x
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / NET_FILES[name]
    export_onnx(model, example, path)
    card = {
        "name": name,
        "file": path.name,
        "architecture": ARCHITECTURES[name],
        "parameters": int(sum(p.numel() for p in model.parameters())),
        "data": {"source": data_source, "train_rows": int(len(train)), "validation_rows": int(len(val))},
        "training": {"framework": f"torch {torch.__version__}", "optimizer": "Adam", "lr": lr, "batch": batch,
                     "epochs": epochs, "generations": generations if name == "simple-nn" else 1,
                     "loss": "binary cross-entropy on cards the observer cannot place", "seed": seed,
                     "train_loss_by_epoch": history, "seconds": round(time.time() - started, 1)},
        "validation": _validation(val, val_raw),
        "ginbots_version": __version__,
        "date": datetime.date.today().isoformat(),
        "sha256": sha256_of(path),
    }
    (out / (path.name.split(".")[0] + ".card.json")).write_text(json.dumps(card, indent=2) + "\n")
    return card
