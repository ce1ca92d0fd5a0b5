#!/bin/bash
# Issue 40's bisection of our Random-256 Dual Inception against the authors' network, one change at a
# time, at about 100k deals: each step trains (if it changes the network) and probes (simple-like share,
# deadwood slope, the authors' validation slice, games vs simple). Resumable: a finished step is skipped.
# Usage: AUTHORS=/path/to/ginrummy-archive experiments/dual-inception-bisect/bisect.sh
#   (AUTHORS: `git archive HEAD models/DualInception data/Random256Val-sample.csv` of sangttruong/ginrummy,
#    unpacked; env DEALS=100000, GAMES=1000)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
AUTHORS=${AUTHORS:?set AUTHORS to the unpacked sangttruong/ginrummy files}
DEALS=${DEALS:-100000}
GAMES=${GAMES:-1000}
HERE=experiments/dual-inception-bisect
DATA=data/offense-bisect
RES=$HERE/results
NETS=$HERE/nets
mkdir -p "$RES" "$NETS"
$PY -m ginbots offense generate random-256 --deals "$DEALS" --chunk 5000 --workers 1 --worst --out "$DATA"

# step name | training options | probe options
STEPS=(
  "authors||--candidates unmelded"
  "s0-e5|--epochs 5 --decay-every 2|"
  "s0-e15|--epochs 15 --decay-every 5|"
  "s0-e45|--epochs 45 --decay-every 15|"
  "s1-e15-unmelded|=s0-e15|--candidates unmelded"
  "s2-worst01-e15|--epochs 15 --decay-every 5 --worst-share 0.01|--candidates unmelded"
  "s2-worst10-e15|--epochs 15 --decay-every 5 --worst-share 0.10|--candidates unmelded"
  "s2-worst100-e15|--epochs 15 --decay-every 5 --worst-share 1.0|--candidates unmelded"
  "s3-authors-e15|--epochs 15 --decay-every 5 --worst-share 0.01 --features authors|--candidates unmelded --features authors"
  "s4-keras-e15|--epochs 15 --decay-every 5 --worst-share 0.01 --features authors --init keras|--candidates unmelded --features authors"
  "s4-keras-e5|--epochs 5 --decay-every 2 --worst-share 0.01 --features authors --init keras|--candidates unmelded --features authors"
  "s5-worst10-e15-legal|=s2-worst10-e15|"
  "s5-worst10-e5|--epochs 5 --decay-every 2 --worst-share 0.10|--candidates unmelded"
  "s5-worst10-e5-legal|=s5-worst10-e5|"
)
for step in "${STEPS[@]}"; do
  IFS='|' read -r name train probe <<< "$step"
  out=$RES/$name.json
  [ -s "$out" ] && continue
  net=""
  if [ "$name" != authors ]; then
    if [[ "$train" == =* ]]; then
      net=$NETS/${train#=}/offense_dual_inception_random_256_worst.onnx
    else
      net=$NETS/$name/offense_dual_inception_random_256_worst.onnx
      [ -s "$net" ] || $PY -m ginbots offense train random-256-worst --data "$DATA" --models dual-inception \
        --threads 1 --bias-init mean $train --out "$NETS/$name" > "$RES/$name.train.log" 2>&1
    fi
    net="--net $net"
  fi
  $PY $HERE/probes.py "$AUTHORS" "$out.tmp" $net $probe --games "$GAMES" --label "$name" && mv "$out.tmp" "$out"
done
echo BISECT DONE
