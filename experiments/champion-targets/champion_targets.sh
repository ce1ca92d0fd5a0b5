#!/bin/bash
# Issue 19's targets: the champion against each opponent in resumable chunks of CHUNK games to 100
# (duplicate deals; chunk i of an opponent uses seed 1000 + i, so chunks never share deals). A finished
# chunk is skipped; run it again after an interruption. At the end it prints each opponent's pooled
# win rate (90% Wilson) from every chunk on disk.
# Usage: experiments/champion-targets/champion_targets.sh   (env: CHAMPION=spec, CHUNK=250, GAMES=2000, OPPS="spec ...",
#        WORKERS=1, OUT=experiments/champion-targets/results/champion_targets, FIRST=1: the first chunk, so that a second
#        job can take later deals)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
CHAMPION=${CHAMPION:-champion}
CHUNK=${CHUNK:-250}
GAMES=${GAMES:-2000}
OUT=${OUT:-experiments/champion-targets/results/champion_targets}
OPPS=${OPPS:-"heuristic:tuned simple:knock_at=0 simple keats:tuned planner:tuned dual-inception:tuned simple:knock_at=4 heuristic keats planner safe dual-inception greedy random"}
mkdir -p "$OUT"
FIRST=${FIRST:-1}
for i in $(seq "$FIRST" $((FIRST - 1 + GAMES / CHUNK))); do
  for opp in $OPPS; do
    f="$OUT/${CHAMPION//[:=,]/_}__vs__${opp//[:=,]/_}__$i.json"
    [ -s "$f" ] && continue
    $PY -m ginbots match "$CHAMPION" "$opp" --games "$CHUNK" --seed $((1000 + i)) --workers "${WORKERS:-1}" \
      --duplicate --no-progress --json "$f.tmp" > /dev/null && mv "$f.tmp" "$f"
  done
done
$PY - "$OUT" <<'PY'
import collections, json, pathlib, sys
from ginbots.arena.stats import wilson
pooled = collections.defaultdict(lambda: [0, 0, 0.0, 0.0, 0])
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    if "A" not in d:
        continue  # another script's record kept in the same folder
    key = (d["A"]["player"], d["B"]["player"])
    p = pooled[key]
    p[0] += d["A"]["wins"]; p[1] += d["A"]["wins"] + d["A"]["losses"]
    p[2] = max(p[2], d["A"]["think_s_per_game_p99"]); p[3] = max(p[3], d["A"]["think_s_per_game_max"]); p[4] += 1
for (a, b), (wins, games, p99, top, chunks) in sorted(pooled.items(), key=lambda kv: kv[0][1]):
    low, high = wilson(wins, games, 0.90)
    print(f"{a} vs {b:24s} {100 * wins / games:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]  {games} games "
          f"({chunks} chunks)  think s/game: worst chunk p99 {p99:.2f}, max {top:.2f}")
PY
