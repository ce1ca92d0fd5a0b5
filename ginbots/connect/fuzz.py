"""A fuzzer for the bridge: random and mangled protocol sessions, checked against the exit-code table.

``python -m ginbots.connect.fuzz --cases 20000`` runs a long campaign; the test suite runs
a few hundred cases. Every case must end with a code of ``submission/PROTOCOL.md``,
write only JSON lines on stdout (replies, then at most one final ``error`` line
whose code is the exit code) and never let an exception out of ``serve``.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
from typing import Any

from ginbots.players.baselines import SimplePlayer

from .bridge import (
    EXIT_BOT_ERROR,
    EXIT_INVALID,
    EXIT_MALFORMED,
    EXIT_OK,
    EXIT_ORDER,
    EXIT_UNKNOWN,
    serve,
)

EXIT_CODES = {EXIT_OK, EXIT_MALFORMED, EXIT_UNKNOWN, EXIT_INVALID, EXIT_ORDER, EXIT_BOT_ERROR}
TYPES = ("hello", "new_game", "start_hand", "will_draw_face_up", "report_draw", "get_discard", "report_discard",
         "get_melds", "report_melds", "report_layoff", "report_final_hand", "report_scores", "bye", "teleport")
ODD_VALUES: tuple[Any, ...] = (None, True, False, 0, 1, -1, 1.0, 51, 52, 10 ** 30, -(10 ** 30), "", "AC", "1",
                               [], [0], [0, 0], [[0, 1, 2]], {}, {"a": 1}, 1e308, float("inf"))


def valid_session(rng: random.Random) -> list[dict[str, Any]]:
    """A plausible session: hello, a hand, a few turns, as a real host would send."""
    deck = list(range(52))
    rng.shuffle(deck)
    hand = sorted(deck[:10])
    msgs: list[dict[str, Any]] = [{"type": "hello", "protocol": 1}, {"type": "new_game", "seed": rng.randrange(99)},
                                  {"type": "start_hand", "seat": 0, "starter": rng.randrange(2), "hand": hand}]
    held = set(hand)
    stock = deck[10:]
    for turn in range(rng.randrange(1, 6)):
        card = stock.pop()
        msgs.append({"type": "will_draw_face_up", "card": card, "id": turn, "time_left": 10.0})
        msgs.append({"type": "report_draw", "seat": 0, "card": card})
        held.add(card)
        msgs.append({"type": "get_discard", "id": 100 + turn})
        gone = max(held)
        held.discard(gone)
        msgs.append({"type": "report_discard", "seat": 0, "card": gone})
        msgs.append({"type": "get_melds", "opponent_knocked": False, "id": 200 + turn})
        msgs.append({"type": "report_draw", "seat": 1, "card": None})
        msgs.append({"type": "report_discard", "seat": 1, "card": stock.pop()})
    msgs.append({"type": "report_scores", "scores": [0, 0]})
    return msgs


def mangle(rng: random.Random, msgs: list[dict[str, Any]]) -> bytes:
    """The session with one to three faults: a field's value or type, a dropped or swapped message, raw bytes."""
    msgs = [dict(m) for m in msgs]
    for _ in range(rng.randrange(1, 4)):
        kind = rng.randrange(8)
        i = rng.randrange(len(msgs))
        if kind == 0 and len(msgs[i]) > 1:
            key = rng.choice([k for k in msgs[i] if k != "type"] or ["type"])
            msgs[i][key] = rng.choice(ODD_VALUES)
        elif kind == 1:
            msgs[i]["type"] = rng.choice(TYPES)
        elif kind == 2:
            del msgs[i]
            if not msgs:
                msgs = [{"type": "hello", "protocol": 1}]
        elif kind == 3:
            j = rng.randrange(len(msgs))
            msgs[i], msgs[j] = msgs[j], msgs[i]
        elif kind == 4:
            msgs[i].pop(rng.choice(list(msgs[i])), None)
        elif kind == 5:
            msgs.insert(i, {"type": rng.choice(TYPES), rng.choice(["card", "seat", "hand", "melds", "id"]):
                            rng.choice(ODD_VALUES)})
        elif kind == 6:
            msgs[i]["id"] = rng.choice(ODD_VALUES)
        else:
            msgs[i]["extra"] = rng.choice(ODD_VALUES)
    lines = []
    for m in msgs:
        try:
            lines.append(json.dumps(m, allow_nan=True).encode())
        except (TypeError, ValueError):
            lines.append(b"{}")
    if rng.random() < 0.2:
        i = rng.randrange(len(lines))
        raw = bytearray(lines[i])
        for _ in range(rng.randrange(1, 4)):
            if raw:
                raw[rng.randrange(len(raw))] = rng.randrange(256)
        lines[i] = bytes(raw).replace(b"\n", b" ")
    if rng.random() < 0.05:
        lines.append(rng.choice([b"[" * 5000, b"1" * 6000, b'{"type":"hello","protocol":' + b"9" * 5000 + b"}",
                                 b"\xff\xfe\xfd"]))
    return b"\n".join(lines) + b"\n"


def check_case(payload: bytes) -> tuple[int, str]:
    """Run one case through ``serve``; return (exit code, problem or "")."""
    out, err = io.StringIO(), io.StringIO()
    try:
        code = serve(SimplePlayer(seed=0), "simple", io.BytesIO(payload), out, err)
    except BaseException as exc:  # noqa: BLE001 - the whole point: nothing may escape
        return -1, f"serve raised {type(exc).__name__}: {exc}"
    if code not in EXIT_CODES:
        return code, f"exit code {code} is not in the protocol's table"
    replies = []
    for line in out.getvalue().splitlines():
        try:
            replies.append(json.loads(line))
        except ValueError:
            return code, f"stdout line is not JSON: {line[:80]!r}"
    errors = [r for r in replies if r.get("type") == "error"]
    if any(r.get("type") not in ("hello", "reply", "error") for r in replies):
        return code, "stdout holds something other than replies"
    if code == EXIT_OK and errors:
        return code, "an error line on a clean exit"
    if code != EXIT_OK and (len(errors) != 1 or replies[-1] is not errors[0] or errors[0].get("code") != code):
        return code, "a failing exit must end with exactly one error line carrying its code"
    if "Traceback" in err.getvalue() and code != EXIT_BOT_ERROR:
        return code, "a host fault printed a traceback"
    return code, ""


def campaign(cases: int, seed: int = 0) -> dict[str, Any]:
    """Run ``cases`` fuzz cases; the tally of exit codes and the problems found (with their inputs)."""
    rng = random.Random(seed)
    codes: dict[int, int] = {}
    problems = []
    for _ in range(cases):
        payload = mangle(rng, valid_session(rng)) if rng.random() < 0.9 else \
            b"\n".join(json.dumps(valid_session(rng)[i]).encode() for i in range(3)) + b"\n"
        code, problem = check_case(payload)
        codes[code] = codes.get(code, 0) + 1
        if problem:
            problems.append({"problem": problem, "input": payload[:2000].decode("utf-8", "replace")})
    return {"cases": cases, "seed": seed, "exit_codes": dict(sorted(codes.items())), "problems": problems}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ginbots.connect.fuzz", description=__doc__)
    parser.add_argument("--cases", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = campaign(args.cases, args.seed)
    print(json.dumps({k: v for k, v in result.items() if k != "problems"}))
    for p in result["problems"][:10]:
        print(f"PROBLEM: {p['problem']}\n  input: {p['input'][:300]!r}")
    return 1 if result["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
