#!/bin/bash
# Document 000's Table 1 at full size (issue 14): train each network on each full dataset with the
# document's schedule, then 10,000 games against simple (duplicate deals). Resumable: training
# continues from its per-epoch checkpoint and finished evaluations are skipped; rerun after a stop.
# Usage: experiments/table1_full.sh [DATASET ...]   (default: random-256 random-16 simple)
set -e
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
declare -A CHUNKS=([random-256]=202 [random-16]=200 [simple]=160)
BIAS=${BIAS:-default}
for ds in "${@:-random-256 random-16 simple}"; do
  for ds1 in $ds; do
    until [ "$(ls data/offense/$ds1/chunk_*.npz 2>/dev/null | wc -l)" -ge "${CHUNKS[$ds1]}" ]; do sleep 60; done
    for model in dual-inception mlp mlp-i; do
      card=weights/offense_${model//-/_}_${ds1//-/_}.card.json
      if ! grep -q '"rows_recorded"' "$card" 2>/dev/null; then
        $PY -m ginbots offense train "$ds1" --models "$model" --threads 1 --bias-init "$BIAS" --out weights
      fi
      res=experiments/results/full_${model}_${ds1}_vs_simple_10000
      if [ ! -s "$res.json" ]; then
        $PY -m ginbots match "dual-inception:model=$model,dataset=$ds1" simple --games 10000 --seed 1 \
          --workers 2 --duplicate --no-progress --json "$res.json" > "$res.txt"
      fi
    done
  done
done
echo TABLE1DONE
