"""The process bridge: same decisions as in-process, clear errors and exit codes on bad input."""

import io
import json
import subprocess
import sys

import pytest

from ginbots.bridge import (
    EXIT_BOT_ERROR, EXIT_INVALID, EXIT_MALFORMED, EXIT_ORDER, EXIT_UNKNOWN, ProcessPlayer, serve,
)
from ginbots.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.keats import KeatsPlayer
from helpers import Passive

BRIDGE = [sys.executable, "-m", "ginbots.bridge"]


def _strip_labels(trace):
    return {k: v for k, v in trace.items() if k != "players"}


@pytest.mark.parametrize("bot, cls", [("keats", KeatsPlayer), ("simple", SimplePlayer)])
def test_a_bot_through_the_bridge_plays_exactly_as_in_process(bot, cls):
    config = GameConfig(time_budget=None)
    remote = ProcessPlayer(BRIDGE + [bot])
    try:
        via_bridge = play_game([remote, SimplePlayer(seed=2)], seed=5, config=config, player_seeds=(11, 12),
                               trace=True)
    finally:
        remote.close()
    direct = play_game([cls(seed=0), SimplePlayer(seed=2)], seed=5, config=config, player_seeds=(11, 12), trace=True)
    assert via_bridge.forfeit is None
    assert _strip_labels(via_bridge.trace) == _strip_labels(direct.trace)


def _run(lines, bot="simple"):
    text = "".join(json.dumps(x) + "\n" if not isinstance(x, str) else x for x in lines)
    return subprocess.run(BRIDGE + [bot], input=text, capture_output=True, text=True, timeout=60)


HELLO = {"type": "hello", "protocol": 1}
START = {"type": "start_hand", "seat": 0, "starter": 0, "hand": [0, 1, 2, 16, 17, 18, 32, 33, 34, 51]}


def test_hello_and_a_turn_then_eof_ends_cleanly():
    res = _run([HELLO, START, {"type": "will_draw_face_up", "card": 3},
                {"type": "report_draw", "seat": 0, "card": 3}, {"type": "get_discard"}])
    replies = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.returncode == 0 and res.stderr == ""
    assert replies[0]["type"] == "hello" and replies[0]["bot"] == "simple"
    assert replies[1] == {"type": "reply", "take": True}          # 3C extends AC-2C... run
    assert replies[2] == {"type": "reply", "card": 51}


@pytest.mark.parametrize("lines, code, words", [
    (["{not json\n"], EXIT_MALFORMED, "not JSON"),
    ([[1, 2]], EXIT_MALFORMED, "JSON object"),
    ([HELLO, {"type": "teleport"}], EXIT_UNKNOWN, "unknown message type 'teleport'"),
    ([{"type": "hello", "protocol": 9}], EXIT_UNKNOWN, "protocol 9"),
    ([HELLO, START, {"type": "will_draw_face_up", "card": 52}], EXIT_INVALID, "card id 0-51"),
    ([HELLO, {**START, "hand": [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]}], EXIT_INVALID, "10 distinct"),
    ([START], EXIT_ORDER, "before hello"),
    ([HELLO, {"type": "get_discard"}], EXIT_ORDER, "before start_hand"),
    ([HELLO, START, {"type": "get_discard"}], EXIT_ORDER, "needs 11"),
    ([HELLO, START, {"type": "get_melds"}], EXIT_INVALID, "opponent_knocked"),
])
def test_bad_input_gets_a_clear_error_and_exit_code_and_nothing_on_stdout(lines, code, words):
    res = _run(lines)
    assert res.returncode == code, res.stderr
    assert words in res.stderr and "Traceback" not in res.stdout
    assert all(json.loads(line)["type"] == "hello" for line in res.stdout.splitlines())


class Broken(Passive):
    def discard(self):
        print("debug output from a careless bot")
        raise ValueError("no idea")


def test_a_failing_bot_exits_with_its_code_and_never_prints_on_stdout():
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in [
        HELLO, START, {"type": "will_draw_face_up", "card": 3}, {"type": "report_draw", "seat": 0, "card": 40},
        {"type": "get_discard"}]))
    out, err = io.StringIO(), io.StringIO()
    assert serve(Broken(seed=0), "broken", stdin, out, err) == EXIT_BOT_ERROR
    assert "no idea" in err.getvalue() and "debug output" in err.getvalue()
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["hello", "reply"]


def test_a_dead_bridge_process_becomes_a_forfeit():
    remote = ProcessPlayer(BRIDGE + ["simple"])
    remote.proc.kill()
    remote.proc.wait()
    res = play_game([remote, SimplePlayer(seed=1)], seed=1, config=GameConfig(time_budget=None))
    assert res.forfeit is not None and res.forfeit.seat == 0 and res.forfeit.rule == "exception"
