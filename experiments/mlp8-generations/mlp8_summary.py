"""Issue 17: score each generation's mlp8 on the fixed heuristic test set and gather its matches.

Usage: python experiments/mlp8-generations/mlp8_summary.py DATA WEIGHTS RESULTS GENS [MATCH_SUFFIX]
Reads WEIGHTS/genN/mlp8.onnx and RESULTS/genN<MATCH_SUFFIX> (a `ginbots match --json` file,
default `_vs_simple.json`); writes RESULTS/summary.json. Generation 0 is the shipped network.
"""

import json
import pathlib
import sys

from ginbots.arena.stats import wilson
from ginbots.estimators.metrics import card_accuracy_precision, mean_squared_difference
from ginbots.estimators.nets import MLP8Estimator
from ginbots.estimators.snapshot import bits
from ginbots.training.estimator_data import load


def main(data: str, weights: str, results: str, gens: int, suffix: str = "_vs_simple.json") -> None:
    weights_dir, res = pathlib.Path(weights), pathlib.Path(results)
    test = load([p for d in sorted(pathlib.Path(data).glob("test_*")) for p in sorted(d.glob("chunk_*.npz"))])
    truth = bits(test.truth)
    rows = {}
    for g in range(gens + 1):
        est = MLP8Estimator(weights_dir / f"gen{g}" / "mlp8.onnx" if g else None)
        p = est.raw(test)
        acc, prec = card_accuracy_precision(p, truth)
        entry = {"accuracy": round(acc, 4), "precision": round(prec, 4),
                 "msd": round(float(mean_squared_difference(p, truth).mean()), 4), "test_rows": int(len(test))}
        match = res / f"gen{g}{suffix}"
        if g and match.exists():
            a = json.loads(match.read_text())["A"]
            games = a["wins"] + a["losses"]
            lo, hi = wilson(a["wins"], games, 0.90)
            entry.update(win_rate=round(a["wins"] / games, 4), ci90=[round(lo, 4), round(hi, 4)], games=games)
        card = weights_dir / f"gen{g}" / "mlp8.card.json"
        if card.exists():
            entry["train_rows"] = json.loads(card.read_text())["data"]["train_rows"]
        rows["shipped (Simple data)" if g == 0 else f"generation {g}"] = entry
        print(g, entry, flush=True)
    always_absent = float((truth == 0).mean())
    (res / "summary.json").write_text(json.dumps({"always_absent_accuracy": round(always_absent, 4),
                                                 "document_002": {"accuracy": 0.8247, "precision": 0.6843},
                                                 "generations": rows}, indent=2) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), *sys.argv[5:6])
