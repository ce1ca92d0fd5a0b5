"""Scoring estimators on recorded self-play with document 001's five metrics, per turn.

``evaluate`` returns, per estimator and metric, the mean and standard error
at every opponent turn; ``write_report`` prints a table, draws one PNG per
metric versus turn (the document's Figures 2-6) and picks the ensemble ranges.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .base import Estimator
from .ensemble import ranges_from_scores
from .metrics import METRICS
from .snapshot import Snapshot, bits

STAGES = ((1, 3), (4, 9), (10, 28), (29, 99))  # document 001's stage boundaries, in opponent turns
MIN_ROWS_PER_TURN = 100  # turns seen fewer times are drawn but not used to choose ensemble members


def evaluate(snap: Snapshot, estimators: dict[str, Estimator]) -> dict[str, Any]:
    """{"turns": [...], "rows": [...], "scores": {estimator: {metric: {"mean": [...], "se": [...], "all": x}}}}."""
    truth = bits(snap.truth)
    turns = np.unique(snap.opp_turns)
    rows = [int((snap.opp_turns == t).sum()) for t in turns]
    scores: dict[str, Any] = {}
    for name, est in estimators.items():
        raw = est.raw(snap)
        scores[name] = {}
        for metric, (fn, _) in METRICS.items():
            values = fn(raw, truth)
            means, ses = [], []
            for t in turns:
                v = values[snap.opp_turns == t]
                means.append(float(v.mean()))
                ses.append(float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else 0.0)
            stages = {}
            for lo, hi in STAGES:
                sel = (snap.opp_turns >= lo) & (snap.opp_turns <= hi)
                stages[f"{lo}-{hi}"] = float(values[sel].mean()) if sel.any() else None
            scores[name][metric] = {"mean": means, "se": ses, "all": float(values.mean()), "stages": stages}
    return {"turns": [int(t) for t in turns], "rows": rows, "scores": scores}


def best_by_turn(result: dict[str, Any], candidates: list[str], metric: str = "mean_squared_difference") -> dict[int, str]:
    """The candidate with the best ``metric`` at each turn with enough rows."""
    lower = METRICS[metric][1]
    best = {}
    for i, (turn, n) in enumerate(zip(result["turns"], result["rows"])):
        if n < MIN_ROWS_PER_TURN or turn == 0:
            continue
        vals = {c: result["scores"][c][metric]["mean"][i] for c in candidates if c in result["scores"]}
        if vals:
            best[turn] = (min if lower else max)(vals, key=vals.get)
    return best


def table(result: dict[str, Any]) -> str:
    """A Markdown table: each metric by stage and overall, one row per estimator."""
    stages = [f"{lo}-{hi}" for lo, hi in STAGES]
    lines = []
    for metric, (_, lower) in METRICS.items():
        lines.append(f"\n{metric} ({'lower' if lower else 'higher'} is better), by opponent turn")
        lines.append("| estimator | " + " | ".join(f"turns {s}" for s in stages) + " | all |")
        lines.append("|---|" + "---|" * (len(stages) + 1))
        for name, per in result["scores"].items():
            m = per[metric]
            cells = [f"{m['stages'][s]:.4g}" if m["stages"][s] is not None else "-" for s in stages]
            lines.append(f"| {name} | " + " | ".join(cells) + f" | {m['all']:.4g} |")
    return "\n".join(lines)


def plot(result: dict[str, Any], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    turns = np.array(result["turns"])
    for metric, (_, lower) in METRICS.items():
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for name, per in result["scores"].items():
            mean, se = np.array(per[metric]["mean"]), np.array(per[metric]["se"])
            style = "--" if name in ("uniform", "omniscient") else "-"
            ax.plot(turns, mean, style, label=name, linewidth=1.4)
            ax.fill_between(turns, mean - se, mean + se, alpha=0.2)
        ax.set_xlabel("opponent turns completed")
        ax.set_ylabel(metric.replace("_", " ") + (" (lower is better)" if lower else " (higher is better)"))
        ax.set_title(f"{metric.replace('_', ' ')} vs turn ({sum(result['rows']):,} observations)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / f"{metric}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        paths.append(path)
    return paths


def write_report(result: dict[str, Any], out_dir: str | Path, candidates: list[str]) -> dict[str, Any]:
    """Write summary.json, table.md, the PNGs and the ensemble ranges chosen from this evaluation."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    ranges = ranges_from_scores(best_by_turn(result, candidates))
    (out / "summary.json").write_text(json.dumps({**result, "ensemble_ranges": ranges}, indent=1) + "\n")
    text = table(result)
    (out / "table.md").write_text(text + "\n")
    plot(result, out)
    return {"ranges": ranges, "table": text}
