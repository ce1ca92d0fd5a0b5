"""The Java shim for the challenge harness, compiled against the project's stand-in ginrummy package
and driven by a Java-side game loop that checks every answer against the rules."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

JAVA = Path(__file__).resolve().parent.parent / "submission" / "java"
pytestmark = pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    out = tmp_path_factory.mktemp("classes")
    sources = [str(p) for p in (JAVA / "stub" / "ginrummy").glob("*.java")]
    sources += [str(p) for p in (JAVA / "src" / "ginbots").glob("*.java")] + [str(JAVA / "test" / "ShimDriver.java")]
    subprocess.run(["javac", "-Xlint:all", "-Werror", "-d", str(out), *sources], check=True, capture_output=True,
                   text=True)
    return out


def drive(classes, hands, command, *props):
    return subprocess.run(["java", *props, "-cp", str(classes), "ShimDriver", str(hands), *command],
                          capture_output=True, text=True, timeout=120, cwd=JAVA.parent.parent)


def summary(result):
    line = result.stdout.strip().splitlines()[-1]
    return dict(item.split("=") for item in line.split())


def test_a_python_bot_plays_legal_hands_through_the_shim(classes):
    res = drive(classes, 6, [sys.executable, "-m", "ginbots.bridge", "keats"])
    assert res.returncode == 0, res.stdout + res.stderr
    s = summary(res)
    assert s["hands"] == "6" and s["fallbacks"] == "0" and s["alive"] == "true"


def test_illegal_answers_are_replaced_by_the_built_in_policy_and_logged(classes):
    res = drive(classes, 3, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "illegal"])
    assert res.returncode == 0, res.stdout + res.stderr
    assert int(summary(res)["fallbacks"]) > 10
    assert "illegal discard" in res.stderr and "illegal melds" in res.stderr


def test_a_dead_python_process_never_makes_the_host_forfeit(classes):
    res = drive(classes, 3, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "dies"])
    assert res.returncode == 0, res.stdout + res.stderr
    assert summary(res)["alive"] == "false" and "bot unavailable" in res.stderr


def test_a_bot_that_stops_answering_is_timed_out(classes):
    res = drive(classes, 1, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "slow"],
                "-Dginbots.decision_timeout=0.2")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "no answer within 0.2 s" in res.stderr and int(summary(res)["fallbacks"]) > 0
