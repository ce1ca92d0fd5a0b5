"""How far a player's discards are from minimum-deadwood play, read from a match trace.

For every discard of the named player: the deadwood its kept hand holds above the least any legal
discard leaves (the gap; the face-up card just taken is not legal), and how well three models of the
discard explain it, as the mean log chance of the card thrown: minimum-deadwood play with the opponent
filter's slip (``ginbots.search.opponent_model.SLIP``, against a tenth for any card), every legal
card equally likely, and near-minimum discards (a card leaving g points more than the least is r ** g
times as likely; ``filter_near_ratio``) for several r. Also its answers to face-up cards against the
rule "take it iff it completes a meld" and its knocks by deadwood.

Usage: python experiments/champion-tonic-screen/discard_gaps.py TRACE.jsonl PLAYER
(TRACE from ``ginbots match A B --trace TRACE.jsonl``; PLAYER: the spec as the trace names it)
"""

from __future__ import annotations

import collections
import json
import math
import sys

from ginbots.game.cards import completes_meld, parse_card
from ginbots.game.melds import discard_deadwoods, min_deadwood
from ginbots.search.opponent_model import SLIP

RATIOS = (0.4, 0.5, 0.6, 0.7, 0.8)


def read(path: str, player: str) -> tuple[list[tuple[int, list[int]]], collections.Counter, collections.Counter]:
    """(per discard: its gap and every legal discard's gap; face-up answers; knocks by deadwood)."""
    discards: list[tuple[int, list[int]]] = []
    offers: collections.Counter = collections.Counter()
    knocks: collections.Counter = collections.Counter()
    for line in open(path):
        game = json.loads(line)
        seat = game["players"].index(player)
        for hand in game["hands"]:
            held = [sum(1 << parse_card(c) for c in dealt) for dealt in hand["dealt"]]
            events = hand["events"]
            taken = None  # the face-up card the player to move just took
            for i, event in enumerate(events):
                kind, who = event["e"], event.get("p")
                if kind == "offer" and who == seat:
                    card = parse_card(event["card"])
                    offers[(completes_meld(card, held[seat]), event["take"])] += 1
                if kind == "offer":
                    taken = parse_card(event["card"]) if event["take"] else None
                elif kind == "draw":
                    held[who] |= 1 << parse_card(event["card"])
                elif kind == "discard":
                    card = parse_card(event["card"])
                    if who == seat:
                        options = {c: d for c, d in discard_deadwoods(held[seat]) if c != taken}
                        best = min(options.values())
                        discards.append((options[card] - best, [d - best for d in options.values()]))
                    held[who] &= ~(1 << card)
                    taken = None
                    if who == seat:
                        knocked = i + 1 < len(events) and events[i + 1]["e"] == "melds" and events[i + 1]["p"] == seat
                        deadwood = min_deadwood(held[seat])
                        if deadwood <= 10:
                            knocks[(deadwood, knocked)] += 1
    return discards, offers, knocks


def main(path: str, player: str) -> None:
    discards, offers, knocks = read(path, player)
    n = len(discards)
    gaps = collections.Counter(min(g, 10) for g, _ in discards)
    print(f"{player}: {n} discards; gap to the least deadwood (10: 10 or more):")
    print("  " + "  ".join(f"{g}: {gaps[g] / n:.3f}" for g in sorted(gaps)))
    hard = sum(math.log((1 - SLIP) * (g == 0) / sum(o == 0 for o in opts) + SLIP * 0.1) for g, opts in discards) / n
    uniform = sum(-math.log(len(opts)) for _, opts in discards) / n
    print(f"mean log chance of the card thrown: minimum-deadwood with slip {hard:.3f}, uniform {uniform:.3f}")
    for r in RATIOS:
        near = sum(g * math.log(r) - math.log(sum(r ** o for o in opts)) for g, opts in discards) / n
        print(f"  near-minimum r = {r}: {near:.3f}")
    print("face-up cards (completes a meld, taken): " + ", ".join(f"{k}: {v}" for k, v in sorted(offers.items())))
    print("after its discard with deadwood d <= 10, knocked / did not:")
    print("  " + "  ".join(f"{d}: {knocks[(d, True)]}/{knocks[(d, False)]}" for d in range(11)))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(sys.argv[1], sys.argv[2])
