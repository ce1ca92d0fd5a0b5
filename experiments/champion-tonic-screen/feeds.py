"""Which discards of a match trace handed the other side a gin: by player, split by whether the discard was
document 002's forced one (the highest unmelded card, when throwing it leaves the hand knockable), and how
many of those had another discard that also left the hand knockable and would not have handed a gin.

Reads a JSON Lines trace of ``ginbots match A B --trace FILE`` (evaluation only: the engine's events, so
both hands are known here though neither player knew the other's). A discard "hands a gin" when the other's
ten cards with it hold a gin after some discard, whether or not the other then took it.

Usage: python experiments/champion-tonic-screen/feeds.py TRACE [TRACE ...]
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from ginbots.arena.trace import follow_hand
from ginbots.game.cards import parse_card
from ginbots.game.melds import discard_deadwoods, min_deadwood
from ginbots.players.heuristic import highest_card, knockable_discards, unmelded_discards


def gins_with(hand: int, card: int) -> bool:
    """Whether ten cards ``hand`` plus ``card`` make a gin after one discard."""
    eleven = hand | 1 << card
    return any(dw == 0 for _, dw in discard_deadwoods(eleven))


def forced_discard(before: int) -> tuple[int | None, list[int]]:
    """The document's forced discard of an eleven-card hand (None if there is none) and every unmelded
    card whose discard leaves the hand knockable, by the heuristic's own rule."""
    now = min_deadwood(before)
    knockable = knockable_discards(unmelded_discards(discard_deadwoods(before), now), now)
    return (highest_card(knockable) if knockable else None), knockable


def count(path: Path) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    for line in path.read_text().splitlines():
        game = json.loads(line)
        labels = game["players"]
        for hand in game["hands"]:
            for event, held in follow_hand(hand):
                if event["e"] != "discard":
                    continue
                seat, card = event["p"], parse_card(event["card"])
                before, other = held[seat] | 1 << card, held[1 - seat]
                forced, knockable = forced_discard(before)
                kind = "forced" if card == forced else "other"
                counts[labels[seat], kind, "discards"] += 1
                if gins_with(other, card):
                    counts[labels[seat], kind, "handed a gin"] += 1
                    if kind == "forced" and any(not gins_with(other, c) for c in knockable if c != card):
                        counts[labels[seat], kind, "handed a gin, a safe knockable discard besides"] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", type=Path)
    for path in parser.parse_args().traces:
        counts = count(path)
        print(path.name)
        for label in sorted({k[0] for k in counts}):
            for kind in ("forced", "other"):
                n = counts[label, kind, "discards"]
                gins = counts[label, kind, "handed a gin"]
                line = f"  {label}: {kind} discards {n}, handed a gin {gins} ({100 * gins / max(n, 1):.1f}%)"
                if kind == "forced":
                    line += f", {counts[label, kind, 'handed a gin, a safe knockable discard besides']} of them " \
                            "with a safe knockable discard besides"
                print(line)


if __name__ == "__main__":
    main()
