"""Training the champion's afterstate value (extra ``train``): rows from ``afterstate_data``, an MLP
regressing the hand's signed points, exported to ONNX with a model card.

``python -m ginbots.training.afterstate_train DATA OUT [--epochs N]`` writes ``OUT/afterstate_value.onnx``
and its card; the validation games (every fifth game) never train. The epoch kept is the one with
the lowest validation error. ``--play-on`` fits the value of playing on (rows without a knock) and
``--knock`` the value of knocking now (``knock_data``'s rows, labelled exactly against the true hand).
"""

from __future__ import annotations

import argparse
import itertools
import datetime
import json
import time
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ginbots import __version__
from ginbots.arena.chunks import SETTINGS_FILE, chunk_files
from ginbots.estimators.weights import sha256_of, write_card
from ginbots.players.afterstate_value import (
    AFTERSTATE_NET,
    AFTERSTATE_WIDTH,
    KNOCK_NET,
    PLAY_ON_NET,
    afterstate_input,
)

from .afterstate_data import FIELDS, OPPONENT_POOL
from .knock_data import KNOCK_FIELDS
from .offense_train import data_hash

#: Labels are divided by this while training (points are large; the network's output is rescaled).
POINT_SCALE = 25.0
HIDDEN = (128, 64)
#: Dropout after each hidden layer: the labels are one hand's points, very noisy for one position.
DROPOUT = 0.2
PLANES = 9  # the 52-card planes at the front of each row (afterstate_input)
#: Episode numbers of the k-th data folder start at k x this (a multiple of 1,000, so every fifth game
#: of each folder is held out, as of one; afterstate_data numbers episodes up to about 200 x its games).
FOLDER_EPISODES = 10 ** 12


def load(folder: str | Path | Sequence[str | Path], fields: tuple[str, ...] = FIELDS) -> dict[str, np.ndarray]:
    """Every row of every chunk in ``folder``, or in each of several folders, in order (``fields``: its
    recorder's, ``KNOCK_FIELDS`` for ``knock_data``). The k-th folder's episodes are numbered from
    k x ``FOLDER_EPISODES``, so that its games stay apart from the others' (and every fifth is held out)."""
    parts = []
    for k, one in enumerate(data_folders(folder)):
        paths = chunk_files(one)
        if not paths:
            recorder = "knock_data" if fields == KNOCK_FIELDS else "afterstate_data"
            raise FileNotFoundError(f"no chunks in {one}; run `python -m ginbots.training.{recorder}` first")
        for p in paths:
            with np.load(p) as data:
                if len(data["points"]):
                    part = {f: data[f] for f in fields}
                    part["episode"] = part["episode"].astype(np.int64) + k * FOLDER_EPISODES
                    parts.append(part)
    return {f: np.concatenate([p[f] for p in parts]) for f in fields}


def data_folders(folder: str | Path | Sequence[str | Path]) -> list[Path]:
    """One data folder or several, as a list."""
    return [Path(folder)] if isinstance(folder, (str, Path)) else [Path(f) for f in folder]


def opponents_of(folder: Path) -> list[str]:
    """The opponents a data folder was recorded against (its settings; older folders: the pool)."""
    settings = folder / SETTINGS_FILE
    kept = json.loads(settings.read_text(encoding="utf-8")) if settings.exists() else {}
    return list(kept.get("opponents", OPPONENT_POOL))


def held_out(episode: np.ndarray, pool_sizes: Sequence[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Each row's game and whether it is held out for validation (every fifth game, all its rows).

    Game g of a folder is played against opponent g mod n of its pool. With ``pool_sizes`` (each folder's
    n, in ``load``'s order), a folder whose n is a multiple of five shifts its held-out game by one each
    round of the pool, so that every opponent is both trained on and validated; plain "every fifth game"
    would hold out all of one opponent's games and none of the others'."""
    game = episode // 200  # afterstate_data numbers a row's episode (2 x game + seat) x 100 + hand
    held = game % 5 == 0
    for k, n in enumerate(pool_sizes):
        if n % 5 == 0:
            mine = episode // FOLDER_EPISODES == k
            local = game[mine] - k * (FOLDER_EPISODES // 200)
            held[mine] = (local + local // n) % 5 == 0
    return game, held


def pool_sizes_of(folder: str | Path | Sequence[str | Path]) -> list[int]:
    """How many opponents each data folder's pool has (``held_out``'s ``pool_sizes``)."""
    return [len(opponents_of(f)) for f in data_folders(folder)]


def inputs(data: dict[str, np.ndarray]) -> np.ndarray:
    return afterstate_input(data["after"], data["thrown"], data["pile"], data["opp_known"], data["picked"],
                            data["declined"], data["opp_discards"], data["holds"], data["stock"], data["opp_turns"])


def build_model(seed: int, hidden: tuple[int, ...] = HIDDEN) -> Any:
    import torch
    from torch import nn

    torch.manual_seed(seed)
    layers: list[nn.Module] = []
    width = AFTERSTATE_WIDTH
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU(), nn.Dropout(DROPOUT)]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


def load_exported(model: Any, path: str | Path) -> None:
    """Start ``model`` (``build_model``'s, the same widths) from a network this module exported (``--init``:
    fine-tuning a shipped network on new data). A file of other widths or another scale is refused by name."""
    import onnx
    import torch
    from onnx import numpy_helper

    try:
        found = {i.name: numpy_helper.to_array(i) for i in onnx.load(str(path)).graph.initializer}
    except Exception as exc:  # a missing or corrupt file: onnx raises several kinds
        raise ValueError(f"--init {path}: not a readable ONNX network ({exc})") from exc
    state = model.state_dict()
    wrong = [k for k, t in state.items() if found.get(f"0.{k}", np.zeros(0)).shape != tuple(t.shape)]
    scale = found.get("1.weight", np.zeros(0)).ravel()
    if wrong or list(scale) != [POINT_SCALE]:
        raise ValueError(f"--init {path}: not an afterstate network of this shape ({', '.join(wrong) or 'scale'} "
                         f"differs; give --hidden the widths it was trained with)")
    model.load_state_dict({k: torch.from_numpy(found[f"0.{k}"].copy()) for k in state})


def permute_suits(x: "torch.Tensor", perms: "torch.Tensor") -> "torch.Tensor":
    """Rows with the suits of every card plane permuted, one permutation (of 0-3) per row: the rules
    treat suits alike, so each position stands for 24 (augmentation)."""
    import torch

    planes = x[:, :PLANES * 52].reshape(len(x), PLANES, 4, 13)
    index = perms[:, None, :, None].expand(-1, PLANES, -1, 13)
    moved = torch.gather(planes, 2, index).reshape(len(x), PLANES * 52)
    return torch.cat([moved, x[:, PLANES * 52:]], dim=1)


def td_targets(outcome: np.ndarray, episode: np.ndarray, values: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) targets along each hand's rows (in the order recorded): the last row of a hand keeps
    its outcome, an earlier row mixes the value of the next position, ``(1 - lam) V(next)``, with
    ``lam`` x the next row's target. Lower variance than the outcome alone, for a biased value."""
    target = outcome.astype(np.float32).copy()
    for i in range(len(target) - 2, -1, -1):
        if episode[i + 1] == episode[i]:
            target[i] = (1 - lam) * values[i + 1] + lam * target[i + 1]
    return target


def _fit(model, x, y, val, *, epochs: int, batch: int, lr: float, weight_decay: float, seed: int,
         label: str = "", fresh: bool = True) -> tuple[list[dict], float]:
    """Train ``model`` on rows ``~val`` against ``y`` (scaled points), keep the epoch whose validation
    error (against ``y[val]``) is lowest (with ``fresh=False``, a started network: epoch 0, the network
    as given, counts too); returns the history and that error in points squared."""
    import torch
    from torch import nn

    xt, yt = torch.from_numpy(x[~val]), torch.from_numpy(y[~val])
    xv, yv = torch.from_numpy(x[val]), torch.from_numpy(y[val])
    if fresh:
        model[-1].bias.data.fill_(float(yt.mean()))
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)
    gen = torch.Generator().manual_seed(seed)
    suit_perms = torch.tensor(list(itertools.permutations(range(4))))
    history, best, best_state = [], np.inf, None
    for epoch in range(0 if not fresh else 1, epochs + 1):  # epoch 0: a started network as given
        trained = {}
        if epoch:
            model.train()
            order = torch.randperm(len(xt), generator=gen)
            total = 0.0
            for i in range(0, len(order), batch):
                idx = order[i:i + batch]
                rows = permute_suits(xt[idx], suit_perms[torch.randint(24, (len(idx),), generator=gen)])
                loss = nn.functional.mse_loss(model(rows), yt[idx])
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            trained = {"train_mse": total / len(xt) * POINT_SCALE ** 2}
        model.eval()
        with torch.no_grad():
            v = float(nn.functional.mse_loss(model(xv), yv)) * POINT_SCALE ** 2
        history.append({"epoch": epoch, **trained, "validation_mse": v})
        shown = f"train {trained['train_mse']:.1f}" if epoch else "(as started):"
        print(f"{label}epoch {epoch}: {shown} validation {v:.1f}", flush=True)
        if v < best:
            best, best_state = v, {k: t.clone() for k, t in model.state_dict().items()}
    model.load_state_dict(best_state)
    return history, best


def train(data_dir: str | Path | Sequence[str | Path], out_dir: str | Path, *, epochs: int = 8, batch: int = 512,
          lr: float = 1e-3, weight_decay: float = 1e-4, seed: int = 0, td_lambda: float = 1.0, generations: int = 1,
          play_on: bool = False, knock: bool = False, hidden: tuple[int, ...] = HIDDEN,
          init: str | Path | None = None) -> Path:
    """Fit the network on every chunk in ``data_dir`` (a folder or several), export it and its card to
    ``out_dir``. With ``td_lambda`` below 1, ``generations`` fits after the first train on TD(lambda) targets made with
    the previous fit's values (validation is always against the hands' real points). ``play_on``: only
    the positions the champion played on from (not the knocks), for ``PLAY_ON_NET``; ``knock``: ``knock_data``'s
    rows against the exact points of knocking now, for ``KNOCK_NET``. ``init``: an exported network of the
    same widths that the first generation starts from (fine-tuning), instead of random weights."""
    import torch
    from torch import nn

    torch.set_num_threads(1)
    if play_on and knock:
        raise ValueError("train one network at a time: play_on or knock")
    if epochs < 1 and init is None:
        raise ValueError(f"epochs={epochs}: a network from random weights needs at least one epoch")
    data = load(data_dir, KNOCK_FIELDS if knock else FIELDS)
    if play_on:
        data = {f: a[~data["knocked"]] for f, a in data.items()}
    x = inputs(data)
    outcome = (data["knock_points" if knock else "points"].astype(np.float32) / POINT_SCALE)[:, None]
    pools = pool_sizes_of(data_dir)
    game, val = held_out(data["episode"], pools)
    if not val.any() or val.all():
        raise ValueError(f"{data_dir}: {len(x)} rows from {len(np.unique(game))} games leave no "
                         f"{'validation' if not val.any() else 'training'} rows (every fifth game is held out)")
    baseline = float(((outcome[val] - outcome[~val].mean()) ** 2).mean()) * POINT_SCALE ** 2
    print(f"{len(x):,} rows, {len(np.unique(game)):,} games; validation error of the mean alone {baseline:.1f}")
    start = time.time()
    history: list[dict] = []
    y = outcome
    for generation in range(generations):
        model = build_model(seed + generation, hidden)
        started = init is not None and generation == 0
        if started:
            load_exported(model, init)
        fits, best = _fit(model, x, y, val, epochs=epochs, batch=batch, lr=lr, weight_decay=weight_decay,
                          seed=seed + generation, label=f"generation {generation}: ", fresh=not started)
        if generation:  # validation against the hands' points, not the bootstrapped targets
            with torch.no_grad():
                predicted = model(torch.from_numpy(x[val])).numpy()
            best = float(((predicted - outcome[val]) ** 2).mean()) * POINT_SCALE ** 2
            print(f"generation {generation}: validation against the hands' points {best:.1f}")
        history.append({"generation": generation, "epochs": fits, "validation_mse_points": best})
        if generation + 1 < generations:
            with torch.no_grad():
                values = model(torch.from_numpy(x)).numpy()[:, 0]
            y = td_targets(outcome[:, 0], data["episode"], values, td_lambda)[:, None]
    scaled = nn.Sequential(model, nn.Linear(1, 1))
    scaled[1].weight.data.fill_(POINT_SCALE)
    scaled[1].bias.data.zero_()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / (PLAY_ON_NET if play_on else KNOCK_NET if knock else AFTERSTATE_NET)
    scaled.eval()
    torch.onnx.export(scaled, (torch.from_numpy(x[:1]),), str(path), input_names=["x"], output_names=["points"],
                      dynamic_axes={"x": {0: "batch"}, "points": {0: "batch"}}, dynamo=False)
    write_card(path, {
        "name": "champion afterstate value" + (", playing on" if play_on else ", knocking now" if knock else ""),
        "architecture": f"MLP {AFTERSTATE_WIDTH} -> " + " -> ".join(f"{h} ReLU" for h in hidden) + " -> 1",
        "parameters": sum(p.numel() for p in scaled.parameters()),
        "input": "ginbots.players.afterstate_value.afterstate_input: hand after the discard, its melded cards, "
                 "the card thrown, the pile, the opponent's sure / taken / declined / thrown cards, the opponent "
                 "model's holding chances (52 each); deadwood/50, stock/31, opponent turns/30, knockable",
        "target": ("the signed points of knocking now, scored against the opponent's true hand (its best melds "
                   "and layoffs), at the champion's searched knock decisions" if knock else
                   "the signed points the hand paid the discarding champion" + (
                       " (rows where it did not knock after the discard)" if play_on else "")),
        "data": {**_sources(data_dir), "rows": int(len(x)),
                 "train_rows": int((~val).sum()), "validation_rows": int(val.sum()),
                 "games": int(len(np.unique(game))),
                 **({"knocked_rows": int(data["knocked"].sum())} if knock else
                    {"explored_rows": int(data["explored"].sum())}),
                 "label_mean": float(outcome.mean() * POINT_SCALE), "label_std": float(outcome.std() * POINT_SCALE)},
        "training": {"framework": f"torch {torch.__version__}", "optimizer": "Adam", "loss": "MSE", "lr": lr, "dropout": DROPOUT,
                     "augmentation": "a random permutation of the suits of every card plane, per row and epoch",
                     "weight_decay": weight_decay, "batch": batch, "epochs": epochs, "seed": seed,
                     "split": "every fifth game held out" + (
                         ", shifted by one game each round of a pool of a multiple of five opponents"
                         if any(n % 5 == 0 for n in pools) else ""), "kept": "lowest validation MSE",
                     "td_lambda": td_lambda, "generations": generations,
                     **({"init": {"file": str(init), "sha256": sha256_of(init)}} if init is not None else {}),
                     "validation_mse_mean_only": baseline, "history": history,
                     "seconds": round(time.time() - start, 1)},
        "ginbots": __version__,
        "date": datetime.date.today().isoformat(),
    })
    print(json.dumps({"path": str(path), "best_validation_mse": best, "mean_only": baseline}))
    return path


def _sources(data_dir: str | Path | Sequence[str | Path]) -> dict[str, Any]:
    """The card's record of the data: the folder, its hash and opponents; a second folder and on under ``also``."""
    folders = [{"folder": str(f), "sha256": data_hash(f), "opponents": opponents_of(f)} for f in data_folders(data_dir)]
    return {**folders[0], **({"also": folders[1:]} if len(folders) > 1 else {})}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("out")
    parser.add_argument("--also", action="append", default=[], metavar="DATA",
                        help="another data folder of the same recorder to train on as well (repeatable)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--td-lambda", type=float, default=1.0)
    parser.add_argument("--generations", type=int, default=1)
    parser.add_argument("--play-on", action="store_true", help="train the play-on network (rows without a knock)")
    parser.add_argument("--knock", action="store_true",
                        help="train the knock network on knock_data's rows (the exact points of knocking now)")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default %(default)s)")
    parser.add_argument("--init", metavar="NET.onnx",
                        help="start from this exported network (same --hidden widths) instead of random weights")
    parser.add_argument("--hidden", type=layer_widths, default=HIDDEN,
                        help=f"widths of the hidden layers, comma-separated (default {','.join(map(str, HIDDEN))})")
    args = parser.parse_args(argv)
    try:
        train([args.data, *args.also], args.out, epochs=args.epochs, seed=args.seed, td_lambda=args.td_lambda,
              generations=args.generations, play_on=args.play_on, knock=args.knock, hidden=args.hidden,
              lr=args.lr, init=args.init)
    except ValueError as exc:  # a bad --init file, or data that leaves no training or validation rows
        parser.error(str(exc))


def layer_widths(text: str) -> tuple[int, ...]:
    """``--hidden``: comma-separated positive layer widths, such as 256,128."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        widths = ()
    if not widths or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give positive layer widths, such as 256,128")
    return widths


if __name__ == "__main__":
    main()
