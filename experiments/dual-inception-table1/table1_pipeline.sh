#!/bin/bash
# Document 000's Table 1 at full size (issue 14), one (dataset, model) cell at a time: train with the
# document's schedule, then 10,000 games against simple (duplicate deals). Resumable and safe to run
# twice at once: each cell is taken under a lock, training resumes from its per-epoch checkpoint and a
# finished evaluation is skipped. ORDER=reverse walks the cells backwards (for a second process).
# Usage: experiments/dual-inception-table1/table1_pipeline.sh   (env: ORDER=reverse, WORKERS=1|2, BIAS=default|mean)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
WORKERS=${WORKERS:-2}
CELLS=()
for ds in random-256 random-16 simple; do for model in dual-inception mlp mlp-i; do CELLS+=("$ds $model"); done; done
if [ "${ORDER:-}" = reverse ]; then
  for ((i=${#CELLS[@]}-1; i>=0; i--)); do R+=("${CELLS[i]}"); done; CELLS=("${R[@]}")
fi
declare -A CHUNKS=([random-256]=202 [random-16]=200 [simple]=160)
mkdir -p logs/locks
for cell in "${CELLS[@]}"; do
  set -- $cell; ds=$1; model=$2
  [ "$(ls data/offense/$ds/chunk_*.npz 2>/dev/null | wc -l)" -ge "${CHUNKS[$ds]}" ] || continue
  card=weights/offense_${model//-/_}_${ds//-/_}.card.json
  res=experiments/dual-inception-table1/results/full_${model}_${ds}_vs_simple_10000
  (
    flock -n 9 || { echo "$ds $model: taken by another process"; exit 0; }
    [ -s "$res.json" ] && exit 0  # evaluated (the Simple Dual Inception's weights were then renamed simple-full)
    if ! grep -q '"rows_recorded"' "$card" 2>/dev/null; then
      $PY -m ginbots offense train "$ds" --models "$model" --threads 1 --bias-init "${BIAS:-default}" --out weights
    fi
    if [ ! -s "$res.json" ]; then
      $PY -m ginbots match "dual-inception:model=$model,dataset=$ds" simple --games 10000 --seed 1 \
        --workers "$WORKERS" --duplicate --no-progress --json "$res.json" > "$res.txt"
    fi
  ) 9> "logs/locks/$ds-$model.lock"
done
echo PIPELINE DONE
