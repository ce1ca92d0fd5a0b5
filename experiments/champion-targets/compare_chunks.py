"""Two champion variants' chunked results, compared on the deals both have played.

``champion_targets.sh`` writes chunk i of an opponent with seed 1000 + i, so two result folders
hold the same deals wherever their chunk indices agree. This pools, per opponent, the chunks
both variants finished and prints each variant's win rate (90% Wilson) and the paired
difference in wins on those deals.

Usage: python experiments/champion-targets/compare_chunks.py DIR_A PREFIX_A DIR_B PREFIX_B [DIR_A PREFIX_A DIR_B PREFIX_B ...]
  (PREFIX: the file-name prefix before ``__vs__``, e.g. champion_worlds_96). More than one group of four pools
  them: chunks played in different folders (the first chunks in one, fresh ones in another) are compared as one
  set; a chunk index found twice on one side is refused, since it would count one set of deals twice (the same folder
  and prefix named in several groups is read once). ``--chunks 1-40`` keeps only the chunks in that range (the target
  deals apart from the fresh ones, 61-100, when one folder holds both).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

from ginbots.arena.stats import mean_and_se, wilson

CHUNK_NAME = re.compile(r"^(?P<prefix>.+?)__vs__(?P<opponent>.+)__(?P<index>\d+)\.json$")


def chunk_wins(folder: Path, prefix: str) -> dict[str, dict[int, tuple[int, int]]]:
    """{opponent: {chunk index: (wins, decided games)}} of one variant's finished chunks."""
    found: dict[str, dict[int, tuple[int, int]]] = collections.defaultdict(dict)
    for path in folder.glob(f"{prefix}__vs__*.json"):
        match = CHUNK_NAME.match(path.name)
        if not match or match["prefix"] != prefix:
            continue
        side = json.loads(path.read_text())["A"]
        found[match["opponent"]][int(match["index"])] = (side["wins"], side["wins"] + side["losses"])
    return found


def pooled_wins(sources: list[tuple[Path, str]]) -> dict[str, dict[int, tuple[int, int]]]:
    """``chunk_wins`` of several (folder, prefix) sources of one side, merged; a chunk index twice is an error."""
    pooled: dict[str, dict[int, tuple[int, int]]] = collections.defaultdict(dict)
    for folder, prefix in sources:
        for opponent, chunks in chunk_wins(folder, prefix).items():
            twice = sorted(set(pooled[opponent]) & set(chunks))
            if twice:
                raise SystemExit(f"{folder} {prefix}: chunks {twice} against {opponent} are already pooled from "
                                 f"another folder; each set of deals may count once")
            pooled[opponent].update(chunks)
    return pooled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="+", metavar="DIR_A PREFIX_A DIR_B PREFIX_B")
    parser.add_argument("--chunks", type=chunk_range, default=None, metavar="LO-HI",
                        help="only the chunks with an index in this range, both ends included")
    args = parser.parse_args(argv)
    if len(args.groups) % 4:
        parser.error("arguments come in groups of four: DIR_A PREFIX_A DIR_B PREFIX_B")
    groups = [args.groups[i:i + 4] for i in range(0, len(args.groups), 4)]
    # A folder and prefix named in several groups (one variant's chunks all in one folder, the other's spread
    # over several) is one source: its files count once.
    a = pooled_wins(list(dict.fromkeys((Path(g[0]), g[1]) for g in groups)))
    b = pooled_wins(list(dict.fromkeys((Path(g[2]), g[3]) for g in groups)))
    for opponent in sorted(set(a) & set(b)):
        common = sorted(i for i in set(a[opponent]) & set(b[opponent])
                        if args.chunks is None or args.chunks[0] <= i <= args.chunks[1])
        if not common:
            continue
        wins_a = sum(a[opponent][i][0] for i in common)
        wins_b = sum(b[opponent][i][0] for i in common)
        games_a = sum(a[opponent][i][1] for i in common)
        games_b = sum(b[opponent][i][1] for i in common)
        lo_a, hi_a = wilson(wins_a, games_a, 0.90)
        lo_b, hi_b = wilson(wins_b, games_b, 0.90)
        # Chunk-level spread of the paired difference (chunks are independent deals).
        diffs = [a[opponent][i][0] / a[opponent][i][1] - b[opponent][i][0] / b[opponent][i][1] for i in common]
        spread = mean_and_se(diffs)[1] if len(diffs) > 1 else float("nan")
        print(f"{opponent:24s} chunks {common[0]}-{common[-1]} ({len(common)}): "
              f"A {100 * wins_a / games_a:5.1f}% [{100 * lo_a:.1f}, {100 * hi_a:.1f}] ({wins_a}/{games_a})  "
              f"B {100 * wins_b / games_b:5.1f}% [{100 * lo_b:.1f}, {100 * hi_b:.1f}] ({wins_b}/{games_b})  "
              f"A-B {100 * (wins_a / games_a - wins_b / games_b):+.1f} +- {100 * spread:.1f} points")
    return 0


def chunk_range(text: str) -> tuple[int, int]:
    """``--chunks``: LO-HI, two chunk indices."""
    lo, _, hi = text.partition("-")
    if not (lo.isdigit() and hi.isdigit()) or int(lo) > int(hi):
        raise argparse.ArgumentTypeError(f"{text!r}: give a range of chunk indices, such as 1-40")
    return int(lo), int(hi)


if __name__ == "__main__":
    sys.exit(main())
