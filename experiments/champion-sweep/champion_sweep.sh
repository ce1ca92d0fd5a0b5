#!/bin/bash
# Champion sweep (issue 19): every (champion spec, opponent) pair of the lists below as one match of
# GAMES games on duplicate deals, PAR matches at a time, one core each; a JSON per match in OUTDIR.
# WORKERS (default 1) sets each match's worker processes.
# Usage: SPECS="champion champion:rollout_knock_at=4" OPPS="simple simple:knock_at=0" GAMES=200 \
#        PAR=16 OUTDIR=results/sweep experiments/champion-sweep/champion_sweep.sh
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-python3}
OUTDIR=${OUTDIR:-results/sweep}
mkdir -p "$OUTDIR"
for s in $SPECS; do for o in $OPPS; do echo "$s $o"; done; done |
  xargs -P "${PAR:-2}" -L 1 bash -c '
    safe=$(echo "$0-vs-$1" | tr ":=,." "____")
    '"$PY"' -m ginbots match "$0" "$1" --games '"${GAMES:-200}"' --seed '"${SEED:-5}"' --workers '"${WORKERS:-1}"' \
      --duplicate --no-progress --json "'"$OUTDIR"'/$safe.json" > "'"$OUTDIR"'/$safe.txt" 2>&1 || echo "failed: $0 $1"'
$PY - "$OUTDIR" <<'PY'
import json, sys, pathlib
rows = []
for f in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    d = json.loads(f.read_text())
    a = d["A"]
    rows.append(f"{d['specs']['A']['label']:55s} vs {d['specs']['B']['label']:28s} {a['win_rate']*100:5.1f}% [{a['ci'][0]*100:4.1f}, {a['ci'][1]*100:4.1f}] n={d['games']}")
print("\n".join(rows))
PY
