"""The challenge's rules as pure functions: answer checks, meld validation, layoffs, scoring.

The engine calls these; tests and bots may too (e.g. to predict layoffs).
Nothing here holds game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES, GIN_BONUS, MAX_DEADWOOD, MELD_SET, NUM_CARDS, UNDERCUT_BONUS, cards_of

RULES = {
    "discard-not-in-hand": "a discard must be a card in the player's hand",
    "discard-face-up": "a card taken face-up may not be discarded in the same turn",
    "illegal-meld": "every declared meld must be a legal set or run",
    "meld-not-in-hand": "declared melds must be cards of the player's hand",
    "overlapping-melds": "declared melds must be disjoint",
    "knock-over-10": f"a knock needs deadwood <= {MAX_DEADWOOD} under the declared melds",
    "missing-declaration": "when the opponent knocks, a player must declare melds (an empty list is fine)",
    "bad-answer-type": "each decision must return the type the interface names",
    "exception": "a player must not raise",
    "time-budget": "a player's thinking time per game is limited",
}


@dataclass(frozen=True)
class Forfeit:
    """Why a game ended early: who, in which callback, which rule, details."""

    seat: int
    player: str
    action: str
    rule: str
    detail: str

    @property
    def reason(self) -> str:
        return (
            f"seat {self.seat} ({self.player}) forfeits in {self.action}: {self.detail} "
            f"[rule {self.rule}: {RULES.get(self.rule, '')}]"
        )

    def to_json(self) -> dict[str, Any]:
        return {"p": self.seat, "player": self.player, "action": self.action,
                "rule": self.rule, "detail": self.detail, "reason": self.reason}



def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def as_meld_masks(value: Any) -> tuple[int, ...]:
    """A player's melds as a tuple of card-set ints; TypeError says what is wrong.

    Each meld may be a card-set int or a sequence of distinct card ids.
    """
    if isinstance(value, (str, bytes, int)) or not hasattr(value, "__iter__"):
        raise TypeError(f"melds must be a list of melds, got {_describe(value)}")
    out = []
    for meld in value:
        if isinstance(meld, bool):
            raise TypeError(f"a meld must be a card-set int or a list of card ids, got {meld!r}")
        if isinstance(meld, int) or hasattr(meld, "__index__"):
            mask = int(meld)
            if not 0 < mask < 1 << NUM_CARDS:
                raise TypeError(f"meld mask {mask} is not a set of cards 0-51")
        elif hasattr(meld, "__iter__") and not isinstance(meld, (str, bytes)):
            mask = 0
            n = 0
            for c in meld:
                c = as_card(c)
                mask |= 1 << c
                n += 1
            if n != mask.bit_count():
                raise TypeError(f"meld {_describe(meld)} names a card twice")
        else:
            raise TypeError(f"a meld must be a card-set int or a list of card ids, got {_describe(meld)}")
        out.append(mask)
    return tuple(out)


def as_card(value: Any) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or hasattr(value, "__index__")):
        raise TypeError(f"a card must be an int 0-51, got {_describe(value)}")
    card = int(value)
    if not 0 <= card < NUM_CARDS:
        raise TypeError(f"a card must be an int 0-51, got {card}")
    return card


def as_bool(value: Any) -> bool:
    if type(value).__name__ in ("bool_", "bool"):
        return bool(value)
    raise TypeError(f"will_draw_face_up must return a bool, got {_describe(value)}")


def check_melds(hand: int, melds: tuple[int, ...]) -> tuple[str, str] | None:
    """First problem with declaring ``melds`` from ``hand``: (rule, detail), or None."""
    free = hand
    for m in melds:
        if m not in MELD_SET:
            return "illegal-meld", f"[{names_of(m)}] is not a legal meld"
        if m & ~hand:
            return "meld-not-in-hand", f"[{names_of(m)}] uses {names_of(m & ~hand)}, not in hand"
        if m & ~free:
            return "overlapping-melds", f"[{names_of(m)}] reuses {names_of(m & ~free)}"
        free &= ~m
    return None


def names_of(mask: int) -> str:
    return " ".join(CARD_NAMES[c] for c in cards_of(mask))


def lay_off(unmelded: int, melds: list[int]) -> list[tuple[int, int, int]]:
    """The engine's greedy layoffs: (card, meld index, meld before) in order; grows ``melds``.

    Scan the non-knocker's unmelded cards by ascending id and, for each, the
    knocker's melds in declared order; lay off the first fit and rescan.
    """
    out = []
    while True:
        rest = unmelded
        found = False
        while rest:
            low = rest & -rest
            rest ^= low
            for i, m in enumerate(melds):
                if m | low in MELD_SET:
                    card = low.bit_length() - 1
                    out.append((card, i, m))
                    melds[i] = m | low
                    unmelded ^= low
                    found = True
                    break
            if found:
                break
        if not found:
            return out


def score_knock(knocker_deadwood: int, opponent_deadwood: int) -> tuple[str, bool, int]:
    """(result, knocker_wins, points) for a knock, by the challenge's scoring."""
    if knocker_deadwood == 0:
        return "gin", True, GIN_BONUS + opponent_deadwood
    if knocker_deadwood < opponent_deadwood:
        return "knock", True, opponent_deadwood - knocker_deadwood
    return "undercut", False, UNDERCUT_BONUS + knocker_deadwood - opponent_deadwood


def meld_lists(melds: tuple[int, ...]) -> list[list[str]]:
    return [[CARD_NAMES[c] for c in cards_of(m)] for m in melds]


def meld_names(melds: tuple[int, ...]) -> str:
    return " ".join("[" + names_of(m) + "]" for m in melds) or "(none)"
