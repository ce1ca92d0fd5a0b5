"""The challenge's rules as pure functions: answer checks, meld validation, layoffs, scoring.

The engine calls these; tests and bots may too (e.g. to predict layoffs).
Nothing here holds game state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import (
    CARD_NAMES,
    GIN_BONUS,
    MAX_DEADWOOD,
    MELD_SET,
    NUM_CARDS,
    UNDERCUT_BONUS,
    cards_of,
)

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
    "process-died": "a player must not end or crash the process it runs in",
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



# --- answers ---------------------------------------------------------------------------------
# One validation for the engine and the bridge, so an answer means the same in process and over the
# wire. It accepts only plain values (exact int / bool types, numpy's integer and bool scalars, lists
# and tuples): a hostile object's __index__, __bool__, __iter__ or __repr__ never runs here, outside
# the timed call, and nothing a bot returns can make validation itself raise anything but BadAnswer.

#: Most melds and most cards in one meld an answer may list (a hand holds at most 11 cards).
MAX_MELDS_IN_ANSWER = 11
MAX_CARDS_IN_MELD = 13


class BadAnswer(TypeError):
    """A decision's answer is not of the type the interface names (rule ``bad-answer-type``)."""


def _numpy_types() -> tuple[frozenset[type], frozenset[type]]:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a runtime dependency
        return frozenset(), frozenset()
    ints = frozenset({np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                      np.intc, np.uintc, np.intp, np.uintp, np.longlong, np.ulonglong})
    return ints, frozenset({np.bool_})


_NUMPY_INTS, _NUMPY_BOOLS = _numpy_types()


def safe_text(value: Any, limit: int = 80) -> str:
    """``repr(value)`` shortened, or a description when repr itself fails (huge ints, hostile objects)."""
    try:
        if type(value) is int and value.bit_length() > 200:
            return f"<an int of {value.bit_length()} bits>"
        text = repr(value)
        if type(text) is not str:
            raise TypeError
    except BaseException:  # noqa: BLE001 - a hostile __repr__ may raise anything
        return f"<a {safe_type_name(value)} whose repr fails>"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def safe_type_name(value: Any) -> str:
    name = getattr(type(value), "__name__", None)
    return name if type(name) is str else "object"


def describe_exception(exc: BaseException) -> str:
    """``Type: message`` of an exception a bot raised, even when its ``__str__`` raises."""
    try:
        text = str(exc)
        if type(text) is not str:
            raise TypeError
    except BaseException:  # noqa: BLE001
        text = "<message unavailable: its __str__ failed>"
    if len(text) > 300:
        text = text[:297] + "..."
    return f"{safe_type_name(exc)}: {text}" if text else safe_type_name(exc)


def _plain_int(value: Any) -> int | None:
    kind = type(value)
    if kind is int:
        return value
    if kind in _NUMPY_INTS:
        return int(value)
    return None


def as_card(value: Any) -> int:
    """A card answer: an int 0-51 (Python or numpy integer, never a bool); BadAnswer otherwise."""
    card = _plain_int(value)
    if card is None or not 0 <= card < NUM_CARDS:
        raise BadAnswer(f"a card must be an int 0-51, got {safe_text(value)}")
    return card


def as_bool(value: Any) -> bool:
    """An offer answer: True or False (Python or numpy bool); BadAnswer otherwise."""
    kind = type(value)
    if kind is bool:
        return value
    if kind in _NUMPY_BOOLS:
        return bool(value)
    raise BadAnswer(f"will_draw_face_up must return a bool, got {safe_text(value)}")


def as_meld_masks(value: Any) -> tuple[int, ...]:
    """A meld declaration as a tuple of card-set ints; BadAnswer says what is wrong.

    A declaration is a list or tuple of melds; a meld is a card-set int or a list or tuple of
    distinct card ids.
    """
    if type(value) not in (list, tuple):
        raise BadAnswer(f"melds must be a list or tuple of melds, got {safe_text(value)}")
    if len(value) > MAX_MELDS_IN_ANSWER:
        raise BadAnswer(f"a declaration holds at most {MAX_MELDS_IN_ANSWER} melds, got {len(value)}")
    out = []
    for meld in value:
        mask = _plain_int(meld)
        if mask is not None:
            if not 0 < mask < 1 << NUM_CARDS:
                raise BadAnswer(f"meld mask {safe_text(meld)} is not a set of cards 0-51")
        elif type(meld) in (list, tuple):
            if len(meld) > MAX_CARDS_IN_MELD:
                raise BadAnswer(f"a meld holds at most {MAX_CARDS_IN_MELD} cards, got {len(meld)}")
            mask = 0
            for c in meld:
                mask |= 1 << as_card(c)
            if len(meld) != mask.bit_count():
                raise BadAnswer(f"meld {safe_text(meld)} names a card twice")
        else:
            raise BadAnswer(f"a meld must be a card-set int or a list of card ids, got {safe_text(meld)}")
        out.append(mask)
    return tuple(out)


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
