#!/bin/bash
# Plays packaged ginbots entries in the challenge's real Java code: the tournament runner vermouth
# (MTU-Tonic/vermouth) and the engine's own GinRummyGame (tneller/gin-rummy-eaai), against the
# challenge's SimpleGinRummyPlayer. Neither is shipped here: clone them (a work tree or a bare git
# directory). vermouth's logging and CSV libraries (log4j, opencsv) are replaced by the small
# stand-ins in standins/, so that it builds without Maven Central; commons-cli is taken from the system.
# Usage: experiments/real-java/run.sh ENGINE_CHECKOUT VERMOUTH_CHECKOUT OUT GAMES BOT [BOT...]
#   (env: PYTHON_BIN=a bin folder whose python3 has numpy and onnxruntime, default .venv/bin;
#    COMMONS_CLI=path of a commons-cli jar; JAVA_OPTS=options for both JVMs, e.g. -Dginbots.budget=1.2;
#    ENGINE_ONLY=1 skips vermouth, whose checkout is then not read;
#    OPPONENT=a Java entry's class and OPPONENT_BUILD=a folder with its
#    classes/ and the files it reads, as experiments/outside-opponents/java/build.sh makes them:
#    GinRummyGame plays the first BOT against that entry instead of Simple, and with ENTRY_BASELINE=1
#    the entry against Simple first)
# The deals are not reproducible: GinRummyGame shuffles with its own unseeded Random, which vermouth's
# --seed does not reach.
# Writes OUT/vermouth.{log,err} and OUT/games.csv (--oneall: the first BOT against every other BOT and
# Simple, GAMES games each; KEEP_STATS=1 keeps vermouth's whole record), OUT/engine.log (the first BOT
# against Simple in GinRummyGame, GAMES games) and
# OUT/summary.txt, which counts the shim's warnings (a fallback move, a timeout, a restart).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
[ $# -ge 5 ] || { sed -n 2,15p "$0"; exit 2; }
engine=$1 vermouth=$2 out=$3 games=$4
shift 4
PYTHON_BIN=${PYTHON_BIN:-$root/.venv/bin}
COMMONS_CLI=${COMMONS_CLI:-$(ls /usr/share/java/commons-cli*.jar 2>/dev/null | head -1)}
[ -f "$COMMONS_CLI" ] || { echo "no commons-cli jar: set COMMONS_CLI" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source "$here/checkout.sh"
checkout_files "$engine" "$work/engine"
mkdir -p "$work/engine-classes" "$work/vermouth-classes"
javac -nowarn -d "$work/engine-classes" "$work"/engine/ginrummy/*.java "$here/EngineMatch.java" 2> >(grep -v "^Note:" >&2)
if [ -z "${ENGINE_ONLY:-}" ]; then  # with ENGINE_ONLY the second checkout is neither read nor compiled: any path will do
  checkout_files "$vermouth" "$work/vermouth"
  javac -nowarn -d "$work/vermouth-classes" -cp "$COMMONS_CLI" \
    $(find "$here/standins" "$work/vermouth/src/main/java" -name '*.java') 2> >(grep -v "^Note:" >&2)
fi
opponent=${OPPONENT:-ginrummy.SimpleGinRummyPlayer}
run_in=$out extra=""
if [ -n "${OPPONENT_BUILD:-}" ]; then
  run_in=$(cd "$OPPONENT_BUILD" && pwd) extra=":$run_in/classes"  # an entry may read files beside it
fi

agents=()
for bot in "$@"; do
  name=${bot//[:=,]/-}
  "$PYTHON_BIN/python" -m ginbots package "$bot" --output "$work/dist" > /dev/null
  mkdir -p "$work/bots/$name"
  (cd "$work/bots/$name" && unzip -q "$work"/dist/*.zip && rm "$work"/dist/*.zip)
  agents+=("file:$work/bots/$name/java/classes/ginbots.GinbotsPlayer")
done
agents+=("file:$work/vermouth-classes/ginrummy.SimpleGinRummyPlayer")

export PATH="$PYTHON_BIN:$PATH"
rm -f "$out/vermouth.zip"
if [ -z "${ENGINE_ONLY:-}" ]; then
(cd "$out" && java ${JAVA_OPTS:-} -cp "$work/vermouth-classes:$COMMONS_CLI" eaai.ginrummy.Main --oneall \
  --games "$games" --identifier vermouth --agents "${agents[@]}" \
  > vermouth.log 2> vermouth.err)
unzip -o -q "$out/vermouth.zip" games.csv -d "$out"  # per game scores; stats.csv (per call CPU time) is large
[ -n "${KEEP_STATS:-}" ] || rm "$out/vermouth.zip"
fi
first=${1//[:=,]/-}
if [ -n "${ENTRY_BASELINE:-}" ]; then
  (cd "$run_in" && java ${JAVA_OPTS:-} -cp "$work/engine-classes$extra" EngineMatch "$games" \
    ginrummy.SimpleGinRummyPlayer "$opponent" > "$out/entry_vs_simple.log" 2> "$out/entry_vs_simple.err")
fi
(cd "$run_in" && java ${JAVA_OPTS:-} -cp "$work/engine-classes:$work/bots/$first/java/classes$extra" EngineMatch \
  "$games" "$opponent" > "$out/engine.log" 2> "$out/engine.err")
{
  [ -f "$out/games.csv" ] && "$PYTHON_BIN/python" - "$out/games.csv" "$@" simple <<'PY'
import collections, csv, sys
from ginbots.arena.stats import wilson
names = sys.argv[2:]
wins, games = collections.Counter(), collections.Counter()
for row in csv.DictReader(open(sys.argv[1])):
    if row["PLAYER"] != "0":  # the first entry's row of each game; its opponent is the other row's player
        games[row["PLAYER"]] += 1
        wins[row["PLAYER"]] += 1 - int(row["WIN"])
for p in sorted(games, key=int):
    low, high = wilson(wins[p], games[p], 0.90)
    print(f"vermouth: {names[0]} vs {names[int(p)]}: {wins[p]} of {games[p]} won, "
          f"{100 * wins[p] / games[p]:.1f}% [{100 * low:.1f}, {100 * high:.1f}] (90% Wilson)")
PY
  [ -f "$out/entry_vs_simple.log" ] && sed "s/^/GinRummyGame, $opponent vs Simple: /" "$out/entry_vs_simple.log"
  sed "s/^/GinRummyGame, against $opponent: /" "$out/engine.log"
  echo "shim messages other than bridge ready (fallbacks, timeouts, restarts): $(cat "$out"/*.err \
    | grep "ginbots shim:" | grep -c -v "bridge ready" || true)"
  for what in "no answer within" "restarted after" "built-in move" "bot unavailable"; do
    echo "  '$what': $(cat "$out"/*.err | grep -c "$what" || true)"
  done
} | tee "$out/summary.txt"
