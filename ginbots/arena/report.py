"""A tournament's report: PNG charts and one self-contained HTML page (images inlined).

Charts need matplotlib (the ``report`` extra); without it the HTML page still
holds every table and says how to get the charts.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path
from typing import Any

CHARTS = ("heatmap.png", "ratings.png", "decision_times.png")


def write_charts(summary: dict[str, Any], folder: Path) -> list[Path]:
    """Win-rate heatmap, ratings with intervals, decision-time bars; [] without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return []
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    bots = [r["bot"] for r in summary["bots"]]
    index = {b: i for i, b in enumerate(bots)}
    n = len(bots)
    grid = np.full((n, n), np.nan)
    for p in summary["pairs"]:
        if p["games"]:
            grid[index[p["a"]], index[p["b"]]] = p["a_win_rate"]
            grid[index[p["b"]], index[p["a"]]] = 1 - p["a_win_rate"]
    written = []

    fig, ax = plt.subplots(figsize=(1.2 * n + 3, 1.0 * n + 2))
    im = ax.imshow(grid, cmap="RdYlGn", vmin=0, vmax=1)
    ax.set_xticks(range(n), bots, rotation=40, ha="right")
    ax.set_yticks(range(n), bots)
    for i in range(n):
        for j in range(n):
            if not np.isnan(grid[i, j]):
                ax.text(j, i, f"{grid[i, j] * 100:.0f}%", ha="center", va="center", fontsize=9)
    ax.set_title("Win rate of the row bot against the column bot")
    fig.colorbar(im, ax=ax, fraction=0.04)
    fig.tight_layout()
    written.append(_save(fig, folder / "heatmap.png"))

    fig, ax = plt.subplots(figsize=(8, 0.5 * n + 1.5))
    bt = [r["bt"] for r in summary["bots"]]
    err = [[r["bt"] - r["bt_ci"][0] for r in summary["bots"]], [r["bt_ci"][1] - r["bt"] for r in summary["bots"]]]
    y = np.arange(n)[::-1]
    ax.errorbar(bt, y, xerr=err, fmt="o", capsize=4, label="Bradley-Terry (90% interval)")
    ax.scatter([r["elo"] for r in summary["bots"]], y, marker="x", color="black", label="Elo (K=8, averaged over rounds)")
    ax.set_yticks(y, bots)
    ax.set_xlabel("rating (Elo scale, mean 1000)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("Ratings")
    fig.tight_layout()
    written.append(_save(fig, folder / "ratings.png"))

    fig, ax = plt.subplots(figsize=(8, 0.5 * n + 1.5))
    p50 = [max(r["decision_ms_p50"], 1e-4) for r in summary["bots"]]
    p99 = [max(r["decision_ms_p99"], 1e-4) for r in summary["bots"]]
    ax.barh(y + 0.2, p50, height=0.4, label="p50")
    ax.barh(y - 0.2, p99, height=0.4, label="p99")
    ax.set_xscale("log")
    ax.set_yticks(y, bots)
    ax.set_xlabel("milliseconds per decision (log scale)")
    ax.legend(fontsize=8)
    ax.set_title("Decision time")
    fig.tight_layout()
    written.append(_save(fig, folder / "decision_times.png"))
    return written


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def write_html(summary: dict[str, Any], folder: Path, charts: list[Path]) -> Path:
    """``report.html``: every table, with the charts inlined as data URIs."""
    cfg = summary["config"]
    e = html.escape
    rows = "".join(
        f"<tr><td>{e(r['bot'])}</td><td>{r['bt']:.0f} [{r['bt_ci'][0]:.0f}, {r['bt_ci'][1]:.0f}]</td>"
        f"<td>{r['elo']:.0f}</td><td>{r['games']}</td><td>{r['win_rate'] * 100:.1f}% "
        f"[{r['ci'][0] * 100:.1f}, {r['ci'][1] * 100:.1f}]</td><td>{r['points_per_hand']:.2f}</td>"
        f"<td>{r['decision_ms_p50']:.3f} / {r['decision_ms_p99']:.3f}</td><td>{len(r['forfeits'])}</td></tr>"
        for r in summary["bots"])
    pairs = "".join(
        f"<tr><td>{e(p['a'])}</td><td>{e(p['b'])}</td><td>{p['games']}</td>"
        f"<td>{p['a_win_rate'] * 100:.1f}% [{p['ci'][0] * 100:.1f}, {p['ci'][1] * 100:.1f}]</td>"
        f"<td>{p['a_points_per_hand']:.2f} / {p['b_points_per_hand']:.2f}</td>"
        f"<td>{p['gin_rate'] * 100:.1f}%</td><td>{p['undercut_rate'] * 100:.1f}%</td>"
        f"<td>{len(p['forfeits'])}</td></tr>" for p in summary["pairs"])
    forfeits = "".join(f"<li>{e(r['bot'])}: {e(f)}</li>" for r in summary["bots"] for f in r["forfeits"][:50])
    images = "".join(
        f'<figure><img alt="{e(c.stem)}" src="data:image/png;base64,{base64.b64encode(c.read_bytes()).decode()}">'
        f"<figcaption>{e(c.stem.replace('_', ' '))}</figcaption></figure>" for c in charts)
    if not charts:
        images = "<p>Charts need matplotlib: <code>pip install 'ginbots[report]'</code>, then rebuild.</p>"
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ginbots tournament</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }} td, th {{ border: 1px solid #ccc; padding: .3em .6em; }}
th {{ background: #f0f0f0; }} figure {{ display: inline-block; margin: 1em; }} img {{ max-width: 100%; }}
</style></head><body>
<h1>ginbots round robin</h1>
<p>{len(cfg['bots'])} bots, {cfg['games_per_pair']} games to 100 per pair on duplicate deals with seats swapped,
seed {cfg['seed']}, {summary['games']} games played, time budget {cfg['time_budget']} s per player per game.
Intervals are {int(cfg['confidence'] * 100)}% (Wilson for win rates, observed information for Bradley-Terry).
Elo is computed as the challenge's runner did: K = 8, start 1000, one game per pair per round, averaged over rounds.</p>
<h2>Ratings</h2>
<table><tr><th>bot</th><th>Bradley-Terry</th><th>Elo</th><th>games</th><th>win rate</th><th>points/hand</th>
<th>decision ms p50 / p99</th><th>forfeits</th></tr>{rows}</table>
{images}
<h2>Pairs</h2>
<table><tr><th>A</th><th>B</th><th>games</th><th>A's win rate</th><th>points/hand A / B</th><th>gin</th>
<th>undercut</th><th>forfeits</th></tr>{pairs}</table>
<h2>Forfeits</h2><ul>{forfeits or '<li>none</li>'}</ul>
</body></html>
"""
    path = folder / "report.html"
    path.write_text(page, encoding="utf-8")
    return path


def build_report(summary: dict[str, Any], folder: str | Path) -> tuple[Path, list[Path]]:
    folder = Path(folder)
    charts = write_charts(summary, folder)
    return write_html(summary, folder, charts), charts
