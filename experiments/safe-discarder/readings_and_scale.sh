#!/bin/bash
# Issue 40, part 4: document 001's safe discarder. (1) Its readings with the shipped CNN, 2,000 games each
# against simple: eq. 5 (the document) or the authors' meld-sum danger, the document's candidates or the
# authors' habits; (2) the Shankar CNN retrained at the authors' scale (about 1.6M rows, 10 epochs; ours
# shipped: 360k rows, 4 epochs); (3) the safe discarder with it over 10,000 games, and its readings again.
# Resumable: finished files are skipped. Run from the repository root.
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
R=experiments/safe-discarder/results/readings
N=experiments/safe-discarder/nets/cnn-1.6m
D=data/estimators/simple-45k
mkdir -p "$R" "$N"
SPECS=("safe" "safe:danger=meld-sum" "safe:habits=authors" "safe:danger=meld-sum,habits=authors")
play() {  # spec games seed out [env...]
  local spec=$1 games=$2 seed=$3 out=$4
  [ -s "$out" ] && return 0
  $PY -m ginbots match "$spec" simple --games "$games" --seed "$seed" --duplicate --workers 1 --no-progress \
    --json "$out.tmp" > /dev/null && mv "$out.tmp" "$out"
}
for spec in "${SPECS[@]}"; do play "$spec" 2000 7 "$R/${spec//[:=,]/_}_shipped_cnn_2000.json"; done
$PY -m ginbots estimators generate --games 45000 --seed 11 --out "$D" --workers 1
[ -s "$N/shankar_cnn.onnx" ] || $PY -m ginbots estimators train shankar-cnn --data "$D" --max-rows 1700000 \
  --epochs 10 --out "$N"
export GINBOTS_WEIGHTS=$N
play safe 10000 8 "$R/safe_cnn_1.6m_10000.json"
for spec in "${SPECS[@]:1}"; do play "$spec" 2000 7 "$R/${spec//[:=,]/_}_cnn_1.6m_2000.json"; done
echo SAFE DONE
