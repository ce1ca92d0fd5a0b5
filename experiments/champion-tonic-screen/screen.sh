#!/usr/bin/env bash
# Screen champion variants against the public entry Gin Rummy and Tonic on one seed's 600 deals,
# each to be paired deal by deal with the default's games on the same seed
# (experiments/champion-knock-net/results/tonic_blend/). Resumable: a variant whose file exists is skipped.
# A seed's deals depend on the judge key of the machine that played them: each variant replays the run
# key recorded in the default's file for the seed (KEY_FROM, default the override_margin=5 file in OUT)
# when that file exists, so it plays the default's deals on any machine.
# Usage: SEED=2028 bash experiments/champion-tonic-screen/screen.sh SPEC [SPEC ...]
set -euo pipefail
seed=${SEED:-2028}
out=${OUT:-experiments/champion-tonic-screen/results}
mkdir -p "$out"
key_from=${KEY_FROM:-$out/champion-override_margin_5_vs_java-tonic_600_seed${seed}.json}
key=()
if [ -f "$key_from" ]; then
  key=(--run-key "$(python -c 'import json, sys; print(json.load(open(sys.argv[1]))["run_key"])' "$key_from")")
  echo "deals of $key_from"
fi
for spec in "$@"; do
  name=$(echo "$spec" | sed 's/:/-/; s/[=,]/_/g')
  file="$out/${name}_vs_java-tonic_600_seed${seed}.json"
  [ -f "$file" ] && { echo "have $file"; continue; }
  ginbots match "$spec" java-tonic --games 600 --seed "$seed" --workers 2 --duplicate --json "$file.part" --no-progress "${key[@]}"
  mv "$file.part" "$file"
done
