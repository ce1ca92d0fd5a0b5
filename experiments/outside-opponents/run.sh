#!/usr/bin/env bash
# The bundle's strongest bots against opponents written outside it (issue 37: generalisation).
# Install the opponents first: pip install -e experiments/outside-opponents
# Usage: [OPPONENTS="a b"] bash experiments/outside-opponents/run.sh [GAMES] [SEED] [WORKERS]
# (resumable: pairs with a result file are kept)
set -euo pipefail
cd "$(dirname "$0")"
games=${1:-200}; seed=${2:-2027}; workers=${3:-2}
mkdir -p results
for opp in ${OPPONENTS:-early-knocker gin-waiter defender}; do
    base="results/${opp}_vs_simple_${games}_seed${seed}.json"
    [ -s "$base" ] || ginbots match "$opp" simple --games "$games" --seed "$seed" --workers "$workers" --duplicate \
        --json "$base" | grep -E "^\s+A " || true
    for bot in champion heuristic:tuned keats:tuned planner:tuned simple; do
        [ "$bot" = simple ] && continue
        out="results/${bot/:/-}_vs_${opp}_${games}_seed${seed}.json"
        [ -s "$out" ] && continue
        ginbots match "$bot" "$opp" --games "$games" --seed "$seed" --workers "$workers" --duplicate --json "$out" \
            | grep -E "^\s+A " || true
    done
done
