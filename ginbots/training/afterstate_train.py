"""Training the champion's afterstate value (extra ``train``): rows from ``afterstate_data``, an MLP
regressing the hand's signed points, exported to ONNX with a model card.

``python -m ginbots.training.afterstate_train DATA OUT [--epochs N]`` writes ``OUT/afterstate_value.onnx``
and its card; the validation games (every fifth game) never train. The epoch kept is the one with
the lowest validation error.
"""

from __future__ import annotations

import argparse
import datetime
import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from ginbots import __version__
from ginbots.arena.chunks import chunk_files
from ginbots.estimators.weights import write_card
from ginbots.players.afterstate_value import AFTERSTATE_NET, AFTERSTATE_WIDTH, afterstate_input

from .afterstate_data import FIELDS, OPPONENT_POOL
from .offense_train import data_hash

#: Labels are divided by this while training (points are large; the network's output is rescaled).
POINT_SCALE = 25.0
HIDDEN = (256, 128)


def load(folder: str | Path) -> dict[str, np.ndarray]:
    """Every row of every chunk in ``folder``."""
    paths = chunk_files(folder)
    if not paths:
        raise FileNotFoundError(f"no chunks in {folder}; run `python -m ginbots.training.afterstate_data` first")
    parts = []
    for p in paths:
        with np.load(p) as data:
            if len(data["points"]):
                parts.append({f: data[f] for f in FIELDS})
    return {f: np.concatenate([p[f] for p in parts]) for f in FIELDS}


def inputs(data: dict[str, np.ndarray]) -> np.ndarray:
    return afterstate_input(data["after"], data["thrown"], data["pile"], data["opp_known"], data["picked"],
                            data["declined"], data["opp_discards"], data["holds"], data["stock"], data["opp_turns"])


def build_model(seed: int) -> Any:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    layers: list[nn.Module] = []
    width = AFTERSTATE_WIDTH
    for h in HIDDEN:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def train(data_dir: str | Path, out_dir: str | Path, *, epochs: int = 8, batch: int = 512, lr: float = 1e-3,
          weight_decay: float = 1e-5, seed: int = 0) -> Path:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    data = load(data_dir)
    x = inputs(data)
    y = (data["points"].astype(np.float32) / POINT_SCALE)[:, None]
    game = data["episode"] // 200
    val = game % 5 == 0
    xt, yt, xv, yv = (torch.from_numpy(a) for a in (x[~val], y[~val], x[val], y[val]))
    model = build_model(seed)
    model[-1].bias.data.fill_(float(yt.mean()))
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)
    baseline = float(((yv - yt.mean()) ** 2).mean()) * POINT_SCALE ** 2
    history, best, best_state = [], np.inf, None
    start = time.time()
    for epoch in range(1, epochs + 1):
        model.train()
        order = torch.randperm(len(xt), generator=gen)
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            loss = nn.functional.mse_loss(model(xt[idx]), yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(idx)
        model.eval()
        with torch.no_grad():
            v = float(nn.functional.mse_loss(model(xv), yv)) * POINT_SCALE ** 2
        history.append({"epoch": epoch, "train_mse": total / len(xt) * POINT_SCALE ** 2, "validation_mse": v})
        print(f"epoch {epoch}: train {history[-1]['train_mse']:.1f} validation {v:.1f} (mean-only {baseline:.1f})",
              flush=True)
        if v < best:
            best, best_state = v, {k: t.clone() for k, t in model.state_dict().items()}
    model.load_state_dict(best_state)
    scaled = nn.Sequential(model, nn.Linear(1, 1))
    scaled[1].weight.data.fill_(POINT_SCALE)
    scaled[1].bias.data.zero_()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / AFTERSTATE_NET
    scaled.eval()
    torch.onnx.export(scaled, (torch.from_numpy(x[:1]),), str(path), input_names=["x"], output_names=["points"],
                      dynamic_axes={"x": {0: "batch"}, "points": {0: "batch"}}, dynamo=False)
    write_card(path, {
        "name": "champion afterstate value",
        "architecture": f"MLP {AFTERSTATE_WIDTH} -> " + " -> ".join(f"{h} ReLU" for h in HIDDEN) + " -> 1",
        "input": "ginbots.players.afterstate_value.afterstate_input: hand after the discard, its melded cards, "
                 "the card thrown, the pile, the opponent's sure / taken / declined / thrown cards, the opponent "
                 "model's holding chances (52 each); deadwood/50, stock/31, opponent turns/30, knockable",
        "target": "the signed points the hand paid the discarding champion",
        "data": {"folder": str(data_dir), "sha256": data_hash(Path(data_dir)), "rows": int(len(x)),
                 "train_rows": int((~val).sum()), "validation_rows": int(val.sum()),
                 "games": int(len(np.unique(game))), "opponents": list(OPPONENT_POOL),
                 "explored_rows": int(data["explored"].sum()), "points_mean": float(data["points"].mean()),
                 "points_std": float(data["points"].std())},
        "training": {"framework": f"torch {torch.__version__}", "optimizer": "Adam", "loss": "MSE", "lr": lr,
                     "weight_decay": weight_decay, "batch": batch, "epochs": epochs, "seed": seed,
                     "split": "every fifth game held out", "kept": "lowest validation MSE",
                     "validation_mse_mean_only": baseline, "history": history,
                     "seconds": round(time.time() - start, 1)},
        "ginbots": __version__,
        "date": datetime.date.today().isoformat(),
    })
    print(json.dumps({"path": str(path), "best_validation_mse": best, "mean_only": baseline}))
    return path


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    train(args.data, args.out, epochs=args.epochs, seed=args.seed)


if __name__ == "__main__":
    main()
