#!/bin/bash
# Plays champion_targets.sh's chunks as independent jobs on every core: one process a chunk
# (workers 1, games to 100, duplicate deals, chunk i at seed 1000 + i), so a many-core machine
# screens several variants at once. Jobs come from a file of lines "SPEC OPPONENT FIRST LAST", in
# order of priority; a finished chunk (its JSON on disk) is skipped, so a stopped run resumes.
# Usage: experiments/champion-filter-trust/pool_chunks.sh JOBS OUT [PARALLEL] [CHUNK]
set -e
cd "$(dirname "$0")/../.."
JOBS=$1; OUT=$2; PARALLEL=${3:-$(nproc)}; CHUNK=${4:-250}
PY=${PY:-python3}
mkdir -p "$OUT"
# Compile the numba kernels once before the pool starts, so the jobs share one cache.
$PY -m ginbots match champion simple --games 2 --seed 1 --workers 1 --no-progress > /dev/null
while read -r spec opp first last; do
  [ -z "$spec" ] && continue
  for i in $(seq "$first" "$last"); do
    f="$OUT/${spec//[:=,]/_}__vs__${opp//[:=,]/_}__$i.json"
    [ -s "$f" ] || echo "$spec $opp $i $f"
  done
done < "$JOBS" | xargs -P "$PARALLEL" -L 1 sh -c \
  "$PY -m ginbots match \"\$0\" \"\$1\" --games $CHUNK --seed \$((1000 + \$2)) --workers 1 --duplicate --no-progress --json \"\$3.tmp\" > /dev/null && mv \"\$3.tmp\" \"\$3\""
