"""The Java shim for the challenge harness, compiled against the project's stand-in ginrummy package
and driven by a Java-side game loop that checks every answer against the rules."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import bridge_without_onnxruntime

JAVA = Path(__file__).resolve().parent.parent / "submission" / "java"
SHIM = Path(__file__).resolve().parent.parent / "ginbots" / "connect" / "shim" / "java" / "ginbots"
pytestmark = pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    out = tmp_path_factory.mktemp("classes")
    sources = [str(p) for p in (JAVA / "stub" / "ginrummy").glob("*.java")]
    sources += [str(p) for p in SHIM.glob("*.java")] + [str(JAVA / "test" / "ShimDriver.java")]
    subprocess.run(["javac", "--release", "8", "-Xlint:all", "-Werror", "-d", str(out), *sources], check=True, capture_output=True,
                   text=True)
    return out


def drive(classes, hands, command, *props):
    return subprocess.run(["java", *props, "-cp", str(classes), "ShimDriver", str(hands), *command],
                          capture_output=True, text=True, timeout=120, cwd=JAVA.parent.parent)


def summary(result):
    line = result.stdout.strip().splitlines()[-1]
    return dict(item.split("=") for item in line.split())


def test_a_python_bot_plays_legal_hands_through_the_shim(classes):
    res = drive(classes, 6, [sys.executable, "-m", "ginbots.connect.bridge", "keats"])
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


TESTS = Path(__file__).resolve().parent


def _announcer_env():
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}


def test_every_game_starts_with_new_game_even_after_an_opponents_forfeit(classes):
    res = subprocess.run(["java", "-Dforfeit=true", "-Dginbots.budget=5", "-cp", str(classes), "ShimDriver", "6",
                          sys.executable, "-m", "ginbots.connect.bridge", "--import", "hostile:Announcer"],
                         capture_output=True, text=True, timeout=120, cwd=JAVA.parent.parent, env=_announcer_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stderr.count("ANNOUNCE new_game") == 6
    lefts = [float(line.split("=")[1]) for line in res.stderr.splitlines() if line.startswith("ANNOUNCE time_left=")]
    assert len(lefts) == 6 and all(left > 4.5 for left in lefts)  # each game's budget starts afresh


def test_a_bridge_that_cannot_start_fails_the_constructor_loudly(classes):
    res = drive(classes, 1, [sys.executable, "-c", "import sys; sys.exit(4)"])
    assert res.returncode == 3 and "CONSTRUCTION FAILED" in res.stdout and "could not start" in res.stdout


def test_a_bridge_that_loads_slowly_starts_within_the_startup_wait_and_fails_past_it(classes):
    # A first start may compile the bot's kernels (22 s for the champion on a loaded two-core machine):
    # the constructor waits ginbots.startup seconds (default 120) for the hello, and says so when it gives up.
    command = [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "slow-start"]
    res = drive(classes, 1, command, "-Dginbots.startup=0.5")
    assert res.returncode == 3 and "CONSTRUCTION FAILED" in res.stdout
    assert "did not answer hello within 0.5 s" in res.stdout
    res = drive(classes, 1, command, "-Dginbots.startup=10")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "bridge ready: bot bad-slow-start" in res.stderr


def test_a_timed_out_decision_restarts_the_bridge_so_the_next_starts_on_time(classes):
    res = drive(classes, 1, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "slow-once"],
                "-Dginbots.decision_timeout=0.5")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "restarted after a timed-out decision" in res.stderr
    # only the first discard sleeps; after the restart no decision waits behind it
    assert res.stderr.count("no answer within 0.5 s") == 1, res.stderr


def test_two_entries_in_one_jvm_each_start_their_own_bot_from_any_folder(classes, tmp_path):
    root = JAVA.parent.parent
    for entry, bot in (("a", "keats"), ("b", "simple")):
        folder = tmp_path / entry / "ginbots"
        folder.mkdir(parents=True)
        for cls in (classes / "ginbots").glob("*.class"):
            (folder / cls.name).write_bytes(cls.read_bytes())
        (folder / "bridge.properties").write_text(f"command={sys.executable} -m ginbots.connect.bridge {bot}\n"
                                                  f"directory={root}\n")
    res = _two_entries(tmp_path, tmp_path / "a", tmp_path / "b")
    assert res.returncode == 0 and "ok" in res.stdout, res.stdout + res.stderr
    assert "bridge ready: bot keats" in res.stderr and "bridge ready: bot simple" in res.stderr


def test_the_shipped_shim_classes_are_java_8_and_built_from_the_current_sources():
    from ginbots.connect import shim

    assert shim.stale_reason() is None  # else: ginbots package --rebuild-shim submission/java/stub/ginrummy
    names = {p.stem for p in shim.class_files()}
    assert {p.stem for p in SHIM.glob("*.java")} <= names
    for cls in shim.class_files():
        major = int.from_bytes(cls.read_bytes()[6:8], "big")
        assert major == shim.JAVA_8, f"{cls.name}: class file version {major}, Java 8 is 52"


def test_a_bot_that_cannot_load_its_models_fails_the_constructor_with_the_bridges_reason(classes):
    res = drive(classes, 1, bridge_without_onnxruntime("heuristic:tuned"))
    assert res.returncode == 3 and "CONSTRUCTION FAILED" in res.stdout
    assert "bot heuristic:tuned failed to start" in res.stdout and "onnxruntime" in res.stdout


def test_a_bot_error_mid_game_is_reported_with_the_bridges_reason(classes):
    res = subprocess.run(["java", "-cp", str(classes), "ShimDriver", "2", sys.executable, "-m", "ginbots.connect.bridge",
                          "--import", "hostile:SysExits"],
                         capture_output=True, text=True, timeout=120, cwd=JAVA.parent.parent, env=_announcer_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert "bot unavailable, playing the built-in policy from now on: the bridge stopped:" in res.stderr
    assert "hostile:SysExits raised SystemExit" in res.stderr


def test_warnings_reach_the_process_stderr_when_the_runner_points_system_err_elsewhere(classes):
    res = drive(classes, 3, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "dies"], "-Dsilence=true")
    assert res.returncode == 0, res.stdout + res.stderr
    assert summary(res)["alive"] == "false" and "bot unavailable" in res.stderr


def _entry_in_a_jar(tmp_path, bot="keats"):
    """A packaged entry unpacked as an organiser would, its classes then packed into java/entry.jar."""
    import zipfile

    from ginbots.connect.package import build_package

    archive = build_package(bot, out_dir=tmp_path / "dist")
    root = tmp_path / "entry"
    with zipfile.ZipFile(archive) as z:
        z.extractall(root)
    jar = root / "java" / "entry.jar"
    with zipfile.ZipFile(jar, "w") as z:
        for path in (root / "java" / "classes").rglob("*"):
            if path.is_file():
                z.write(path, path.relative_to(root / "java" / "classes").as_posix())
    return root, jar


def _two_entries(tmp_path, a, b, *props):
    """TwoEntries on entries ``a`` and ``b`` (class folders or jars), from a folder unrelated to both."""
    stub = tmp_path / "stub"
    if not stub.exists():
        subprocess.run(["javac", "--release", "8", "-d", str(stub),
                        *map(str, (JAVA / "stub" / "ginrummy").glob("*.java")), str(JAVA / "test" / "TwoEntries.java")],
                       check=True, capture_output=True, text=True)
    elsewhere = tmp_path / "unrelated"
    elsewhere.mkdir(exist_ok=True)
    return subprocess.run(["java", *props, "-cp", str(stub), "TwoEntries", str(a), str(b)],
                          capture_output=True, text=True, timeout=120, cwd=elsewhere)


def test_an_entry_packed_in_a_jar_starts_its_own_bot_from_the_archive_around_the_jar(tmp_path):
    root, jar = _entry_in_a_jar(tmp_path)
    res = _two_entries(tmp_path, jar, jar)
    assert res.returncode == 0 and "ok" in res.stdout, res.stdout + res.stderr
    assert res.stderr.count(f"bridge ready: bot keats in {root}") == 2, res.stderr


def test_a_jar_away_from_its_archive_fails_loudly_unless_told_where_the_archive_is(tmp_path):
    root, jar = _entry_in_a_jar(tmp_path)
    moved = tmp_path / "elsewhere" / "entry.jar"
    moved.parent.mkdir()
    jar.rename(moved)
    res = _two_entries(tmp_path, moved, moved)
    assert res.returncode != 0 and "no folder around it holds the unpacked archive" in res.stderr
    assert "ginbots.directory" in res.stderr and "bridge ready" not in res.stderr
    res = _two_entries(tmp_path, moved, moved, f"-Dginbots.directory={root}")
    assert res.returncode == 0 and res.stderr.count(f"bridge ready: bot keats in {root}") == 2, res.stdout + res.stderr


def test_a_source_checkout_around_a_jar_is_not_taken_for_its_archive(tmp_path):
    root, jar = _entry_in_a_jar(tmp_path)
    (root / "MANIFEST.json").unlink()  # what is left looks like a checkout: ginbots/connect/bridge.py, no manifest
    res = _two_entries(tmp_path, jar, jar)
    assert res.returncode != 0 and "no folder around it holds the unpacked archive" in res.stderr


def test_a_restart_replays_with_no_time_left_and_its_cost_counts_against_the_budget(classes):
    """The replayed decisions carry time_left 0 (a bot that honours it answers at once), and the restart
    (a second of start-up here) and the timed-out wait come off the game's budget."""
    res = drive(classes, 1, [sys.executable, str(JAVA / "test" / "bad_bridge.py"), "slow-once-logged"],
                "-Dginbots.decision_timeout=0.5", "-Dginbots.budget=30")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "counted against the budget" in res.stderr
    decisions = [line.split() for line in res.stderr.splitlines() if line.startswith("DECISION ")]
    first = [float(d[3].split("=")[1]) for d in decisions if d[1] == "first"]
    again = [d for d in decisions if d[1] == "restarted"]
    replayed = len(first) - 1  # every decision of the first process but the timed-out one, plus that one
    assert all(d[3] == "time_left=0" for d in again[:replayed + 1])
    after = [float(d[3].split("=")[1]) for d in again[replayed + 1:]]
    assert after and after[0] <= first[-1] - 1.5  # 0.5 s waited for the lost answer, 1 s to restart


def _vermouth_lines(text):
    """Each ``java -jar vermouth.jar ...`` command of a page (inline code or an indented line)."""
    import re
    import shlex

    commands = [shlex.split(m) for m in re.findall(r"(java -jar vermouth\.jar [^`\n]+)", text)]
    return [c for c in commands if "..." not in c]  # a pattern with a placeholder agent is not run


def test_the_vermouth_commands_of_the_docs_and_the_archive_load_their_agents(tmp_path):
    """The organiser's vermouth command, as docs/java-harness.md and the archive's README give it, run from
    the unpacked archive against a stand-in of vermouth's command line that loads file: agents as vermouth
    does: the ginbots entry starts its bridge and answers, and the Simple agent's class name resolves."""
    import zipfile

    from ginbots.connect.package import build_package

    root = JAVA.parent.parent
    stub = [str(p) for p in (JAVA / "stub" / "ginrummy").glob("*.java")]
    vclasses = tmp_path / "vermouth-classes"
    subprocess.run(["javac", "--release", "8", "-d", str(vclasses), *stub, str(JAVA / "test" / "StandinVermouth.java")],
                   check=True, capture_output=True, text=True)
    (tmp_path / "manifest.txt").write_text("Main-Class: StandinVermouth\n")
    jar = tmp_path / "vermouth.jar"
    subprocess.run(["jar", "cfm", str(jar), str(tmp_path / "manifest.txt"), "-C", str(vclasses), "."], check=True)
    entry = tmp_path / "entry"
    with zipfile.ZipFile(build_package("simple", out_dir=tmp_path / "dist")) as z:
        z.extractall(entry)
    # The challenge's Simple as the organiser has it beside the archive: ./ginrummy/SimpleGinRummyPlayer.class
    subprocess.run(["javac", "--release", "8", "-cp", str(vclasses), "-d", str(entry),
                    str(JAVA / "test" / "standin" / "SimpleGinRummyPlayer.java")], check=True, capture_output=True)
    pages = {"docs/java-harness.md": (root / "docs" / "java-harness.md").read_text(),
             "the archive's README": (entry / "README.txt").read_text()}
    for where, text in pages.items():
        commands = _vermouth_lines(text)
        assert commands, f"no vermouth command in {where}"
        for command in commands:
            command = [str(jar) if arg == "vermouth.jar" else arg for arg in command]
            res = subprocess.run(command, cwd=entry, capture_output=True, text=True, timeout=120)
            assert res.returncode == 0 and res.stdout.startswith("ok 2"), (where, command, res.stdout + res.stderr)
            assert "bridge ready" in res.stderr
