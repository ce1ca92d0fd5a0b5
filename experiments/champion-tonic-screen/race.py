"""How the hands of a match trace were won, seat by seat: gins, knocks short of gin, undercuts, face-up
pickups, and each side's deadwood after its own discards by turn.

Reads a JSON Lines trace of ``ginbots match A B --trace FILE`` (evaluation only; the engine's events, no
bot internals). A pickup "lowers the deadwood" when the hand's least deadwood with the card is below the
hand's without it (document 002's first draw rule as written: only a card that melds can). A gin or knock
"after a pickup" is one whose last draw was the card the opponent had just discarded.

Usage: python experiments/champion-tonic-screen/race.py TRACE [TRACE ...]
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from ginbots.arena.trace import dealt_hands, follow_hand
from ginbots.game.cards import parse_card
from ginbots.game.melds import min_deadwood


def bit(name: str) -> int:
    return 1 << parse_card(name)


def read(path: Path) -> tuple[collections.Counter, dict[str, dict[int, list[int]]], int]:
    """Counters by (player label, what), deadwood after each own discard by label and turn, and hands."""
    counts: collections.Counter = collections.Counter()
    deadwood: dict[str, dict[int, list[int]]] = collections.defaultdict(lambda: collections.defaultdict(list))
    hands_seen = 0
    for line in path.read_text().splitlines():
        game = json.loads(line)
        labels = game["players"]
        before = [0, 0]  # the game's scores before this hand (the engine's scores event is cumulative)
        for hand in game["hands"]:
            hands_seen += 1
            held = dealt_hands(hand)
            turns, last_discard, took_discard, melds, scores = [0, 0], [None, None], [False, False], [], before
            for event, after in follow_hand(hand):
                kind, seat = event["e"], event.get("p")
                if kind == "offer":
                    lowers = min_deadwood(held[seat] | bit(event["card"])) < min_deadwood(held[seat])
                    counts[labels[seat], "offers " + ("lowering" if lowers else "not lowering"),
                           "taken" if event["take"] else "passed"] += 1
                elif kind == "draw":
                    took_discard[seat] = last_discard[1 - seat] == event["card"]
                elif kind == "discard":
                    last_discard = [None, None]
                    last_discard[seat] = event["card"]
                    turns[seat] += 1
                    deadwood[labels[seat]][turns[seat]].append(min_deadwood(after[seat]))
                elif kind == "melds":
                    melds.append(seat)
                elif kind == "scores":
                    scores = event["scores"]
                held = after
            gained, before = [scores[seat] - before[seat] for seat in (0, 1)], scores
            if not melds:
                counts["cancelled hands"] += 1
                continue
            knocker = melds[0]
            label = labels[knocker]
            won = gained[knocker] > 0
            end = "gin" if min_deadwood(held[knocker]) == 0 else "knock won" if won else "knock undercut"
            counts[label, end] += 1
            counts[label, end, "points"] += max(gained)
            counts[label, end, "after a pickup"] += took_discard[knocker]
    return counts, deadwood, hands_seen


def report(path: Path) -> str:
    counts, deadwood, hands = read(path)
    labels = sorted({k[0] for k in counts if isinstance(k, tuple)})
    lines = [f"{path.name}: {hands} hands, {counts['cancelled hands']} cancelled"]
    for label in labels:
        taken = sum(v for k, v in counts.items() if isinstance(k, tuple) and k[0] == label and k[-1] == "taken")
        lines.append(f"  {label}: face-up cards taken {taken} "
                     f"({counts[label, 'offers not lowering', 'taken']} not lowering the deadwood, "
                     f"{counts[label, 'offers not lowering', 'passed']} such offers passed)")
        for end in ("gin", "knock won", "knock undercut"):
            lines.append(f"    {end:15s} {counts[label, end]:4d} hands, {counts[label, end, 'points']:6d} points, "
                         f"{counts[label, end, 'after a pickup']} right after a pickup")
    lines.append("  mean deadwood after its own discard, by its own turn (" + " | ".join(labels) + ")")
    for turn in range(1, 16):
        cells = [deadwood[label][turn] for label in labels]
        if all(cells):
            lines.append(f"    turn {turn:2d}: " + " | ".join(f"{sum(c) / len(c):5.1f} ({len(c)})" for c in cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("traces", nargs="+", type=Path)
    for path in parser.parse_args().traces:
        print(report(path))


if __name__ == "__main__":
    main()
