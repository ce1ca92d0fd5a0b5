"""Training document 000's offensive hand score (extra ``train``): its three networks, its schedule.

The document trains each network with MSE and Adam, batch 64, 96 epochs with the
learning rate divided by ten every 32, on an 80:20 split; identical states get
the average of their labels ("the expected score is the average"). Training
checkpoints every epoch beside its output and resumes from there, so a stopped
run loses at most one epoch. Writes an ONNX file and a model card per network.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ginbots import __version__
from ginbots.arena.chunks import chunk_files
from ginbots.players.dual_inception import INPUT_WIDTH, network_input, weights_file

from .offense import _samples_of, load

ARCHITECTURES = {
    "dual-inception": "x and o (1x4x13 each): conv 4@2x2, 4@3x3, 4@4x4, no padding, ReLU, flattened (272 each) + m (4) "
                      "= 548 -> dense 16 ReLU -> 1 linear (Figure 3a)",
    "mlp": "x (52) + o (52) + m (4) = 108 -> dense 16 ReLU -> 1 linear (Figure 3b)",
    "mlp-i": "126 interaction terms of x (same-rank pairs, next-rank same-suit pairs) + o (52) + m (4) = 182 -> "
             "dense 16 ReLU -> 1 linear (Figure 3c)",
}


def interaction_pairs() -> np.ndarray:
    """(126, 2) card pairs whose product MLP-i sees: each card with its same-rank and next-rank neighbours."""
    pairs = []
    for rank in range(13):
        for s1 in range(4):
            for s2 in range(s1 + 1, 4):
                pairs.append((s1 * 13 + rank, s2 * 13 + rank))
    for suit in range(4):
        for rank in range(12):
            pairs.append((suit * 13 + rank, suit * 13 + rank + 1))
    return np.array(pairs)


def build_model(name: str) -> Any:
    """The torch module of one architecture; it takes the packed (B, 108) rows."""
    import torch
    from torch import nn

    class DualInception(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.towers = nn.ModuleList(
                nn.ModuleList(nn.Conv2d(1, 4, k) for k in (2, 3, 4)) for _ in range(2))
            self.dense = nn.Linear(548, 16)
            self.out = nn.Linear(16, 1)

        def forward(self, rows: "torch.Tensor") -> "torch.Tensor":
            parts = []
            for i, tower in enumerate(self.towers):
                grid = rows[:, i * 52:(i + 1) * 52].reshape(-1, 1, 4, 13)
                parts += [torch.relu(conv(grid)).flatten(1) for conv in tower]
            parts.append(rows[:, 104:108])
            return self.out(torch.relu(self.dense(torch.cat(parts, dim=1))))

    class MLPi(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            pairs = torch.from_numpy(interaction_pairs())
            self.register_buffer("a", pairs[:, 0].clone())
            self.register_buffer("b", pairs[:, 1].clone())
            self.net = nn.Sequential(nn.Linear(182, 16), nn.ReLU(), nn.Linear(16, 1))

        def forward(self, rows: "torch.Tensor") -> "torch.Tensor":
            inter = rows[:, self.a] * rows[:, self.b]
            return self.net(torch.cat([inter, rows[:, 52:108]], dim=1))

    if name == "dual-inception":
        return DualInception()
    if name == "mlp":
        return nn.Sequential(nn.Linear(INPUT_WIDTH, 16), nn.ReLU(), nn.Linear(16, 1))
    if name == "mlp-i":
        return MLPi()
    raise ValueError(f"no offensive-score model {name!r}; choose from {', '.join(ARCHITECTURES)}")


def keras_initialise(model: Any) -> None:
    """Keras's defaults, as the authors' networks started: glorot-uniform kernels, zero biases
    (torch draws both from a fan-in uniform)."""
    from torch import nn

    for module in model.modules():
        if isinstance(module, (nn.Conv2d, nn.Linear)):
            nn.init.xavier_uniform_(module.weight)
            nn.init.zeros_(module.bias)


def _output_layer(model: Any) -> Any:
    """The final linear layer of a model from ``build_model``."""
    return model.out if hasattr(model, "out") else (model.net if hasattr(model, "net") else model)[-1]


def features(data: dict[str, np.ndarray], kind: str = "document") -> np.ndarray:
    """Packed network rows of loaded data (the same encoding the player uses, ``features=kind``)."""
    out = np.empty((len(data["hands"]), INPUT_WIDTH), dtype=np.float32)
    for start in range(0, len(out), 50_000):
        stop = start + 50_000
        out[start:stop] = network_input(data["hands"][start:stop], data["estimate"][start:stop], kind)
    return out


def base_dataset(folder: str) -> str:
    """The dataset of a data folder name (``random-256-deck-all`` -> ``random-256``)."""
    name = folder
    for suffix in ("-all", "-worst", "-deck"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    _samples_of(name)
    return name


def average_identical(data: dict[str, np.ndarray], x: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, int]:
    """One row per distinct network input, its label the mean of the rows that share it.

    Returns the reduced data (first row's deal and flags), inputs, and how many rows were merged away.
    """
    keys = np.ascontiguousarray(x).view(np.dtype((np.void, x.dtype.itemsize * x.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if len(first) == len(x):
        return data, x, 0
    sums = np.bincount(inverse, weights=data["score"].astype(np.float64))
    counts = np.bincount(inverse)
    order = np.argsort(first)  # keep the original row order
    kept = first[order]
    reduced = {k: v[kept] for k, v in data.items()}
    reduced["score"] = (sums / counts)[order].astype(np.float32)
    return reduced, x[kept], len(x) - len(kept)


def data_hash(folder: Path) -> str:
    """sha256 over the chunk files of a dataset, in order: which data a network saw."""
    h = hashlib.sha256()
    for path in chunk_files(folder):
        h.update(path.name.encode())
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()


def _training_rows(dataset: str, data_dir: str | Path, rows: str, average: bool, validation: float,
                   seed: int, kind: str = "document", worst: float = 0.0) -> dict[str, Any]:
    """A dataset folder as network inputs and labels, split 80:20 by deal so no round sits on both sides."""
    base = base_dataset(dataset)
    folder = Path(data_dir) / dataset
    data = load(folder)
    if rows == "rp" and base != "simple":
        data = {k: v[data["rp"]] for k, v in data.items()}
    if "worst" in data:
        # Keep the worst-sample rows of a ``worst`` share of the deals (chosen by the seed), none at 0.
        deals = np.unique(data["deal"][data["worst"]])
        kept = np.random.default_rng(seed + 1).random(len(deals)) < worst
        drop = data["worst"] & ~np.isin(data["deal"], deals[kept])
        data = {k: v[~drop] for k, v in data.items()}
    raw_rows = len(data["score"])
    x = features(data, kind)
    merged = 0
    if average:
        data, x, merged = average_identical(data, x)
    y = data["score"].astype(np.float32)[:, None]
    deals = np.unique(data["deal"])
    held = np.random.default_rng(seed).choice(deals, size=max(1, int(len(deals) * validation)), replace=False)
    return {"base": base, "folder": folder, "x": x, "y": y, "is_val": np.isin(data["deal"], held),
            "raw_rows": raw_rows, "merged": merged, "deals": len(deals)}


def _fit(model: Any, split: dict[str, Any], config: dict[str, Any], checkpoint: Path,
         log: Callable[[str], None]) -> list[dict[str, float]]:
    """Adam on MSE with step decay, one checkpoint per epoch; a checkpoint of the same configuration resumes."""
    import torch

    x, y, is_val = split["x"], split["y"], split["is_val"]
    xt, yt = torch.from_numpy(x[~is_val]), torch.from_numpy(y[~is_val])
    xv, yv = torch.from_numpy(x[is_val]), torch.from_numpy(y[is_val])
    name = f"{config['model']} on {config['dataset']}"
    if config["bias"] == "mean":
        # Scores of best-of-N data centre far from 0 (RP keeps its best sample); learning that offset through
        # the hidden ReLUs first can switch them off for good.
        with torch.no_grad():
            _output_layer(model).bias.fill_(float(yt.mean()))
    # Keras's Adam (the authors' framework) adds 1e-7 to the denominator, torch's 1e-8.
    opt = torch.optim.Adam(model.parameters(), lr=config["lr"], eps=1e-7 if config["init"] == "keras" else 1e-8)
    schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=config["decay"], gamma=0.1)
    gen = torch.Generator().manual_seed(config["seed"])
    history: list[dict[str, float]] = []
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        if saved["config"] == config:
            model.load_state_dict(saved["model"])
            opt.load_state_dict(saved["opt"])
            schedule.load_state_dict(saved["schedule"])
            gen.set_state(saved["gen"])
            history = saved["history"]
            log(f"  {name}: resuming after epoch {len(history)}")
        else:
            log(f"  {name}: {checkpoint.name} is for another configuration; starting afresh")
    batch, epochs = config["batch"], config["epochs"]
    for epoch in range(len(history), epochs):
        model.train()
        perm = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for start in range(0, len(perm), batch):
            idx = perm[start:start + batch]
            loss = torch.mean((model(xt[idx]) - yt[idx]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        schedule.step()
        model.eval()
        with torch.no_grad():
            val = float(torch.mean((model(xv) - yv) ** 2))
        history.append({"epoch": epoch + 1, "train_mse": round(total / len(xt), 3), "validation_mse": round(val, 3)})
        log(f"  {name}: epoch {epoch + 1}/{epochs} train {history[-1]['train_mse']:.2f} validation {val:.2f}")
        tmp = checkpoint.with_suffix(".tmp")
        torch.save({"config": config, "model": model.state_dict(), "opt": opt.state_dict(),
                    "schedule": schedule.state_dict(), "gen": gen.get_state(), "history": history}, tmp)
        tmp.replace(checkpoint)
    return history


def train(model_name: str, dataset: str, data_dir: str | Path, out_dir: str | Path, *, epochs: int = 96,
          decay_every: int = 32, batch: int = 64, lr: float = 1e-3, validation: float = 0.2, seed: int = 0,
          rows: str = "rp", bias_init: str = "default", average: bool = True, threads: int | None = None,
          features_kind: str = "document", worst: float = 0.0, init: str = "torch",
          log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train one architecture on one dataset folder (MSE, Adam, step decay x0.1), export ONNX and a model card.

    ``rows`` "rp" keeps RP's rows of a Random-N dataset (a Simple dataset has no RP and keeps every row); "all"
    keeps both seats. ``bias_init`` "mean" starts the output bias at the mean training score instead of torch's
    default initialisation. ``average`` merges identical inputs into one row with their mean label.
    ``features_kind``: the macro features (``dual_inception.FEATURES``); ``worst``: the share of deals
    whose worst sample is trained on too, where the data recorded it (``offense generate --worst``); ``init``: torch's
    default initialisation or Keras's (glorot-uniform kernels, zero biases, Adam eps 1e-7), as the
    authors trained.
    """
    import torch

    from ginbots.estimators.weights import sha256_of

    from .estimator_train import export_onnx

    if rows not in ("rp", "all"):
        raise ValueError(f"rows must be 'rp' or 'all', got {rows!r}")
    if bias_init not in ("default", "mean"):
        raise ValueError(f"bias_init must be 'default' or 'mean', got {bias_init!r}")
    if threads:
        torch.set_num_threads(threads)
    torch.manual_seed(seed)
    started = time.time()
    if init not in ("torch", "keras"):
        raise ValueError(f"init must be 'torch' or 'keras', got {init!r}")
    split = _training_rows(dataset, data_dir, rows, average, validation, seed, features_kind, worst)
    x, y, is_val, base = split["x"], split["y"], split["is_val"], split["base"]
    model = build_model(model_name)
    if init == "keras":
        keras_initialise(model)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / weights_file(model_name, dataset)  # the folder's name: variants never overwrite the base
    config = {"model": model_name, "dataset": dataset, "rows": int(len(x)), "epochs": epochs, "decay": decay_every,
              "batch": batch, "lr": lr, "seed": seed, "kept": rows, "bias": bias_init, "average": average,
              "features": features_kind, "worst": float(worst), "init": init}
    checkpoint = out / (path.name.split(".")[0] + ".checkpoint.pt")
    history = _fit(model, split, config, checkpoint, log)
    export_onnx(model, x[:1], path)
    card = {
        "name": f"offense {model_name} / {base}",
        "file": path.name,
        "architecture": ARCHITECTURES[model_name],
        "parameters": int(sum(p.numel() for p in model.parameters())),
        "input": "packed float32 rows: x hand after the discard (52, suit-major 4x13), o ISRU Bayesian estimate "
                 "(52), m = " + ("deadwood/10, sets, runs, hit count/10" if features_kind == "document" else
                                 "the authors' code's raw runs, sets, deadwood, hits"),
        "features": features_kind,
        "target": "the round's score for this player (+s won, -s lost), gamma = 1",
        "data": {"dataset": base, "folder": dataset, "sha256": data_hash(split["folder"]),
                 "resample": "deck" if "-deck" in dataset else ("stock" if base != "simple" else "none"),
                 "rows_recorded": int(split["raw_rows"]), "identical_rows_merged": int(split["merged"]),
                 "rows": int(len(x)), "train_rows": int((~is_val).sum()), "validation_rows": int(is_val.sum()),
                 "deals": int(split["deals"]),
                 "stages": "every discard" if dataset.endswith("-all") else "last discard of each player per round",
                 "rows_kept": "RP's rows only" if rows == "rp" and base != "simple" else "both seats",
                 "score_mean": float(y.mean()), "score_std": float(y.std())},
        "training": {"framework": f"torch {torch.__version__}", "optimizer": "Adam", "loss": "MSE", "lr": lr,
                     "batch": batch, "epochs": epochs, "split": f"{1 - validation:.0%} train by deal",
                     "output_bias_init": bias_init, "lr_decay": f"x0.1 every {decay_every} epochs",
                     "init": init, "worst_sample_share": float(worst),
                     "seed": seed, "history": history, "seconds_this_run": round(time.time() - started, 1)},
        "validation_mse": history[-1]["validation_mse"],
        "ginbots_version": __version__,
        "date": datetime.date.today().isoformat(),
        "sha256": sha256_of(path),
    }
    (out / (path.name.split(".")[0] + ".card.json")).write_text(json.dumps(card, indent=2) + "\n")
    checkpoint.unlink(missing_ok=True)
    return card
