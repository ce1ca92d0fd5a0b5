#!/bin/bash
# Issue 17: document 002's way of training mlp8. Generation 0's data is the heuristic agent's own play
# (heuristic vs heuristic:tuned, and each against Simple); each generation trains mlp8 on all data so
# far, measures the heuristic bot with it (2,000 games vs simple, duplicate deals) and document 002's
# accuracy / precision on a fixed test set, then plays the next generation's data with it (self-play
# and against Simple). experiments/mlp8-generations/mlp8_retuned.sh adds re-tuning between generations on this data.
# Resumable: finished chunks, weights and results are kept.
# Usage: experiments/mlp8-generations/mlp8_generations.sh   (env: GENS=3, GAMES=500, WORKERS=1)
set -e
cd "$(dirname "$0")/../.."
PY=${PY:-.venv/bin/python}
GENS=${GENS:-3}
GAMES=${GAMES:-500}
DATA=data/estimators/mlp8_generations
WEIGHTS=weights/mlp8_generations
RES=experiments/mlp8-generations/results/mlp8_generations
mkdir -p "$RES" "$WEIGHTS"
gen() {  # gen NAME PLAYERS GAMES SEED [weights dir]
  GINBOTS_WEIGHTS=${5:-} $PY -m ginbots estimators generate --players "$2" --games "$3" --seed "$4" \
    --chunk 250 --workers "${WORKERS:-1}" --out "$DATA/$1" > /dev/null
}
gen test_heuristic_tuned heuristic,heuristic:tuned 150 4040
gen test_heuristic_simple heuristic,simple 150 4041
gen gen0_heuristic_tuned heuristic,heuristic:tuned "$GAMES" 21
gen gen0_heuristic_simple heuristic,simple "$GAMES" 22
gen gen0_tuned_simple heuristic:tuned,simple "$GAMES" 23
for g in $(seq 1 "$GENS"); do
  w=$WEIGHTS/gen$g
  if [ ! -s "$w/mlp8.card.json" ]; then
    rm -rf "$DATA/train" && mkdir -p "$DATA/train"
    for d in "$DATA"/gen*; do  # every generation so far, never the test set
      n=${d##*/gen}; [ "${n%%_*}" -lt "$g" ] && ln -s "../${d##*/}" "$DATA/train/${d##*/}"
    done
    $PY -m ginbots estimators train mlp8 --data "$DATA/train" --max-rows 100000000 --epochs 6 --out "$w"
  fi
  [ -s "$RES/gen${g}_vs_simple.json" ] || GINBOTS_WEIGHTS=$w $PY -m ginbots match heuristic simple --games 2000 \
    --seed 1 --workers "${WORKERS:-1}" --duplicate --no-progress --json "$RES/gen${g}_vs_simple.json" > /dev/null
  cp "$w/mlp8.card.json" "$RES/gen${g}_mlp8.card.json"
  [ "$g" -lt "$GENS" ] || break
  gen "gen${g}_self" heuristic,heuristic "$GAMES" $((30 + 2 * g)) "$w"
  gen "gen${g}_simple" heuristic,simple "$GAMES" $((31 + 2 * g)) "$w"
done
$PY experiments/mlp8-generations/mlp8_summary.py "$DATA" "$WEIGHTS" "$RES" "$GENS"
