#!/usr/bin/env bash
# The champion's afterstate value (issue 37, part 3): record the champion's own games, train the two
# networks, and compare the champion using them with the default on paired single hands.
# Usage: bash experiments/champion-afterstate/run.sh [GAMES] [WORKERS] [DATA] [DEALS]
# (resumable: data chunks on disk are kept; GAMES counts the recorder's games to 100)
set -euo pipefail
cd "$(dirname "$0")/../.."
games=${1:-5000}; workers=${2:-2}; data=${3:-data/afterstate}; deals=${4:-1000}
out=experiments/champion-afterstate/results
python -m ginbots.training.afterstate_data "$data" "$games" --workers "$workers"
for net in "" --play-on; do
    python -m ginbots.training.afterstate_train "$data" $out/net --epochs 5 --td-lambda 0.7 --generations 2 $net
done
export GINBOTS_WEIGHTS=$out/net  # the networks just trained, ahead of the shipped ones
# The committed ab_* files were made while the default was afterstate_weight=0 and call it `champion`;
# since 2026-11-26 the default is 1, so the base is named explicitly here.
base=champion:afterstate_weight=0
python experiments/champion-targets/champion_ab.py simple $base champion:afterstate_weight=0.5 \
    champion:afterstate_weight=1 $base,knock_leaf=learned --deals "$deals" --seed 107 --workers "$workers" \
    --json $out/ab_vs_simple_seed107.json
python experiments/champion-targets/champion_ab.py heuristic:tuned $base champion:afterstate_weight=0.5 \
    champion:afterstate_weight=1 $base,knock_leaf=learned --deals $((deals / 2)) --seed 108 --workers "$workers" \
    --json $out/ab_vs_heuristic_tuned_seed108.json
