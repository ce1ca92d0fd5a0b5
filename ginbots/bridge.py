"""The process bridge: any registered bot, played over stdin/stdout, one JSON object per line.

``python -m ginbots.bridge BOT [--params FILE]`` (or ``ginbots serve BOT``) is
the transport the Java shim and any other harness use; ``ProcessPlayer`` is
its other end in Python. The protocol is in ``submission/PROTOCOL.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import traceback
from pathlib import Path
from typing import IO, Any, Sequence

from .cards import NUM_CARDS, cards_of, mask_of
from .player import Player
from .rules import as_meld_masks

PROTOCOL_VERSION = 1

# Exit codes: each names one way the host broke the protocol (0: EOF or bye).
EXIT_OK = 0
EXIT_MALFORMED = 2        # a line that is not a JSON object
EXIT_UNKNOWN = 3          # unknown message type, or another protocol version
EXIT_INVALID = 4          # a field out of range or of the wrong type (card ids are 0-51)
EXIT_ORDER = 5            # a message out of order (e.g. get_discard before a draw)
EXIT_BOT_ERROR = 6        # the bot raised or answered something the rules forbid

DECISIONS = ("will_draw_face_up", "get_discard", "get_melds")
REPORTS = ("new_game", "start_hand", "report_draw", "report_discard", "report_melds", "report_layoff",
           "report_final_hand", "report_scores", "bye")


class ProtocolError(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def _card(msg: dict[str, Any], key: str, allow_none: bool = False) -> int | None:
    value = msg.get(key)
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < NUM_CARDS:
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be a card id 0-51, got {value!r}")
    return value


def _cards(msg: dict[str, Any], key: str) -> int:
    value = msg.get(key)
    if not isinstance(value, list):
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be a list of card ids, got {value!r}")
    mask = 0
    for c in value:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < NUM_CARDS:
            raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} holds {c!r}, not a card id 0-51")
        mask |= 1 << c
    return mask


def _seat(msg: dict[str, Any], key: str = "seat") -> int:
    value = msg.get(key)
    if value not in (0, 1) or isinstance(value, bool):
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be 0 or 1, got {value!r}")
    return value  # type: ignore[return-value]


class BridgeSession:
    """Feeds protocol messages to one bot and checks their order; returns replies."""

    def __init__(self, player: Player, name: str) -> None:
        self.player = player
        self.name = name
        self.greeted = False
        self.seat: int | None = None
        self.hand = 0
        self.drawn_face_up = -1

    def handle(self, msg: Any) -> dict[str, Any] | None:
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ProtocolError(EXIT_MALFORMED, "each line must be a JSON object with a string 'type'")
        kind = msg["type"]
        if kind not in DECISIONS and kind not in REPORTS and kind != "hello":
            raise ProtocolError(EXIT_UNKNOWN, f"unknown message type {kind!r}")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL_VERSION:
                raise ProtocolError(EXIT_UNKNOWN, f"protocol {msg.get('protocol')!r} asked, this bridge speaks "
                                                  f"{PROTOCOL_VERSION}")
            self.greeted = True
            return {"type": "hello", "protocol": PROTOCOL_VERSION, "bot": self.name,
                    "params": self.player.params, "module_path": str(Path(__file__).resolve().parent)}
        if not self.greeted:
            raise ProtocolError(EXIT_ORDER, f"{kind} before hello")
        if "time_left" in msg:
            self.player.time_left = msg["time_left"]  # type: ignore[attr-defined]
        return getattr(self, "_" + kind)(msg)

    # --- reports ---------------------------------------------------------
    def _new_game(self, msg: dict[str, Any]) -> None:
        seed = msg.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ProtocolError(EXIT_INVALID, f"new_game: seed must be an integer, got {seed!r}")
        self.player.new_game(seed)

    def _start_hand(self, msg: dict[str, Any]) -> None:
        seat, starter = _seat(msg), _seat(msg, "starter")
        hand = _cards(msg, "hand")
        if hand.bit_count() != 10 or len(msg["hand"]) != 10:
            raise ProtocolError(EXIT_INVALID, f"start_hand: hand must hold 10 distinct cards, got {msg['hand']}")
        self.seat, self.hand, self.drawn_face_up = seat, hand, -1
        self.player.start_hand(seat, starter, hand)

    def _in_hand(self, kind: str) -> int:
        if self.seat is None:
            raise ProtocolError(EXIT_ORDER, f"{kind} before start_hand")
        return self.seat

    def _report_draw(self, msg: dict[str, Any]) -> None:
        mine = self._in_hand("report_draw")
        seat = _seat(msg)
        card = _card(msg, "card", allow_none=seat != mine)
        if seat == mine:
            if self.hand.bit_count() != 10 or self.hand >> card & 1:  # type: ignore[operator]
                raise ProtocolError(EXIT_ORDER, f"report_draw: own draw of {card} with {self.hand.bit_count()} "
                                                "cards in hand (needs 10, card not held)")
            self.hand |= 1 << card  # type: ignore[operator]
        self.player.report_draw(seat, card)

    def _report_discard(self, msg: dict[str, Any]) -> None:
        mine = self._in_hand("report_discard")
        seat, card = _seat(msg), _card(msg, "card")
        if seat == mine:
            if not self.hand >> card & 1:  # type: ignore[operator]
                raise ProtocolError(EXIT_ORDER, f"report_discard: own discard {card} is not in hand")
            self.hand &= ~(1 << card)  # type: ignore[operator]
        self.player.report_discard(seat, card)  # type: ignore[arg-type]

    def _report_melds(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_melds")
        melds = msg.get("melds")
        if not isinstance(melds, list):
            raise ProtocolError(EXIT_INVALID, f"report_melds: melds must be a list of lists, got {melds!r}")
        masks = tuple(_cards({"type": "report_melds", "meld": m}, "meld") for m in melds)
        self.player.report_final_melds(_seat(msg), masks)

    def _report_layoff(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_layoff")
        self.player.report_layoff(_seat(msg), _card(msg, "card"), _cards(msg, "meld"))  # type: ignore[arg-type]

    def _report_final_hand(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_final_hand")
        self.player.report_final_hand(_seat(msg), _cards(msg, "hand"))

    def _report_scores(self, msg: dict[str, Any]) -> None:
        scores = msg.get("scores")
        if not (isinstance(scores, list) and len(scores) == 2 and all(isinstance(s, int) for s in scores)):
            raise ProtocolError(EXIT_INVALID, f"report_scores: scores must be two integers, got {scores!r}")
        self.player.report_scores((scores[0], scores[1]))
        self.seat = None

    def _bye(self, msg: dict[str, Any]) -> None:
        raise SystemExit(EXIT_OK)

    # --- decisions -------------------------------------------------------
    def _will_draw_face_up(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("will_draw_face_up")
        card = _card(msg, "card")
        if self.hand.bit_count() != 10:
            raise ProtocolError(EXIT_ORDER, f"will_draw_face_up with {self.hand.bit_count()} cards in hand (needs 10)")
        take = self.player.will_draw_face_up(card)  # type: ignore[arg-type]
        self.drawn_face_up = card if take else -1  # type: ignore[assignment]
        return {"type": "reply", "take": bool(take)}

    def _get_discard(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("get_discard")
        if self.hand.bit_count() != 11:
            raise ProtocolError(EXIT_ORDER, f"get_discard with {self.hand.bit_count()} cards in hand "
                                            "(needs 11: after the own draw)")
        card = self.player.discard()
        if isinstance(card, bool) or not isinstance(card, int) or not self.hand >> card & 1:
            raise ProtocolError(EXIT_BOT_ERROR, f"bot {self.name} discarded {card!r}, not a card in its hand")
        return {"type": "reply", "card": int(card)}

    def _get_melds(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("get_melds")
        if self.hand.bit_count() != 10:
            raise ProtocolError(EXIT_ORDER, f"get_melds with {self.hand.bit_count()} cards in hand (needs 10)")
        opponent_knocked = msg.get("opponent_knocked")
        if not isinstance(opponent_knocked, bool):
            raise ProtocolError(EXIT_INVALID, f"get_melds: opponent_knocked must be true or false, got "
                                              f"{opponent_knocked!r}")
        answer = self.player.declare_melds() if opponent_knocked else self.player.knock()
        if answer is None:
            if opponent_knocked:
                raise ProtocolError(EXIT_BOT_ERROR, f"bot {self.name} declared no melds after a knock")
            return {"type": "reply", "melds": None}
        try:
            masks = as_meld_masks(answer)
        except TypeError as exc:
            raise ProtocolError(EXIT_BOT_ERROR, f"bot {self.name} answered melds badly: {exc}") from None
        return {"type": "reply", "melds": [cards_of(m) for m in masks]}


def serve(player: Player, name: str, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> int:
    """Run the protocol until EOF or ``bye``; returns the exit code."""
    session = BridgeSession(player, name)
    real_stdout = stdout
    saved = sys.stdout
    sys.stdout = stderr  # a bot that prints must not corrupt the protocol stream
    try:
        for lineno, line in enumerate(stdin, 1):
            if not line.strip():
                continue
            try:
                try:
                    msg = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise ProtocolError(EXIT_MALFORMED, f"not JSON ({exc.msg} at column {exc.colno})") from None
                reply = session.handle(msg)
            except ProtocolError as exc:
                stderr.write(f"ginbots bridge: error: line {lineno}: {exc}\n")
                stderr.flush()
                return exc.code
            except SystemExit as exc:
                return int(exc.code or 0)
            except Exception as exc:  # the bot itself failed
                stderr.write(f"ginbots bridge: error: line {lineno}: bot {name} raised {type(exc).__name__}: {exc}\n")
                traceback.print_exc(file=stderr)
                stderr.flush()
                return EXIT_BOT_ERROR
            if reply is not None:
                if "id" in msg:  # echoed so a host that timed out can drop late replies
                    reply["id"] = msg["id"]
                real_stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
                real_stdout.flush()
        return EXIT_OK
    finally:
        sys.stdout = saved


def main(argv: Sequence[str] | None = None) -> int:
    from .registry import parse_spec

    parser = argparse.ArgumentParser(prog="python -m ginbots.bridge", description=__doc__)
    parser.add_argument("bot", help="player spec: NAME, NAME:tuned, NAME:file.json, NAME:k=v")
    parser.add_argument("--params", help="JSON parameter file")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed until a new_game message reseeds it")
    args = parser.parse_args(argv)
    try:
        spec = parse_spec(args.bot, args.params)
        player = spec.make(seed=args.seed)
    except (KeyError, ValueError) as exc:
        print(f"ginbots bridge: error: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return EXIT_UNKNOWN
    return serve(player, spec.display, sys.stdin, sys.stdout, sys.stderr)


class ProcessPlayer(Player):
    """A player that lives in another process and speaks the bridge protocol.

    The host side of the bridge, for playing a packaged or foreign bot on the
    embedded engine. A dead or misbehaving process raises, which the engine
    records as a forfeit.
    """

    name = "process"

    def __init__(self, command: Sequence[str], *, seed: int | None = None, label: str = "",
                 cwd: str | None = None, isolated: bool = False) -> None:
        """``isolated`` drops PYTHONPATH from the child's environment (used to verify packages)."""
        super().__init__(seed=seed)
        self.command = list(command)
        self.label = label or " ".join(self.command[-1:])
        self.name = self.label
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} if isolated else None
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1, cwd=cwd, env=env)
        hello = self._ask({"type": "hello", "protocol": PROTOCOL_VERSION})
        self.remote = hello

    def _send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(msg, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RuntimeError(f"bridge process {self.label} is gone: {self._stderr_tail()}") from None

    def _ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._send(msg)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bridge process {self.label} closed its output: {self._stderr_tail()}")
        return json.loads(line)

    def _stderr_tail(self) -> str:
        if self.proc.poll() is None:
            return "still running"
        err = self.proc.stderr.read() if self.proc.stderr else ""
        return f"exit code {self.proc.returncode}; {err.strip()[-300:]}"

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send({"type": "bye"})
                self.proc.wait(timeout=5)
            except (RuntimeError, subprocess.TimeoutExpired):
                self.proc.kill()

    def new_game(self, seed: int | None = None) -> None:
        self._send({"type": "new_game", "seed": seed})

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self._send({"type": "start_hand", "seat": seat, "starter": starter, "hand": cards_of(hand)})

    def will_draw_face_up(self, card: int) -> bool:
        return self._ask({"type": "will_draw_face_up", "card": card})["take"]

    def report_draw(self, seat: int, card: int | None) -> None:
        self._send({"type": "report_draw", "seat": seat, "card": card})

    def discard(self) -> int:
        return self._ask({"type": "get_discard"})["card"]

    def report_discard(self, seat: int, card: int) -> None:
        self._send({"type": "report_discard", "seat": seat, "card": card})

    def knock(self) -> Any:
        melds = self._ask({"type": "get_melds", "opponent_knocked": False})["melds"]
        return None if melds is None else [mask_of(m) for m in melds]

    def declare_melds(self) -> Any:
        return [mask_of(m) for m in self._ask({"type": "get_melds", "opponent_knocked": True})["melds"]]

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        self._send({"type": "report_melds", "seat": seat, "melds": [cards_of(m) for m in melds]})

    def report_layoff(self, seat: int, card: int, meld_before: int) -> None:
        self._send({"type": "report_layoff", "seat": seat, "card": card, "meld": cards_of(meld_before)})

    def report_final_hand(self, seat: int, hand: int) -> None:
        self._send({"type": "report_final_hand", "seat": seat, "hand": cards_of(hand)})

    def report_scores(self, scores: tuple[int, int]) -> None:
        self._send({"type": "report_scores", "scores": list(scores)})


if __name__ == "__main__":
    sys.exit(main())
