#!/bin/bash
# Issue 40, step 3: the Table 1 cells that the bisection's recipe changes, retrained at full size.
# The recipe that brought the Random-256 Dual Inception to its document (1.01M deals, each deal's worst
# sample kept for a tenth of the deals, output bias at the mean score, 5 epochs with x0.1 every epoch) is
# applied to every Random-N cell: Random-16 (all three models, 1M deals generated with --worst) and the
# Random-256 MLP and MLP-i (the same data as the shipped random-256-worst Dual Inception). The Simple cells
# have no worst sample (one sample a deal), so they do not change. Then 10,000 games each against simple
# (seed 1, duplicate deals), as every Table 1 cell was measured.
# Resumable: finished chunks, networks and results are skipped. Run from the repository root.
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
HERE=experiments/dual-inception-table1-worst
DATA=data/offense-full
NETS=$HERE/nets
RES=$HERE/results
WORKERS=${WORKERS:-1}
mkdir -p "$NETS" "$RES"
$PY -m ginbots offense generate random-16 --deals 1000000 --chunk 5000 --workers "$WORKERS" --worst --out "$DATA"
$PY -m ginbots offense generate random-256 --deals 1010000 --chunk 5000 --workers "$WORKERS" --worst --out "$DATA"
cells="random-16-worst:dual-inception random-16-worst:mlp random-16-worst:mlp-i random-256-worst:mlp random-256-worst:mlp-i"
for cell in $cells; do
  dataset=${cell%%:*}; model=${cell##*:}
  name=$dataset-$model
  net=$NETS/$name
  file=$net/offense_${model//-/_}_${dataset//-/_}.onnx
  [ -s "$file" ] || $PY -m ginbots offense train "$dataset" --data "$DATA" --models "$model" --threads 1 \
    --bias-init mean --epochs 5 --decay-every 1 --worst-share 0.10 --out "$net" > "$RES/$name.train.log" 2>&1
done
for cell in $cells; do
  dataset=${cell%%:*}; model=${cell##*:}
  name=$dataset-$model
  out=$RES/${name}_vs_simple_10000.json
  if [ ! -s "$out" ]; then
    GINBOTS_WEIGHTS=$NETS/$name $PY -m ginbots match "dual-inception:dataset=$dataset,model=$model" simple \
      --games 10000 --seed 1 --workers "$WORKERS" --duplicate --no-progress --json "$out.tmp" > "${out%.json}.txt"
    mv "$out.tmp" "$out"
  fi
done
echo TABLE1 WORST DONE
