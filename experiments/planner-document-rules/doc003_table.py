"""Reproduce document 003's single-round comparison (Tables I-III) under the EAAI rules.

Each planner configuration plays single hands against ``random`` and ``greedy``
(duplicate deals, seats alternated); the hand win rate, its Wilson interval
and the per-decision time are written to ``experiments/planner-document-rules/results/doc003_table.json``
and printed as a Markdown table beside the document's figures.

    python experiments/planner-document-rules/doc003_table.py --hands 2000 --workers 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ginbots.arena.match import MatchConfig, run_match
from ginbots.game.engine import GameConfig
from ginbots.players.registry import parse_spec

# (label, spec, the document's win % vs random, vs greedy, seconds per turn)
CONFIGS = [
    ("sparse sampling, depth 1, 10 samples", "planner", 99, 77, 0.0031),
    ("sparse sampling, depth 1, 20 samples", "planner:samples=20", 100, 84, 0.0053),
    ("sparse sampling, depth 2, 10 samples", "planner:depth=2,samples=10", 100, 81, 2.5626),
    ("forward search, depth 1", "planner:method=forward", 100, 81, 0.0152),
    ("lookahead, 10 rollouts", "planner:method=rollout,rollouts=10", 98, 62, 0.0313),
    ("modified MCTS, k_max 25, depth 1, 10 samples", "planner:method=mcts", 94, 61, 5.0365),
    ("modified MCTS, k_max 25, depth 1, 20 samples", "planner:method=mcts,samples=20", 98, 65, 7.6091),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "doc003_table.json"))
    args = parser.parse_args()
    out_path = Path(args.out)
    results = json.loads(out_path.read_text()) if out_path.exists() else {}
    for label, spec, doc_random, doc_greedy, doc_time in CONFIGS:
        for opponent in ("random", "greedy"):
            key = f"{spec} vs {opponent}"
            if key in results and results[key]["hands"] >= args.hands:
                continue  # resumable: finished rows are kept
            config = MatchConfig(games=args.hands, seed=args.seed, workers=args.workers, duplicate=True,
                                 single_hand=True, game=GameConfig(time_budget=None))
            data = run_match(parse_spec(spec), parse_spec(opponent), config).to_json()
            results[key] = {
                "label": label, "spec": spec, "opponent": opponent, "hands": data["hands"],
                "wins": data["A"]["wins"], "losses": data["A"]["losses"], "cancelled": data["A"]["draws"],
                "win_rate": data["A"]["win_rate"], "ci90": data["A"]["ci"],
                "decision_ms_p50": data["A"]["decision_ms"]["p50"], "decision_ms_p99": data["A"]["decision_ms"]["p99"],
                "doc_win_pct": doc_random if opponent == "random" else doc_greedy, "doc_s_per_turn": doc_time,
                "command": f"ginbots match {spec} {opponent} --games {args.hands} --seed {args.seed} "
                           f"--workers {args.workers} --duplicate --single-hand --time-budget off",
            }
            out_path.parent.mkdir(parents=True, exist_ok=True)
            out_path.write_text(json.dumps(results, indent=2))
            print(f"{key}: {results[key]['win_rate'] * 100:.1f}% of {results[key]['hands']} hands", flush=True)
    print(markdown(results))


def markdown(results: dict) -> str:
    lines = ["| planner (document 003) | vs random: ours (90% CI) | doc | vs greedy: ours (90% CI) | doc "
             "| ms/decision p50 / p99 | doc ms/turn |",
             "|---|---|---|---|---|---|---|"]
    for label, spec, _, _, doc_time in CONFIGS:
        cells = []
        for opponent in ("random", "greedy"):
            r = results.get(f"{spec} vs {opponent}")
            if r is None:
                cells += ["not run", ""]
                continue
            lo, hi = r["ci90"]
            cells += [f"{r['win_rate'] * 100:.1f}% [{lo * 100:.1f}, {hi * 100:.1f}] ({r['hands']} hands)",
                      f"{r['doc_win_pct']}%"]
        r = results.get(f"{spec} vs greedy") or results.get(f"{spec} vs random")
        timing = f"{r['decision_ms_p50']:.2f} / {r['decision_ms_p99']:.1f}" if r else ""
        lines.append(f"| {label} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} | {timing} | {doc_time * 1000:.1f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
