#!/usr/bin/env bash
# Screen champion variants against the public entry Gin Rummy and Tonic on one seed's 600 deals,
# each to be paired deal by deal with the default's games on the same seed
# (experiments/champion-knock-net/results/tonic_blend/). Resumable: a variant whose file exists is skipped.
# Usage: SEED=2028 bash experiments/champion-tonic-screen/screen.sh SPEC [SPEC ...]
set -euo pipefail
seed=${SEED:-2028}
out=${OUT:-experiments/champion-tonic-screen/results}
mkdir -p "$out"
for spec in "$@"; do
  name=$(echo "$spec" | sed 's/:/-/; s/[=,]/_/g')
  file="$out/${name}_vs_java-tonic_600_seed${seed}.json"
  [ -f "$file" ] && { echo "have $file"; continue; }
  ginbots match "$spec" java-tonic --games 600 --seed "$seed" --workers 2 --duplicate --json "$file.part" --no-progress
  mv "$file.part" "$file"
done
