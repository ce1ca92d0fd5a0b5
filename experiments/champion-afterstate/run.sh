#!/usr/bin/env bash
# The champion's afterstate value (issue 37, part 3): record the champion's own games, train the
# network, and compare the champion with it against the champion without, on paired single hands.
# Usage: bash experiments/champion-afterstate/run.sh [GAMES] [WORKERS] [DATA]
# (resumable: data chunks on disk are kept; GAMES counts games to 100 of the recorder)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-3000}; workers=${2:-2}; data=${3:-data/afterstate}
python -m ginbots.training.afterstate_data "$data" "$games" --workers "$workers"
python -m ginbots.training.afterstate_train "$data" experiments/champion-afterstate/results/net --epochs 8
export GINBOTS_WEIGHTS=experiments/champion-afterstate/results/net
out=experiments/champion-afterstate/results
python experiments/champion-targets/champion_ab.py simple champion champion:afterstate_weight=0.5 \
    champion:afterstate_weight=1 champion:afterstate_weight=2 --deals 300 --seed 7 --workers "$workers" \
    --json $out/ab_vs_simple_seed7.json
python experiments/champion-targets/champion_ab.py heuristic:tuned champion champion:afterstate_weight=0.5 \
    champion:afterstate_weight=1 champion:afterstate_weight=2 --deals 200 --seed 8 --workers "$workers" \
    --json $out/ab_vs_heuristic_tuned_seed8.json
