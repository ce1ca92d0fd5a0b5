#!/bin/bash
# Issue 17: the heuristic bot with the document's draw rule 1 (now the default) against simple,
# 10,000 games in ten resumable chunks of 1,000 (seeds 101-110, duplicate deals); a finished chunk
# is skipped, so the script can be re-run after an interruption. The pooled figure is printed at the end.
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
OUT=experiments/heuristic-draw-rule/results/heuristic_draw_rule
mkdir -p "$OUT"
for seed in $(seq 101 110); do
  f="$OUT/heuristic_vs_simple_1000_seed$seed.json"
  [ -s "$f" ] && continue
  $PY -m ginbots match heuristic simple --games 1000 --seed "$seed" --workers "${WORKERS:-1}" --duplicate \
    --no-progress --json "$f.tmp" > /dev/null && mv "$f.tmp" "$f"
done
$PY - "$OUT" <<'PY'
import json, pathlib, sys
from ginbots.arena.stats import wilson
wins = games = 0
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    wins += d["A"]["wins"]; games += d["A"]["wins"] + d["A"]["losses"]
low, high = wilson(wins, games, 0.90)
print(f"heuristic (draw_rule=deadwood-decreases) vs simple: {wins}/{games} = {100 * wins / games:.1f}% "
      f"[{100 * low:.1f}, {100 * high:.1f}] (90% Wilson)")
PY
