#!/bin/bash
# Issue 40, step 3: the bisection's best recipe (each deal's worst sample kept for a tenth of the deals,
# our features) at the document's size, 1.01M Random-256 deals, trained for 5 and for 15 epochs (the
# epochs are picked by play, not by validation error: longer fits played worse at 100k deals), then
# 10,000 games each against simple (seed 1, duplicate deals), as the shipped random-256-worst network was.
# Resumable: finished chunks, networks and results are skipped. Run from the repository root.
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
HERE=experiments/dual-inception-bisect
DATA=data/offense-full
NETS=$HERE/nets
RES=$HERE/results
WORKERS=${WORKERS:-1}
$PY -m ginbots offense generate random-256 --deals 1010000 --chunk 5000 --workers "$WORKERS" --worst --out "$DATA"
for epochs in 5 15; do
  name=full-worst10-e$epochs
  net=$NETS/$name
  decay=$(( epochs / 3 ))
  [ -s "$net/offense_dual_inception_random_256_worst.onnx" ] || $PY -m ginbots offense train random-256-worst \
    --data "$DATA" --models dual-inception --threads 1 --bias-init mean --epochs "$epochs" --decay-every "$decay" \
    --worst-share 0.10 --out "$net" > "$RES/$name.train.log" 2>&1
  out=$RES/${name}_vs_simple_10000.json
  if [ ! -s "$out" ]; then
    GINBOTS_WEIGHTS=$net $PY -m ginbots match dual-inception:dataset=random-256-worst simple --games 10000 \
      --seed 1 --workers "$WORKERS" --duplicate --no-progress --json "$out.tmp" > "${out%.json}.txt"
    mv "$out.tmp" "$out"
  fi
done
echo FULL SIZE DONE
