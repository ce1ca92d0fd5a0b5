"""The process bridge: any registered bot, played over stdin/stdout, one JSON object per line.

``python -m ginbots.connect.bridge BOT [--params FILE]`` (or ``ginbots serve BOT``) is
the transport the Java shim and any other harness use; ``ginbots.connect.host.ProcessPlayer``
is its other end in Python. The protocol is in ``submission/PROTOCOL.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path
from typing import IO, Any, Sequence

from ginbots.connect.sandbox import seed_kernel_cache
from ginbots.game.cards import NUM_CARDS, cards_of
from ginbots.game.rules import (
    BadAnswer,
    as_bool,
    as_card,
    as_meld_masks,
    describe_exception,
    safe_text,
)
from ginbots.players.base import Player

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
    if type(value) is not int or not 0 <= value < NUM_CARDS:
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be a card id 0-51, got {safe_text(value)}")
    return value


def _cards(msg: dict[str, Any], key: str) -> int:
    value = msg.get(key)
    if type(value) is not list or len(value) > NUM_CARDS:
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be a list of card ids, got "
                                          f"{safe_text(value)}")
    mask = 0
    for c in value:
        if type(c) is not int or not 0 <= c < NUM_CARDS:
            raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} holds {safe_text(c)}, not a card id 0-51")
        mask |= 1 << c
    return mask


def _seat(msg: dict[str, Any], key: str = "seat") -> int:
    value = msg.get(key)
    if type(value) is not int or value not in (0, 1):
        raise ProtocolError(EXIT_INVALID, f"{msg.get('type')}: {key} must be 0 or 1, got {safe_text(value)}")
    return value


class BotFailure(Exception):
    """The bot raised (anything) or answered what the rules forbid; exit code 6."""

    def __init__(self, message: str, trace: str = "") -> None:
        super().__init__(message)
        self.trace = trace


def _ask_bot(name: str, what: str, fn: Any, *args: Any) -> Any:
    """Call the bot; whatever it raises (SystemExit and KeyboardInterrupt included) is a BotFailure."""
    try:
        return fn(*args)
    except BaseException as exc:  # noqa: BLE001 - a bot's own exit must not pose as a protocol code
        raise BotFailure(f"bot {name} raised {describe_exception(exc)} in {what}", traceback.format_exc()) from None


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
            asked = msg.get("protocol")
            if type(asked) is not int or asked != PROTOCOL_VERSION:  # 1.0 and true are not the integer 1
                raise ProtocolError(EXIT_UNKNOWN, f"protocol {msg.get('protocol')!r} asked, this bridge speaks "
                                                  f"{PROTOCOL_VERSION}")
            if "id" in msg and not _plain_json_id(msg["id"]):
                raise ProtocolError(EXIT_INVALID, "hello: id must be an integer or a string")
            self.greeted = True
            return {"type": "hello", "protocol": PROTOCOL_VERSION, "bot": self.name,
                    "params": self.player.params,
                    "runtime": self.player.runtime(), "module_path": str(Path(__file__).resolve().parents[1])}
        if not self.greeted:
            raise ProtocolError(EXIT_ORDER, f"{kind} before hello")
        if "id" in msg and not _plain_json_id(msg["id"]):
            raise ProtocolError(EXIT_INVALID, f"{kind}: id must be an integer or a string, got {safe_text(msg['id'])}")
        if "time_left" in msg:
            left = msg["time_left"]
            if type(left) not in (int, float) or not 0 <= left < 1e9:
                raise ProtocolError(EXIT_INVALID, f"{kind}: time_left must be a number of seconds >= 0, got "
                                                  f"{safe_text(left)}")
            self.player.time_left = left  # type: ignore[attr-defined]
        return getattr(self, "_" + kind)(msg)

    # --- reports ---------------------------------------------------------
    def _new_game(self, msg: dict[str, Any]) -> None:
        seed = msg.get("seed")
        if seed is not None and (type(seed) is not int or not -(1 << 63) <= seed < 1 << 64):
            raise ProtocolError(EXIT_INVALID, f"new_game: seed must be a 64-bit integer, got {safe_text(seed)}")
        _ask_bot(self.name, "new_game", self.player.new_game, seed)

    def _start_hand(self, msg: dict[str, Any]) -> None:
        seat, starter = _seat(msg), _seat(msg, "starter")
        hand = _cards(msg, "hand")
        if hand.bit_count() != 10 or len(msg["hand"]) != 10:
            raise ProtocolError(EXIT_INVALID, f"start_hand: hand must hold 10 distinct cards, got {msg['hand']}")
        self.seat, self.hand, self.drawn_face_up = seat, hand, -1
        _ask_bot(self.name, "start_hand", self.player.start_hand, seat, starter, hand)

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
        _ask_bot(self.name, "report_draw", self.player.report_draw, seat, card)

    def _report_discard(self, msg: dict[str, Any]) -> None:
        mine = self._in_hand("report_discard")
        seat, card = _seat(msg), _card(msg, "card")
        if seat == mine:
            if self.hand.bit_count() != 11 or not self.hand >> card & 1:  # type: ignore[operator]
                raise ProtocolError(EXIT_ORDER, f"report_discard: own discard of {card} with "
                                                f"{self.hand.bit_count()} cards in hand (needs 11, the card held: "
                                                "a discard follows this seat's draw)")
            self.hand &= ~(1 << card)  # type: ignore[operator]
        _ask_bot(self.name, "report_discard", self.player.report_discard, seat, card)

    def _report_melds(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_melds")
        melds = msg.get("melds")
        if type(melds) is not list or len(melds) > NUM_CARDS:
            raise ProtocolError(EXIT_INVALID, f"report_melds: melds must be a list of lists, got {safe_text(melds)}")
        masks = tuple(_cards({"type": "report_melds", "meld": m}, "meld") for m in melds)
        _ask_bot(self.name, "report_final_melds", self.player.report_final_melds, _seat(msg), masks)

    def _report_layoff(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_layoff")
        _ask_bot(self.name, "report_layoff", self.player.report_layoff, _seat(msg), _card(msg, "card"),
                 _cards(msg, "meld"))

    def _report_final_hand(self, msg: dict[str, Any]) -> None:
        self._in_hand("report_final_hand")
        _ask_bot(self.name, "report_final_hand", self.player.report_final_hand, _seat(msg), _cards(msg, "hand"))

    def _report_scores(self, msg: dict[str, Any]) -> None:
        scores = msg.get("scores")
        if not (type(scores) is list and len(scores) == 2 and all(type(s) is int and 0 <= s < 1 << 31
                                                                     for s in scores)):
            raise ProtocolError(EXIT_INVALID, f"report_scores: scores must be two integers, got {safe_text(scores)}")
        _ask_bot(self.name, "report_scores", self.player.report_scores, (scores[0], scores[1]))
        self.seat = None

    def _bye(self, msg: dict[str, Any]) -> dict[str, Any]:
        return _BYE

    # --- decisions -------------------------------------------------------
    def _will_draw_face_up(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("will_draw_face_up")
        card = _card(msg, "card")
        if self.hand.bit_count() != 10:
            raise ProtocolError(EXIT_ORDER, f"will_draw_face_up with {self.hand.bit_count()} cards in hand (needs 10)")
        answer = _ask_bot(self.name, "will_draw_face_up", self.player.will_draw_face_up, card)
        try:
            take = as_bool(answer)
        except BadAnswer as exc:
            raise BotFailure(f"bot {self.name} answered will_draw_face_up badly: {exc}") from None
        self.drawn_face_up = card if take else -1  # type: ignore[assignment]
        return {"type": "reply", "take": take}

    def _get_discard(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("get_discard")
        if self.hand.bit_count() != 11:
            raise ProtocolError(EXIT_ORDER, f"get_discard with {self.hand.bit_count()} cards in hand "
                                            "(needs 11: after the own draw)")
        answer = _ask_bot(self.name, "discard", self.player.discard)
        try:
            card = as_card(answer)
        except BadAnswer as exc:
            raise BotFailure(f"bot {self.name} answered discard badly: {exc}") from None
        if not self.hand >> card & 1:
            raise BotFailure(f"bot {self.name} discarded {card}, not a card in its hand")
        return {"type": "reply", "card": card}

    def _get_melds(self, msg: dict[str, Any]) -> dict[str, Any]:
        self._in_hand("get_melds")
        if self.hand.bit_count() != 10:
            raise ProtocolError(EXIT_ORDER, f"get_melds with {self.hand.bit_count()} cards in hand (needs 10)")
        opponent_knocked = msg.get("opponent_knocked")
        if not isinstance(opponent_knocked, bool):
            raise ProtocolError(EXIT_INVALID, f"get_melds: opponent_knocked must be true or false, got "
                                              f"{opponent_knocked!r}")
        if opponent_knocked:
            answer = _ask_bot(self.name, "declare_melds", self.player.declare_melds)
        else:
            answer = _ask_bot(self.name, "knock", self.player.knock)
        if answer is None:
            if opponent_knocked:
                raise BotFailure(f"bot {self.name} declared no melds after a knock")
            return {"type": "reply", "melds": None}
        try:
            masks = as_meld_masks(answer)
        except BadAnswer as exc:
            raise BotFailure(f"bot {self.name} answered melds badly: {exc}") from None
        return {"type": "reply", "melds": [cards_of(m) for m in masks]}


#: Longest protocol line read (a real message is a few hundred bytes).
MAX_LINE_BYTES = 1 << 20
_BYE: dict[str, Any] = {"type": "bye"}


def _plain_json_id(value: Any) -> bool:
    return (type(value) is int and -(1 << 63) <= value < 1 << 64) or (type(value) is str and len(value) <= 200)


def _lines(stdin: IO[Any]) -> Any:
    """(line number, text or a ProtocolError) for each line of a byte or text stream, bounded in length."""
    lineno = 0
    while True:
        raw = stdin.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        lineno += 1
        if len(raw) > MAX_LINE_BYTES:
            yield lineno, ProtocolError(EXIT_MALFORMED, f"a line longer than {MAX_LINE_BYTES} bytes")
            return
        if isinstance(raw, bytes):
            try:
                raw = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield lineno, ProtocolError(EXIT_MALFORMED, f"not UTF-8 (byte {exc.start})")
                return
        yield lineno, raw


def _parse(line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(EXIT_MALFORMED, f"not JSON ({exc.msg} at column {exc.colno})") from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit int, nesting past the recursion limit
        raise ProtocolError(EXIT_MALFORMED, f"not JSON this bridge accepts ({type(exc).__name__}: "
                                            f"{str(exc)[:120]})") from None


def report_failure(protocol: IO[str], stderr: IO[str], code: int, message: str, trace: str = "") -> int:
    """End a session: one stderr line (and the bot's traceback, if any), then the protocol's final
    ``{"type": "error", "code": N}`` line; returns N."""
    stderr.write(f"ginbots bridge: error: {message}\n" + trace)
    stderr.flush()
    try:
        protocol.write(json.dumps({"type": "error", "code": code, "message": message[:500]}) + "\n")
        protocol.flush()
    except (OSError, ValueError):
        pass
    return code


def report_startup_failure(protocol: IO[str], code: int, message: str) -> int:
    """A bridge that cannot start its bot says so on stderr and with the protocol's final error line."""
    return report_failure(protocol, sys.stderr, code, message)


def serve(player: Player, name: str, stdin: IO[Any], stdout: IO[str], stderr: IO[str]) -> int:
    """Run the protocol until EOF or ``bye``; returns the exit code.

    ``stdin`` may be a byte stream (the real process reads bytes, so no locale can break it) or a text
    stream. A protocol error or a bot failure ends the session with one stderr line (a bot failure adds
    the bot's traceback) and a final ``{"type": "error", "code": N, ...}`` line on ``stdout``, so a host
    can tell a protocol exit from a bot that exits by itself.
    """
    session = BridgeSession(player, name)
    saved = sys.stdout
    sys.stdout = stderr  # a bot that prints must not corrupt the protocol stream

    def fail(code: int, lineno: int, message: str, trace: str = "") -> int:
        return report_failure(stdout, stderr, code, f"line {lineno}: {message}", trace)

    try:
        for lineno, line in _lines(stdin):
            msg: Any = None
            try:
                if isinstance(line, ProtocolError):
                    raise line
                if not line.strip():
                    continue
                msg = _parse(line)
                reply = session.handle(msg)
            except ProtocolError as exc:
                return fail(exc.code, lineno, str(exc))
            except BotFailure as exc:
                return fail(EXIT_BOT_ERROR, lineno, str(exc), exc.trace)
            if reply is _BYE:
                return EXIT_OK
            if reply is not None:
                if "id" in msg:  # echoed so a host that timed out can drop late replies
                    reply["id"] = msg["id"]
                stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
                stdout.flush()
        return EXIT_OK
    finally:
        sys.stdout = saved


def main(argv: Sequence[str] | None = None) -> int:
    """The bridge process: protocol on a private copy of fd 1; fd 1 itself (the bot's prints, C code
    writing to stdout) goes to stderr; stdin read as bytes."""
    from ginbots.players.registry import parse_spec

    parser = argparse.ArgumentParser(prog="python -m ginbots.connect.bridge", description=__doc__)
    parser.add_argument("bot", help="player spec: NAME, NAME:tuned, NAME:file.json, NAME:k=v; with --import, "
                                    "MODULE:CLASS of any Player subclass on the Python path")
    parser.add_argument("--params", help="JSON parameter file")
    parser.add_argument("--params-json", help="parameters as a JSON object (as the match runner passes them)")
    parser.add_argument("--seed", type=int, default=0, help="the bot's seed until a new_game message reseeds it")
    parser.add_argument("--import", dest="by_import", action="store_true",
                        help="BOT is MODULE:CLASS, a Player subclass that need not be registered")
    parser.add_argument("--describe", action="store_true",
                        help="print the bot's declaration (summary, hyperparameters, the parameters resolved, its "
                             "weight files) as one JSON line and exit: how a runner learns about a bot it does not "
                             "import")
    args = parser.parse_args(argv)
    seed_kernel_cache()  # a confined bot's size-capped scratch folder: the runner's kernel cache copied in
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    if args.describe:
        return _describe(args, protocol)
    if args.by_import:
        return _serve_import(args, protocol)
    try:
        spec = parse_spec(args.bot, args.params, own_process=True)
        if args.params_json:
            extra = json.loads(args.params_json)
            if not isinstance(extra, dict):
                raise ValueError("--params-json must be a JSON object")
            spec = type(spec)(name=spec.name, params={**spec.params, **extra}, label=spec.label)
    except (KeyError, ValueError) as exc:
        return report_startup_failure(protocol, EXIT_UNKNOWN, str(exc.args[0] if exc.args else exc))
    try:
        player = spec.make(seed=args.seed)
        player.prepare()
    except BaseException as exc:  # noqa: BLE001 - a bot that cannot be built is the bot's failure
        traceback.print_exc(file=sys.stderr)
        return report_startup_failure(protocol, EXIT_BOT_ERROR, f"bot {spec.display} failed to start: "
                                                                f"{describe_exception(exc)}{_install_hint(exc)}")
    return serve(player, spec.display, sys.stdin.buffer, protocol, sys.stderr)


def _install_hint(exc: BaseException) -> str:
    """For a module the bot needs and this Python lacks: which interpreter, and how to install it."""
    if not isinstance(exc, ModuleNotFoundError):
        return ""
    return (f" (the Python running the bridge, {sys.executable}, lacks it: install the bot's requirements "
            f"into it, e.g. {sys.executable} -m pip install numpy onnxruntime)")


def _describe(args: argparse.Namespace, protocol: IO[str]) -> int:
    """``--describe``: the bot's declaration as one JSON line; a parameter it refuses is exit 4 with its message."""
    from ginbots.players.registry import (_load, available_players, hyperparameters_json, load_params_file,
                                          parse_spec)

    try:
        if args.by_import:
            target = args.bot
            params = load_params_file(args.params) if args.params else {}
        else:
            spec = parse_spec(args.bot, args.params, own_process=True)
            target, params = available_players()[spec.name], dict(spec.params)
        extra = json.loads(args.params_json) if args.params_json else {}
        if not isinstance(extra, dict):
            raise ValueError("--params-json must be a JSON object")
        params.update(extra)
        cls = _load(target)
    except KeyError as exc:
        return report_startup_failure(protocol, EXIT_UNKNOWN, str(exc.args[0] if exc.args else exc))
    except ValueError as exc:
        return report_startup_failure(protocol, EXIT_INVALID, str(exc))
    except BaseException as exc:  # noqa: BLE001 - whatever stops the bot loading is its failure
        traceback.print_exc(file=sys.stderr)
        return report_startup_failure(protocol, EXIT_BOT_ERROR, f"{args.bot} failed to load: "
                                                                f"{describe_exception(exc)}{_install_hint(exc)}")
    try:
        player = cls(seed=args.seed, **params)
    except ValueError as exc:
        return report_startup_failure(protocol, EXIT_INVALID, str(exc))
    except BaseException as exc:  # noqa: BLE001
        return report_startup_failure(protocol, EXIT_BOT_ERROR, f"{args.bot} failed to start: {describe_exception(exc)}")
    doc = (cls.__doc__ or "").strip().splitlines()
    weights = [str(w) for w in getattr(player, "weight_files", lambda: [])()]
    protocol.write(json.dumps({"type": "describe", "target": target, "summary": doc[0] if doc else "",
                               "hyperparameters": hyperparameters_json(cls.hyperparameters),
                               "params": player.params, "weight_files": weights}) + "\n")
    protocol.flush()
    return EXIT_OK


def _serve_import(args: argparse.Namespace, protocol: IO[str]) -> int:
    from ginbots.players.registry import _load, load_params_file

    try:
        params = load_params_file(args.params) if args.params else {}
        params.update(json.loads(args.params_json) if args.params_json else {})
        player = _load(args.bot)(seed=args.seed, **params)
        player.prepare()
    except BaseException as exc:  # noqa: BLE001
        traceback.print_exc(file=sys.stderr)
        return report_startup_failure(protocol, EXIT_BOT_ERROR, f"{args.bot} failed to start: "
                                                                f"{describe_exception(exc)}{_install_hint(exc)}")
    return serve(player, args.bot, sys.stdin.buffer, protocol, sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
