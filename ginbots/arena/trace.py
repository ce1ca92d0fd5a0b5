"""Game traces: JSON Lines records of every decision, and replay through the engine.

One line per game: ``engine_seed``, players, and per hand ``dealt``, ``upcard``
and ``events`` (offer, draw, discard, melds, layoff, cancel, scores, forfeit),
cards named ``"TD"``. The format is a superset of the EAAI fixture traces, so
the engine can be replay-tested against the real Java engine's games.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from ginbots.game.cards import CARD_NAMES, MAX_DEADWOOD, cards_of, mask_of, parse_card
from ginbots.game.engine import GameConfig, GameResult, play_game
from ginbots.game.melds import melded_and_rest, min_deadwood
from ginbots.players.base import Player

from .schema import parse_record

#: Event kinds a decision is replayed from; others are checked, not replayed.
DECISION_EVENTS = ("offer", "discard", "melds")


def write_traces(path: str | Path, traces: Iterable[dict[str, Any]], append: bool = False) -> None:
    with open(path, "a" if append else "w", encoding="utf-8") as fh:
        for rec in traces:
            fh.write(json.dumps(rec, separators=(",", ":")) + "\n")


def read_traces(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records of a trace file, each checked against ``trace.schema.json``; a bad line raises ValueError
    naming the file, the line and the first rule it breaks."""
    try:
        fh = open(path, encoding="utf-8", errors="replace")
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    with fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield parse_record(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{lineno}: {exc}") from None


class ReplayMismatch(Exception):
    """The engine asked a scripted player for something its script does not hold."""


class ScriptedPlayer(Player):
    """Answers every decision from a trace: the replay's stand-in for the original bot."""

    name = "scripted"

    def __init__(self, seat: int, hands: list[dict[str, Any]]) -> None:
        super().__init__(seed=0)
        self.scripts = [_script_for(seat, h) for h in hands]
        self.hand_index = -1
        self.queue: list[tuple[str, Any]] = []
        self.hand = 0

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.hand_index += 1
        if self.hand_index >= len(self.scripts):
            raise ReplayMismatch(f"the engine dealt hand {self.hand_index + 1}; the trace has {len(self.scripts)}")
        self.queue = list(self.scripts[self.hand_index])
        self.queue.reverse()
        self.hand = hand

    def _next(self, kind: str) -> Any:
        if not self.queue:
            raise ReplayMismatch(f"hand {self.hand_index + 1}: engine asks {kind}, script exhausted")
        got, value = self.queue.pop()
        if got != kind:
            raise ReplayMismatch(f"hand {self.hand_index + 1}: engine asks {kind}, script has {got}")
        return value

    def will_draw_face_up(self, card: int) -> bool:
        return self._next("offer")

    def discard(self) -> int:
        return self._next("discard")

    def knock(self) -> Any:
        return self._next("knock")

    def declare_melds(self) -> Any:
        return self._next("declare")


def _script_for(seat: int, hand: dict[str, Any]) -> list[tuple[str, Any]]:
    """This seat's decisions in a hand, in the order the engine will ask them."""
    events = hand["events"]
    script: list[tuple[str, Any]] = []
    meld_events = [e for e in events if e["e"] == "melds"]
    knocker = meld_events[0]["p"] if meld_events else None
    last_discard = max((i for i, e in enumerate(events) if e["e"] == "discard"), default=-1)
    for i, e in enumerate(events):
        if e.get("p") != seat:
            continue
        kind = e["e"]
        if kind == "offer":
            script.append(("offer", bool(e["take"])))
        elif kind == "discard":
            script.append(("discard", parse_card(e["card"])))
            knocks = i == last_discard and knocker == seat
            script.append(("knock", _melds(meld_events[0]["melds"]) if knocks else None))
        elif kind == "melds" and seat != knocker:
            script.append(("declare", _melds(e["melds"])))
    return script


def _melds(melds: list[list[str]]) -> list[int]:
    return [mask_of(parse_card(c) for c in meld) for meld in melds]


def deck_of(hand: dict[str, Any]) -> list[int] | None:
    """The deal order a trace hand was played with, if the record carries it."""
    if "deck" in hand:
        return [parse_card(c) for c in hand["deck"]]
    return None


@dataclass
class ReplayReport:
    result: GameResult
    mismatches: list[str]

    @property
    def ok(self) -> bool:
        return not self.mismatches


def replay(record: dict[str, Any], config: GameConfig | None = None) -> ReplayReport:
    """Replay a trace record's decisions in the engine and list every disagreement.

    The deal comes from ``engine_seed`` (or the recorded decks); each event the
    engine produces is compared with the recorded one, then the summary.
    """
    hands = record["hands"]
    players = [ScriptedPlayer(0, hands), ScriptedPlayer(1, hands)]
    decks = [deck_of(h) for h in hands]
    use_decks = all(d is not None for d in decks)
    first_starter = hands[0].get("starting_player") if hands else None
    config = config or GameConfig(time_budget=None, max_hands_per_game=max(1, len(hands)))
    result = play_game(
        players,
        seed=record.get("engine_seed", 0),
        config=config,
        decks=decks if use_decks else None,  # type: ignore[arg-type]
        first_starter=first_starter if use_decks else None,
        trace=True,
    )
    mismatches: list[str] = []
    produced = result.trace["hands"] if result.trace else []
    for k, (want, got) in enumerate(zip(hands, produced), 1):
        for key in ("dealt", "upcard"):
            if key in want and want[key] != got[key]:
                mismatches.append(f"hand {k}: {key} {got[key]} != recorded {want[key]}")
        want_events = [e for e in want["events"] if e["e"] not in ("cancel", "forfeit")]
        got_events = [e for e in got["events"] if e["e"] not in ("cancel", "forfeit")]
        for n, (we, ge) in enumerate(zip(want_events, got_events), 1):
            if _comparable(we) != _comparable(ge):
                mismatches.append(f"hand {k} event {n}: engine {ge} != recorded {we}")
                break
        else:
            if len(want_events) != len(got_events):
                mismatches.append(f"hand {k}: engine made {len(got_events)} events, recorded {len(want_events)}")
    if len(hands) != len(produced):
        mismatches.append(f"engine played {len(produced)} hands, recorded {len(hands)}")
    if result.forfeit is not None:
        mismatches.append(f"replay forfeit: {result.forfeit.reason}")
    for key, value in (("winner", result.winner), ("final_scores", list(result.scores))):
        if key in record and record[key] != value:
            mismatches.append(f"{key}: engine {value} != recorded {record[key]}")
    return ReplayReport(result, mismatches)


def _comparable(event: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in event.items() if k in ("e", "p", "card", "take", "onto", "scores", "melds")}
    if "onto" in out:
        out["onto"] = sorted(out["onto"], key=parse_card)
    if "melds" in out:
        out["melds"] = [sorted(m, key=parse_card) for m in out["melds"]]
    return out


def dealt_hands(hand: dict[str, Any], number: int = 1) -> tuple[int, int]:
    """Both seats' dealt cards of a traced hand as masks; a deal of other than 10 distinct cards is an error."""
    held = tuple(mask_of(parse_card(c) for c in hand["dealt"][seat]) for seat in (0, 1))
    if any(bin(h).count("1") != 10 or len(hand["dealt"][s]) != 10 for s, h in enumerate(held)):
        raise ValueError(f"hand {number}: each player must be dealt 10 distinct cards")
    return held[0], held[1]


def follow_hand(hand: dict[str, Any], number: int = 1) -> Iterator[tuple[dict[str, Any], tuple[int, int]]]:
    """Each event of a traced hand with both seats' cards (masks) just after it: a draw adds the card to
    its seat, a discard or a layoff takes it away. Evaluation only: the trace shows both hands."""
    held = list(dealt_hands(hand, number))
    for event in hand.get("events", []):
        kind = event["e"]
        if kind == "draw":
            held[event["p"]] |= 1 << parse_card(event["card"])
        elif kind in ("discard", "layoff"):
            held[event["p"]] &= ~(1 << parse_card(event["card"]))
        yield event, (held[0], held[1])


def describe_hand(record: dict[str, Any], index: int) -> str:
    """A hand of a trace, turn by turn, for people: cards, melds, deadwood after each turn."""
    hands = record["hands"]
    if not 1 <= index <= len(hands):
        raise ValueError(f"hand {index} does not exist: the trace has hands 1-{len(hands)}")
    hand = hands[index - 1]
    names = record.get("players", ["player", "player"])
    lines = [f"Hand {index} of {len(hands)} (engine seed {record.get('engine_seed')})"]
    for s, dealt in enumerate(dealt_hands(hand, index)):
        lines.append(f"  {names[s]} (seat {s}) dealt: {format_hand(dealt)}")
    lines.append(f"  upcard {hand['upcard']}")
    for e, held in follow_hand(hand, index):
        kind, p = e["e"], e.get("p")
        who = f"{names[p]} (seat {p})" if p is not None else ""
        if kind == "offer":
            lines.append(f"  {who} {'takes' if e['take'] else 'declines'} face-up {e['card']}")
        elif kind == "draw":
            lines.append(f"  {who} draws {e['card']}")
        elif kind == "discard":
            lines.append(f"  {who} discards {e['card']} -> {format_hand(held[p])}")
        elif kind == "melds":
            shown = " ".join("[" + " ".join(m) + "]" for m in e["melds"]) or "(no melds)"
            lines.append(f"  {who} declares {shown}")
        elif kind == "layoff":
            lines.append(f"  {who} lays off {e['card']} on [{' '.join(e['onto'])}]")
        elif kind == "cancel":
            lines.append(f"  hand cancelled: {e.get('reason', '')}")
        elif kind == "scores":
            lines.append(f"  scores {e['scores'][0]} - {e['scores'][1]}")
        elif kind == "forfeit":
            lines.append(f"  FORFEIT: {e.get('reason', e)}")
    return "\n".join(lines)


def format_hand(hand: int) -> str:
    """Cards grouped into an optimal meld set, then deadwood: ``[AC 2C 3C] 9H KS (19)``."""
    melds, rest = melded_and_rest(hand)
    parts = ["[" + " ".join(CARD_NAMES[c] for c in cards_of(m)) + "]" for m in melds]
    parts += [CARD_NAMES[c] for c in cards_of(rest)]
    dw = min_deadwood(hand)
    tag = "gin" if dw == 0 else ("can knock" if dw <= MAX_DEADWOOD else "")
    return " ".join(parts) + f"  (deadwood {dw}{', ' + tag if tag else ''})"
