#!/bin/bash
# Issue 17: opponent-hand training data from a pool of players, not Simple alone (both seats of every
# game are recorded, so each pair teaches the estimator both players' habits). Resumable: finished
# chunks are kept. Seeds 11-16 stay apart from the evaluation seeds (2026, 3031).
# Usage: experiments/estimator-pool/gen_estimator_pool.sh   (env: OUT=data/estimators/pool, WORKERS=1)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
OUT=${OUT:-data/estimators/pool}
seed=11
for job in simple,simple:4000 heuristic:tuned,simple:1000 planner:tuned,safe:1500 \
           keats:tuned,simple:knock_at=0:1500 heuristic:tuned,keats:tuned:500 dual-inception,heuristic:500; do
  players=${job%:*}; games=${job##*:}
  $PY -m ginbots estimators generate --players "$players" --games "$games" --seed $seed --chunk 250 \
    --workers "${WORKERS:-1}" --out "$OUT/${players//[:=,]/_}"
  seed=$((seed + 1))
done
echo POOL DONE
