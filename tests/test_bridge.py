"""The process bridge: same decisions as in-process, clear errors and exit codes on bad input."""

import io
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from helpers import Passive, bridge_without_onnxruntime

from ginbots.connect.bridge import (
    EXIT_BOT_ERROR,
    EXIT_INVALID,
    EXIT_MALFORMED,
    EXIT_ORDER,
    EXIT_UNKNOWN,
    serve,
)
from ginbots.connect.host import ProcessPlayer
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.keats import KeatsPlayer

BRIDGE = [sys.executable, "-m", "ginbots.connect.bridge"]
TESTS = os.path.dirname(os.path.abspath(__file__))


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
    ([{"type": "hello", "protocol": 1.0}], EXIT_UNKNOWN, "protocol 1.0"),
    ([{"type": "hello", "protocol": True}], EXIT_UNKNOWN, "protocol True"),
    ([HELLO, START, {"type": "report_discard", "seat": 0, "card": 0}], EXIT_ORDER, "needs 11"),
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
    assert words in res.stderr and "Traceback" not in res.stderr + res.stdout
    assert len(res.stderr.strip().splitlines()) == 1
    replies = [json.loads(line) for line in res.stdout.splitlines()]
    assert all(r["type"] == "hello" for r in replies[:-1])
    assert replies[-1]["type"] == "error" and replies[-1]["code"] == code and words in replies[-1]["message"]


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
    assert [json.loads(line)["type"] for line in out.getvalue().splitlines()] == ["hello", "reply", "error"]


HOSTILE = [sys.executable, "-m", "ginbots.connect.bridge", "--import"]


def _hostile(name, tmp_path=None, **kw):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([TESTS, os.environ.get("PYTHONPATH", "")])}
    log = tmp_path / f"{name}.log" if tmp_path is not None else None
    return ProcessPlayer(HOSTILE + [f"hostile:{name}"], env=env, log=log, **kw)


def test_a_bridge_process_that_dies_mid_game_costs_that_game_only():
    remote = _hostile("ExitsHard")
    try:
        first = play_game([remote, SimplePlayer(seed=1)], seed=1, config=GameConfig(time_budget=None))
        assert first.forfeit is not None and first.forfeit.seat == 0 and first.forfeit.action == "discard"
        assert "exited with status 3 without a protocol error report" in first.forfeit.detail
        second = play_game([remote, SimplePlayer(seed=1)], seed=2, config=GameConfig(time_budget=None))
        assert second.forfeit is not None and second.forfeit.action == "discard"  # a fresh process, same bot
    finally:
        remote.close()


@pytest.mark.parametrize("name, words", [("SysExits", "SystemExit"), ("RaisesInterrupt", "KeyboardInterrupt")])
def test_a_bots_own_exit_is_a_bot_error_not_a_protocol_code(name, words):
    remote = _hostile(name)
    try:
        res = play_game([remote, SimplePlayer(seed=1)], seed=1, config=GameConfig(time_budget=None))
    finally:
        remote.close()
    assert res.forfeit is not None and "protocol error 6" in res.forfeit.detail and words in res.forfeit.detail


def test_stderr_floods_and_writes_to_fd1_cannot_stall_or_corrupt_the_stream(tmp_path):
    for name in ("Chatty", "WritesFd1"):
        remote = _hostile(name, tmp_path)
        try:
            res = play_game([remote, SimplePlayer(seed=1)], seed=3, config=GameConfig(time_budget=20))
        finally:
            remote.close()
        assert res.forfeit is None, res.forfeit
        log = (tmp_path / f"{name}.log").read_text()
        assert ("x" * 1000 in log) if name == "Chatty" else ("garbage that is not protocol" in log)


def test_an_interrupted_decision_kills_the_child_and_the_next_game_starts_fresh():
    remote = _hostile("Unstoppable")
    try:
        start = time.monotonic()
        res = play_game([remote, SimplePlayer(seed=1)], seed=1, config=GameConfig(time_budget=1.0))
        assert time.monotonic() - start < 15
        assert res.forfeit is not None and res.forfeit.rule == "time-budget" and res.forfeit.seat == 0
        assert not remote.alive
        remote.new_game(None)
        assert remote.alive and remote.remote["bot"] == "hostile:Unstoppable"
    finally:
        remote.close()


def test_late_replies_are_dropped_by_request_id():
    remote = ProcessPlayer(BRIDGE + ["simple"])
    try:
        remote._send({"type": "start_hand", "seat": 0, "starter": 0, "hand": START["hand"]})
        remote._send({"type": "will_draw_face_up", "card": 3, "id": 10 ** 6})  # an answer nobody waits for
        assert remote.will_draw_face_up(3) is True  # its own answer, not the stale one
    finally:
        remote.close()


@pytest.mark.parametrize("payload, code", [
    (b'{"type":"hello","protocol":1}\n{"type":"new_game","seed":' + b"9" * 5000 + b"}\n", EXIT_MALFORMED),
    (b"[" * 100_000 + b"\n", EXIT_MALFORMED),
    (b'{"type":"hello","protocol":1}\n\xff\xfe{}\n', EXIT_MALFORMED),
    (b'{"type":"hello","protocol":1}\n' + json.dumps({**START, "seat": 1.0}).encode() + b"\n", EXIT_INVALID),
    (b'{"type":"hello","protocol":1}\n{"type":"new_game","seed":true}\n', EXIT_INVALID),
    (b'{"type":"hello","protocol":1}\n{"type":"new_game","time_left":"soon"}\n', EXIT_INVALID),
    (b"x" * (2 << 20) + b"\n", EXIT_MALFORMED),
])
def test_host_faults_get_their_exit_code_and_one_line_under_any_locale(payload, code):
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii:strict", "PYTHONUTF8": "0"}
    res = subprocess.run(BRIDGE + ["simple"], input=payload, capture_output=True, timeout=60, env=env)
    assert res.returncode == code, res.stderr
    assert b"Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_answers_mean_the_same_in_process_and_over_the_bridge():
    from ginbots.game.rules import as_bool, as_card

    # numpy integers are cards and strings are not booleans, on both sides.
    assert as_card(np.int64(5)) == 5
    with pytest.raises(TypeError):
        as_bool("yes")
    stdin = io.StringIO("".join(json.dumps(m) + "\n" for m in [
        HELLO, START, {"type": "will_draw_face_up", "card": 3}, {"type": "report_draw", "seat": 0, "card": 40},
        {"type": "get_discard"}]))
    out = io.StringIO()
    assert serve(_Answers(np.int64(40), True), "np", stdin, out, io.StringIO()) == 0
    assert json.loads(out.getvalue().splitlines()[-1])["card"] == 40
    stdin.seek(0)
    out = io.StringIO()
    assert serve(_Answers(40, "yes"), "yes", stdin, out, io.StringIO()) == EXIT_BOT_ERROR


class _Answers(Passive):
    def __init__(self, card, take):
        super().__init__(seed=0)
        self._card, self._take = card, take

    def will_draw_face_up(self, card):
        return self._take

    def discard(self):
        return self._card


@pytest.mark.parametrize("bot", ["champion", "heuristic:tuned", "safe", "dual-inception"])
def test_a_bot_whose_runtime_module_is_missing_fails_at_start_naming_it(bot):
    res = subprocess.run(bridge_without_onnxruntime(bot), input='{"type":"hello","protocol":1}\n',
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == EXIT_BOT_ERROR
    lines = res.stdout.splitlines()
    assert len(lines) == 1, "no hello before the failure: the host learns it at start, not mid-game"
    error = json.loads(lines[0])
    assert error["type"] == "error" and f"bot {bot} failed to start" in error["message"]
    assert "onnxruntime" in error["message"] and "pip install" in error["message"]


def test_a_corrupt_weights_file_stops_the_bridge_at_start(tmp_path):
    from ginbots.estimators.weights import find_weights

    for name in ("mlp8.onnx", "mlp8.card.json"):
        (tmp_path / name).write_bytes(find_weights(name).read_bytes())
    net = tmp_path / "mlp8.onnx"
    net.write_bytes(net.read_bytes()[:100])
    res = subprocess.run(BRIDGE + ["heuristic:tuned"], input='{"type":"hello","protocol":1}\n', capture_output=True,
                         text=True, timeout=60, env={**os.environ, "GINBOTS_WEIGHTS": str(tmp_path)})
    assert res.returncode == EXIT_BOT_ERROR
    message = json.loads(res.stdout.splitlines()[0])["message"]
    assert "failed to start" in message and "mlp8.onnx" in message and "corrupt" in message


def test_every_registered_bot_prepares_before_any_game():
    from ginbots.players.registry import available_players, parse_spec

    for name in available_players():
        parse_spec(name).make(seed=0).prepare()  # no game state may be needed to load what play needs
