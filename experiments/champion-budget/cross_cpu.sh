#!/usr/bin/env bash
# The champion's games on other CPUs, emulated on this one: each match played natively, then with numba
# compiled for a generic x86-64 CPU and numpy's dispatch held to its baseline (no AVX2/FMA/AVX-512 code),
# then with onnxruntime's graph optimisations off, then with every network output moved one ulp;
# each compared game for game with the native run (compare_games.py --same).
# Usage: bash experiments/champion-budget/cross_cpu.sh OUT "OPP:GAMES:SEED ..."
set -euo pipefail
OUT=${1:?OUT folder}; MATCHES=${2:-"heuristic:tuned:40:1001 simple:knock_at=0:60:1002 java-tonic:40:1003 simple:200:1004"}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
for m in $MATCHES; do
  seed=${m##*:}; rest=${m%:*}; games=${rest##*:}; opp=${rest%:*}; tag=$(echo "$opp" | tr ':=' '__')
  args=(match champion "$opp" --games "$games" --seed "$seed" --workers 1 --duplicate)
  ginbots "${args[@]}" --json "$OUT/native_$tag.json" > /dev/null
  # against an entry from outside the bundle the deals come from the run key: replay the native run's
  key=$(python -c "import json,sys; print(json.load(open(sys.argv[1])).get('run_key') or '')" "$OUT/native_$tag.json")
  [ -n "$key" ] && args+=(--run-key "$key")
  NUMBA_CPU_NAME=generic NUMBA_CACHE_DIR="$OUT/.numba-generic" NPY_DISABLE_CPU_FEATURES="X86_V3 X86_V4" \
    ginbots "${args[@]}" --json "$OUT/generic_cpu_$tag.json" > /dev/null
  for mode in noopt ulp; do
    python "$HERE/perturbed_match.py" $mode "${args[@]}" --json "$OUT/ort_${mode}_$tag.json" > /dev/null
  done
  for v in generic_cpu ort_noopt ort_ulp; do
    echo "$v vs native, $opp: $(python "$HERE/../champion-targets/compare_games.py" "$OUT/${v}_$tag.json" "$OUT/native_$tag.json" --same | tail -1)"
  done | tee -a "$OUT/summary.txt"
done
rm -rf "$OUT/.numba-generic"
