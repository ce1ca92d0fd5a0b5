#!/bin/bash
# Builds challenge entries written in Java, with the server that plays them over the ginbots bridge
# protocol, into outside_opponents/java_build/ (not committed): then `ginbots match BOT java-tonic`.
# Usage: experiments/outside-opponents/java/build.sh ENGINE_CHECKOUT TONIC_CHECKOUT [SIGRA_CHECKOUT]
#   ENGINE_CHECKOUT: tneller/gin-rummy-eaai (its ginrummy package: Card, GinRummyPlayer, GinRummyUtil);
#   TONIC_CHECKOUT: bendstein/Gin-Rummy, whose src/GinRummyAndTonic_Player.java is a public EAAI entry
#   (written in the default package against its own copies of the challenge's classes; compiled here
#   against the engine's package instead, and given its opponent statistics, opponentEV.txt);
#   SIGRA_CHECKOUT (optional): cudy789/gin-rummy-SIGRA, whose sigra package is another entry, played
#   as java-sigra and java-sigra-stubborn (entries/Sigra*.java name its two configurations).
# Any checkout may be a work tree or a bare git directory. None is shipped here.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
[ $# -eq 2 ] || [ $# -eq 3 ] || { sed -n 2,12p "$0"; exit 2; }
out=$here/../outside_opponents/java_build
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$root/experiments/real-java/checkout.sh"
checkout_files "$1" "$work/engine"
checkout_files "$2" "$work/tonic"
rm -rf "$out" && mkdir -p "$out/classes"
sed '1i import ginrummy.*;' "$work/tonic/src/GinRummyAndTonic_Player.java" > "$work/GinRummyAndTonic_Player.java"
entries=("$work/GinRummyAndTonic_Player.java")
if [ $# -eq 3 ]; then
  checkout_files "$3" "$work/sigra"
  # its package as its authors' Makefile builds it; the precomputed tables are not read in play
  entries+=($(find "$work/sigra/sigra" -name '*.java') "$here"/entries/Sigra*.java)
fi
javac -nowarn -d "$out/classes" "$work"/engine/ginrummy/*.java "${entries[@]}" \
  "$here/EntryServer.java" "$root/ginbots/connect/shim/java/ginbots/Json.java" 2> >(grep -v "^Note:" >&2)
cp "$work/tonic/src/opponentEV.txt" "$out/"
{
  echo "engine: $(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo work tree)"
  echo "tonic: $(git -C "$2" rev-parse --short HEAD 2>/dev/null || echo work tree)"
  [ $# -lt 3 ] || echo "sigra: $(git -C "$3" rev-parse --short HEAD 2>/dev/null || echo work tree)"
} > "$out/SOURCES.txt"
echo "built into $out: $(tr "\n" " " < "$out/SOURCES.txt")"
