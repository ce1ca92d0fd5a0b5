"""Training data and training for document 000's offensive hand score.

Datasets, as the document builds them: ``simple`` (Simple vs Simple) and
``random-N`` (a random-discard player, "RP", against Simple: each deal is
played N times with different RP choices and only the sample where RP scored
best is kept).  A row is one player's hand at its last discard of a round
(``--all-stages``: every discard), the ISRU Bayesian estimate of the opponent
at that moment, the round's score for that player (+s if it won, -s if it
lost) and whether the row is RP's.  Training on a Random-N dataset uses RP's
rows only by default: the document's Figure 2 has the score mean rising and
the spread shrinking with N, which only the sampled player's rows can do
(both seats together always average zero).  Rounds are recorded as separate
deals with gamma = 1 (no discount, the document's first case): neither player
looks at the game score, so this is the same data as rounds inside games.  Generation is chunked and
resumable; training (extra ``train``) writes ONNX files and model cards.
"""

from __future__ import annotations

import datetime
import json
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import __version__
from .engine import GameConfig, play_game
from .estimators.data import KnowledgeWatcher, _freeze
from .estimators.snapshot import snapshot_rows
from .knowledge import Knowledge
from .chunks import chunk_files, generate_chunks, save_chunk
from .match import derive_seed
from .melds import lowering_discards
from .players.baselines import SimplePlayer
from .players.dual_inception import ESTIMATOR, INPUT_WIDTH, network_input, weights_file

SINGLE_ROUND = GameConfig(time_budget=None, max_hands_per_game=1)


class RandomDiscardPlayer(SimplePlayer):
    """The document's RP: Simple, except that it discards a uniformly random unmelded card."""

    name = "random-discard"

    def discard(self) -> int:
        unmelded = [c for c, _ in lowering_discards(self.hand, self.legal_discards())]
        if not unmelded:
            return super().discard()
        return unmelded[self.rng.randrange(len(unmelded))]


class _Watcher(KnowledgeWatcher):
    """Keeps this seat's hand and knowledge at each of its own discards."""

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.stages: list[tuple[int, Knowledge]] = []
        super().start_hand(seat, starter, hand)

    def observed_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.stages.append((self.knowledge.hand, _freeze(self.knowledge)))


def _samples_of(dataset: str) -> int:
    if dataset == "simple":
        return 1
    if dataset.startswith("random-") and dataset[7:].isdigit() and int(dataset[7:]) >= 1:
        return int(dataset[7:])
    raise ValueError(f"dataset must be 'simple' or 'random-N' (N >= 1), got {dataset!r}")


Row = tuple[int, Knowledge, float, bool]


def record_deal(dataset: str, deal_seed: int, all_stages: bool = False) -> list[Row]:
    """Rows (hand, knowledge, score, is RP's row) of one deal: the best-scoring of the dataset's samples."""
    samples = _samples_of(dataset)
    rp_seat = deal_seed & 1
    best: tuple[float, list[Row]] | None = None
    for k in range(samples):
        seats = []
        for seat in (0, 1):
            kind = RandomDiscardPlayer if dataset != "simple" and seat == rp_seat else SimplePlayer
            seats.append(_Watcher(kind(seed=derive_seed(deal_seed, k, seat))))
        result = play_game(seats, seed=deal_seed, config=SINGLE_ROUND)
        hand = result.hands[0]
        score = [0.0, 0.0]
        if hand.winner is not None:
            score[hand.winner], score[1 - hand.winner] = hand.points, -hand.points
        rows = []
        for seat, watcher in enumerate(seats):
            for hand_mask, knowledge in (watcher.stages if all_stages else watcher.stages[-1:]):
                rows.append((hand_mask, knowledge, score[seat], dataset != "simple" and seat == rp_seat))
        if best is None or score[rp_seat] > best[0]:
            best = (score[rp_seat], rows)
    assert best is not None
    return best[1]


_ESTIMATOR: list[Any] = []


def _setup() -> None:
    from .estimators import make_estimator

    _ESTIMATOR[:] = [make_estimator(ESTIMATOR)]


def _run(job: tuple[str, int, int, int, bool, str]) -> int:
    dataset, seed, start, size, all_stages, path = job
    hands, knowledges, scores, deals, rp = [], [], [], [], []
    for deal in range(start, start + size):
        for hand, knowledge, score, is_rp in record_deal(dataset, derive_seed(seed, deal), all_stages):
            hands.append(hand)
            knowledges.append(knowledge)
            scores.append(score)
            deals.append(deal)
            rp.append(is_rp)
    estimate = _ESTIMATOR[0].raw(snapshot_rows(knowledges)) if knowledges else np.zeros((0, 52), np.float32)
    save_chunk(path, hands=np.array(hands, dtype=np.uint64), estimate=estimate.astype(np.float32),
               score=np.array(scores, dtype=np.float32), deal=np.array(deals, dtype=np.int64),
               rp=np.array(rp, dtype=bool))
    return size


def generate(out_dir: str | Path, dataset: str, deals: int, *, seed: int = 1, chunk: int = 200,
             workers: int = 1, all_stages: bool = False, progress: bool | None = None) -> list[Path]:
    """Record ``deals`` deals of ``dataset`` into ``out_dir/DATASET/chunk_NNNNN.npz`` (resumable)."""
    _samples_of(dataset)
    out = Path(out_dir) / (dataset + ("-all" if all_stages else ""))
    return generate_chunks(out, deals, chunk, lambda start, size, path: (dataset, seed, start, size, all_stages, path),
                           setup=_setup, run=_run, unit="deals", workers=workers, progress=progress)


def load(folder: str | Path) -> dict[str, np.ndarray]:
    paths = chunk_files(folder)
    if not paths:
        raise FileNotFoundError(f"no data chunks in {folder}; run `ginbots offense generate` first")
    parts = [dict(np.load(p)) for p in paths]
    for path, part in zip(paths, parts):
        if "rp" not in part:
            raise ValueError(f"{path}: chunk has no 'rp' column (written by an older ginbots); delete {Path(folder)} "
                             "and run `ginbots offense generate` again")
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


# --- training (extra ``train``) ----------------------------------------------------------------

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


def _output_layer(model: Any) -> Any:
    """The final linear layer of a model from ``build_model``."""
    return model.out if hasattr(model, "out") else (model.net if hasattr(model, "net") else model)[-1]


def features(data: dict[str, np.ndarray]) -> np.ndarray:
    """Packed network rows of loaded data (the same encoding the player uses)."""
    out = np.empty((len(data["hands"]), INPUT_WIDTH), dtype=np.float32)
    for start in range(0, len(out), 50_000):
        stop = start + 50_000
        out[start:stop] = network_input(data["hands"][start:stop], data["estimate"][start:stop])
    return out


def train(model_name: str, dataset: str, data_dir: str | Path, out_dir: str | Path, *, epochs: int = 24,
          decay_every: int = 8, batch: int = 64, lr: float = 1e-3, validation: float = 0.2, seed: int = 0,
          rows: str = "rp", bias_init: str = "default", log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train one architecture on one dataset (MSE, Adam, step decay x0.1), export ONNX and a model card.

    ``rows`` "rp" keeps RP's rows of a Random-N dataset (a Simple dataset has no RP and keeps every row); "all"
    keeps both seats. ``bias_init`` "mean" starts the output bias at the mean training score instead of torch's
    default initialisation.
    """
    import torch

    from .estimators.train import export_onnx
    from .estimators.weights import sha256_of

    torch.manual_seed(seed)
    started = time.time()
    if rows not in ("rp", "all"):
        raise ValueError(f"rows must be 'rp' or 'all', got {rows!r}")
    data = load(Path(data_dir) / dataset)
    if rows == "rp" and dataset != "simple":
        data = {k: v[data["rp"]] for k, v in data.items()}
    x, y = features(data), data["score"].astype(np.float32)[:, None]
    deals = np.unique(data["deal"])
    rng = np.random.default_rng(seed)
    held = rng.choice(deals, size=max(1, int(len(deals) * validation)), replace=False)
    is_val = np.isin(data["deal"], held)  # split by deal: no round on both sides
    xt, yt = torch.from_numpy(x[~is_val]), torch.from_numpy(y[~is_val])
    xv, yv = torch.from_numpy(x[is_val]), torch.from_numpy(y[is_val])
    model = build_model(model_name)
    if bias_init == "mean":
        # Random-256 scores centre far from 0 (RP keeps its best sample); learning that offset through the
        # hidden ReLUs first can switch them off for good.
        with torch.no_grad():
            _output_layer(model).bias.fill_(float(yt.mean()))
    elif bias_init != "default":
        raise ValueError(f"bias_init must be 'default' or 'mean', got {bias_init!r}")
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.StepLR(opt, step_size=decay_every, gamma=0.1)
    gen = torch.Generator().manual_seed(seed)
    history = []
    for epoch in range(epochs):
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
        log(f"  {model_name} on {dataset}: epoch {epoch + 1}/{epochs} train {history[-1]['train_mse']:.2f} "
            f"validation {val:.2f}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / weights_file(model_name, dataset)
    export_onnx(model, x[:1], path)
    card = {
        "name": f"offense {model_name} / {dataset}",
        "file": path.name,
        "architecture": ARCHITECTURES[model_name],
        "parameters": int(sum(p.numel() for p in model.parameters())),
        "input": "packed float32 rows: x hand after the discard (52, suit-major 4x13), o ISRU Bayesian estimate "
                 "(52), m = deadwood/10, sets, runs, hit count/10",
        "target": "the round's score for this player (+s won, -s lost), gamma = 1",
        "data": {"dataset": dataset, "rows": int(len(x)), "train_rows": int((~is_val).sum()),
                 "validation_rows": int(is_val.sum()), "deals": int(len(deals)),
                 "stages": "last discard of each player per round",
                 "rows_kept": "RP's rows only" if rows == "rp" and dataset != "simple" else "both seats",
                 "score_mean": float(y.mean()), "score_std": float(y.std())},
        "training": {"framework": f"torch {torch.__version__}", "optimizer": "Adam", "loss": "MSE", "lr": lr,
                     "batch": batch, "epochs": epochs,
                     "output_bias_init": bias_init, "lr_decay": f"x0.1 every {decay_every} epochs",
                     "seed": seed, "history": history, "seconds": round(time.time() - started, 1)},
        "validation_mse": history[-1]["validation_mse"],
        "ginbots_version": __version__,
        "date": datetime.date.today().isoformat(),
        "sha256": sha256_of(path),
    }
    (out / (path.name.split(".")[0] + ".card.json")).write_text(json.dumps(card, indent=2) + "\n")
    return card


# --- command line: ``ginbots offense generate | train`` -----------------------------------------

DEFAULT_DATA = "data/offense"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("offense", help="document 000's offensive hand score: generate datasets, train networks")
    osub = p.add_subparsers(dest="offense_command", required=True)
    g = osub.add_parser("generate", help="record a dataset (simple or random-N) in resumable chunks")
    g.add_argument("dataset", help="simple, random-16, random-256, ... (random-N: N samples per deal)")
    g.add_argument("--deals", type=int, default=20000)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--chunk", type=int, default=200)
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--all-stages", action="store_true", help="a row per discard, not only each player's last")
    g.add_argument("--out", default=DEFAULT_DATA)
    g.set_defaults(func=_cmd_generate)
    t = osub.add_parser("train", help="train offensive-score networks and freeze them to ONNX (extra train)")
    t.add_argument("dataset")
    t.add_argument("--models", default="dual-inception,mlp,mlp-i")
    t.add_argument("--epochs", type=int, default=24)
    t.add_argument("--decay-every", type=int, default=8, help="epochs between x0.1 learning-rate steps")
    t.add_argument("--batch", type=int, default=64)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--rows", choices=("rp", "all"), default="rp",
                   help="Random-N data: RP's rows only (default, the document's Figure 2) or both seats")
    t.add_argument("--bias-init", choices=("default", "mean"), default="default",
                   help="output bias: torch's initialisation, or the mean training score (used for random-256)")
    t.add_argument("--data", default=DEFAULT_DATA)
    t.add_argument("--out", default="weights")
    t.set_defaults(func=_cmd_train)


def _cmd_generate(args: Any) -> int:
    paths = generate(args.out, args.dataset, args.deals, seed=args.seed, chunk=args.chunk, workers=args.workers,
                     all_stages=args.all_stages)
    print(f"{args.dataset}: {len(paths)} chunks in {paths[0].parent}")
    return 0


def _cmd_train(args: Any) -> int:
    for model in args.models.split(","):
        card = train(model, args.dataset, args.data, args.out, epochs=args.epochs, decay_every=args.decay_every,
                     batch=args.batch, seed=args.seed, rows=args.rows, bias_init=args.bias_init)
        print(f"{card['file']}: {card['parameters']} parameters, {card['data']['train_rows']} training rows, "
              f"validation MSE {card['validation_mse']:.2f}, {card['training']['seconds']} s")
    return 0
