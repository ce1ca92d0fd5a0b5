#!/bin/bash
# Issue 17: document 002's loop with re-tuning between generations. Generation 1's mlp8 is trained on
# the heuristic agent's own games (generation 0 of experiments/mlp8-generations/mlp8_generations.sh, which must have run
# first: it makes the data and the fixed test set). Each generation then tunes the heuristic's
# hyperparameters with its own mlp8 (the shipped heuristic:tuned study's settings: 30 trials of 200
# games against Simple, seed 1), measures the tuned bot (2,000 games vs simple, duplicate deals, seed 1),
# and plays the next generation's data with the tuned bot (self-play and against Simple); the next mlp8
# trains on generation 0's data and every re-tuned generation's.
# Resumable: finished studies, chunks, weights and matches are kept.
# Usage: experiments/mlp8-generations/mlp8_retuned.sh   (env: GENS=2, GAMES=500, TRIALS=30, WORKERS=1)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
GENS=${GENS:-2}
GAMES=${GAMES:-500}
TRIALS=${TRIALS:-30}
DATA=data/estimators/mlp8_generations
WEIGHTS=weights/mlp8_retuned
RES=experiments/mlp8-generations/results/mlp8_retuned
mkdir -p "$RES" "$WEIGHTS"
[ -d "$DATA/test_heuristic_simple" ] || { echo "run experiments/mlp8-generations/mlp8_generations.sh first (generation 0 data)"; exit 1; }
for g in $(seq 1 "$GENS"); do
  w=$WEIGHTS/gen$g
  if [ "$g" = 1 ] && [ ! -s "$w/mlp8.card.json" ] && [ -s weights/mlp8_generations/gen1/mlp8.card.json ]; then
    mkdir -p "$w" && cp weights/mlp8_generations/gen1/mlp8.* "$w/"  # same data, same training: reuse it
  fi
  if [ ! -s "$w/mlp8.card.json" ]; then
    rm -rf "$DATA/train_retuned" && mkdir -p "$DATA/train_retuned"
    for d in "$DATA"/gen0_* $(for k in $(seq 1 $((g - 1))); do echo "$DATA/retuned${k}_"*; done); do
      ln -s "../${d##*/}" "$DATA/train_retuned/${d##*/}"  # generation 0 and every re-tuned generation so far
    done
    $PY -m ginbots estimators train mlp8 --data "$DATA/train_retuned" --max-rows 100000000 --epochs 6 --out "$w"
  fi
  cp "$w/mlp8.card.json" "$RES/gen${g}_mlp8.card.json"
  params=$RES/tune_gen$g/best/heuristic.json
  [ -s "$params" ] || GINBOTS_WEIGHTS=$w $PY -m ginbots tune heuristic --opponents simple --trials "$TRIALS" \
    --games-per-trial 200 --seed 1 --heldout-games 500 --workers "${WORKERS:-1}" --study "heuristic-gen$g" \
    --out "$RES/tune_gen$g" --no-progress > "$RES/tune_gen$g.log" 2>&1
  [ -s "$RES/gen${g}_tuned_vs_simple.json" ] || GINBOTS_WEIGHTS=$w $PY -m ginbots match "heuristic:$params" simple \
    --games 2000 --seed 1 --workers "${WORKERS:-1}" --duplicate --no-progress --json "$RES/gen${g}_tuned_vs_simple.json" > /dev/null
  [ "$g" -lt "$GENS" ] || break
  for opp in self simple; do
    if [ $opp = self ]; then other=heuristic:$params; seed=$((50 + 2 * g)); else other=simple; seed=$((51 + 2 * g)); fi
    GINBOTS_WEIGHTS=$w $PY -m ginbots estimators generate --players "heuristic:$params,$other" --games "$GAMES" \
      --seed "$seed" --chunk 250 --workers "${WORKERS:-1}" --out "$DATA/retuned${g}_$opp" > /dev/null
  done
done
$PY experiments/mlp8-generations/mlp8_summary.py "$DATA" "$WEIGHTS" "$RES" "$GENS" _tuned_vs_simple.json
