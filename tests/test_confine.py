"""An untrusted isolated bot cannot take CPU from its opponent's thinking time, nor fork without end
(``ginbots.connect.confine``), and nothing it started, nor its scratch folder or cgroup, outlives it."""

from __future__ import annotations

import os
import shutil
import sys
import time
import warnings
from pathlib import Path

import pytest

from ginbots.connect import confine, sandbox
from ginbots.connect.host import ProcessPlayer
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer

TESTS = os.path.dirname(os.path.abspath(__file__))
HOSTILE = [sys.executable, "-m", "ginbots.connect.bridge", "--import"]


def _named(name: str) -> dict[int, str]:
    """pid -> state letter of every process named ``name`` (``/proc/PID/comm``)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if Path(f"/proc/{entry}/comm").read_text().strip() != name:
                continue
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        found[int(entry)] = stat.rsplit(")", 1)[1].split()[0]
    return found


#: How long the watcher waits for the thief's stops to land before it records what it sees.
STOP_GRACE_S = 0.25


class Watcher(SimplePlayer):
    """Simple, which at each of its decisions looks at the thief's processes: the states it saw, once
    they had all stopped or 250 ms had passed (a stop lands a few microseconds after its signal on an
    idle host, but only once the stopped process is next scheduled: with other jobs on both cores, 20 ms
    was seen to be too short)."""

    name = "watcher"

    def __init__(self) -> None:
        super().__init__(seed=1)
        self.seen: list[dict[int, str]] = []

    def _look(self) -> None:
        end = time.monotonic() + STOP_GRACE_S
        while True:
            states = _named("gbthief")
            if all(s in "TtZX" for s in states.values()) or time.monotonic() > end:
                break
        if states:
            self.seen.append(states)

    def wants_face_up(self, card: int) -> bool:
        self._look()
        return super().wants_face_up(card)

    def discard(self) -> int:
        self._look()
        return super().discard()


def _hostile(name: str, tmp_path: Path, confined: bool = True) -> ProcessPlayer:
    return ProcessPlayer(HOSTILE + [f"hostile:{name}"], label=name, sandbox=True, confine=confined,
                         pythonpath=[TESTS, *sys.path], log=tmp_path / f"{name}.log", memory_mb=2048)


@pytest.fixture
def no_cgroup(monkeypatch):
    """Confinement without a cgroup: the bot's processes found as the sandbox's process tree."""
    monkeypatch.setattr(confine, "CGROUP_PIDS_ROOTS", ())


@pytest.mark.parametrize("mode", ["as-the-host-allows", "process-tree"])
def test_an_untrusted_bots_processes_are_stopped_while_its_opponent_thinks(mode, tmp_path, request):
    if mode == "process-tree":
        request.getfixturevalue("no_cgroup")
    thief = _hostile("CpuThief", tmp_path)
    watcher = Watcher()
    try:
        assert mode == "as-the-host-allows" or thief.confinement.cgroup is None
        play_game([thief, watcher], seed=11, config=GameConfig(time_budget=30, max_hands_per_game=2))
    finally:
        thief.close()
    assert watcher.seen, "the watcher never saw the thief's processes"
    assert max(len(states) for states in watcher.seen) == 4
    running = [states for states in watcher.seen if any(s not in "TtZX" for s in states.values())]
    assert not running, f"the thief's processes ran during {len(running)} of the watcher's {len(watcher.seen)} decisions"
    time.sleep(0.2)
    assert not _named("gbthief"), "the thief's processes outlived it"


def test_the_control_unconfined_the_thiefs_processes_run_on_the_opponents_time(tmp_path):
    thief = _hostile("CpuThief", tmp_path, confined=False)
    watcher = Watcher()
    try:
        play_game([thief, watcher], seed=11, config=GameConfig(time_budget=30, max_hands_per_game=1))
    finally:
        thief.close()
    assert any(any(s == "R" for s in states.values()) for states in watcher.seen)


def test_an_untrusted_bot_cannot_fork_past_its_task_cap_and_goes_first_to_the_oom_killer(tmp_path, monkeypatch):
    # As a plain user (RLIMIT_NPROC) the cap is the user's tasks plus room for other workers' bots: held
    # to one bot's cap here, so that the same bound is asserted on both paths.
    monkeypatch.setattr(confine, "NPROC_BOTS_PER_CORE", 0)
    bomb = _hostile("ForkBomb", tmp_path)
    if "no task cap" in bomb.confinement.how:
        bomb.close()
        pytest.skip("this host gives no task cap: root without a writable pids cgroup")
    try:
        result = play_game([bomb, SimplePlayer(seed=2)], seed=5, config=GameConfig(time_budget=30, max_hands_per_game=1))
        made = len(_named("gbbomb"))
        adjusted = [Path(f"/proc/{pid}/oom_score_adj").read_text().strip() for pid in bomb.confinement.processes()]
    finally:
        bomb.close()
    assert result.forfeit is None
    assert adjusted and set(adjusted) == {str(confine.OOM_SCORE_ADJ)}, adjusted
    log = (tmp_path / "ForkBomb.log").read_text()
    count = int(log.split("BOMB made ")[1].split()[0])
    assert 0 < count < confine.TASK_CAP and made == count, (count, made)
    time.sleep(0.2)
    assert not _named("gbbomb"), "the bomb's children outlived it"


def test_a_runner_killed_outright_leaves_nothing_the_next_one_does_not_remove(tmp_path, monkeypatch):
    """Scratch folders and cgroups are named by the runner process that owns them; those of a process
    that is gone are removed by the next runner (a worker killed by SIGKILL cannot clean up)."""
    monkeypatch.setattr(sandbox, "SCRATCH_ROOT", tmp_path)
    gone = 2 ** 22 + 12345  # above any pid_max: no such process
    stale = tmp_path / f"simple-{gone}-abc123"
    mine = tmp_path / f"simple-{os.getpid()}-def456"
    for folder in (stale, mine):
        (folder / "numba-cache").mkdir(parents=True)
    sandbox.prune_stale_scratch.cache_clear()
    assert sandbox.prune_stale_scratch() == 1
    assert not stale.exists() and mine.exists()
    root = confine._writable_pids_root()
    if root is not None:
        (root / f"ginbots-{gone}-1-simple").mkdir()
        confine.prune_stale_cgroups.cache_clear()
        assert confine.prune_stale_cgroups() >= 1
        assert not (root / f"ginbots-{gone}-1-simple").exists()


def test_the_default_scratch_and_log_folders_are_this_users_alone(tmp_path):
    """A fixed name in the shared temporary folder can be taken first: a link there (to another user's
    folder, say) is refused by name, and a folder of ours open to others is closed to them."""
    target = tmp_path / "someone-elses"
    target.mkdir()
    link = tmp_path / "ginbots-logs-1000"
    link.symlink_to(target)
    with pytest.raises(PermissionError, match="not a folder of this user's"):
        sandbox.private_folder(link)
    if os.geteuid() == 0:  # root can hand a folder to another user: one held by another is refused too
        held = tmp_path / "held"
        held.mkdir()
        os.chown(held, 65534, 65534)
        with pytest.raises(PermissionError, match="another user"):
            sandbox.private_folder(held)
    opened = tmp_path / "opened"
    opened.mkdir(mode=0o777)
    opened.chmod(0o777)
    assert sandbox.private_folder(opened) == opened and opened.stat().st_mode & 0o777 == 0o700
    assert sandbox.private_folder(tmp_path / "new" / "logs").stat().st_mode & 0o777 == 0o700
    assert str(os.getuid()) in sandbox.LOG_ROOT.name and str(os.getuid()) in sandbox.SCRATCH_ROOT.name


def test_an_untrusted_bot_cannot_fill_the_disk_and_still_finds_the_kernel_cache(tmp_path):
    """Its scratch folder is a memory file system of ``SCRATCH_MB``: writing stops there, nothing reaches
    the runner's disk, and the compiled-kernel cache the runner prepared is still where numba looks; /dev is
    read-only and /dev/shm stops at ``SHM_MB`` (memory no process owns, which the out-of-memory killer
    could not free)."""
    filler = _hostile("DiskFiller", tmp_path)
    try:
        result = play_game([filler, SimplePlayer(seed=2)], seed=5,
                           config=GameConfig(time_budget=30, max_hands_per_game=1))
        on_disk = (filler.scratch / "fill.bin").exists()
    finally:
        filler.close()
    assert result.forfeit is None and not on_disk
    line = (tmp_path / "DiskFiller.log").read_text().split("FILL wrote ")[1]
    written, kernels, shm, dev = (int(part.split()[0]) for part in line.split(", "))
    assert 0 < written <= confine.SCRATCH_MB and 0 < shm <= sandbox.SHM_MB and dev == 0
    if sandbox.copy_kernel_cache(tmp_path) is not None:  # numba installed: the runner made a cache to copy
        assert kernels > 0


def test_an_untrusted_bots_stderr_log_stops_at_its_file_cap(tmp_path, monkeypatch):
    """A bot that writes 200 KB to stderr at every decision: its log stops at the cap (1 MB here, 1 GB by
    default), where its writes fail; the game ends either way."""
    monkeypatch.setattr(confine, "FILE_MB", 1)
    chatty = _hostile("Chatty", tmp_path)
    try:
        result = play_game([chatty, SimplePlayer(seed=2)], seed=5, config=GameConfig(time_budget=30))
    finally:
        chatty.close()
    size = (tmp_path / "Chatty.log").stat().st_size
    assert result.winner is not None and (1 << 20) - 200_001 <= size <= 1 << 20, size


def test_describing_a_bot_that_floods_its_output_takes_neither_the_runners_memory_nor_its_disk(tmp_path,
                                                                                             monkeypatch):
    """``describe_bot`` (``ginbots list``, spec checks) sends the process's output to files capped at
    ``DESCRIBE_FILE_MB``: a module that writes 200 MB as it is imported fails there, and is named."""
    from ginbots.connect.host import DESCRIBE_FILE_MB, describe_bot

    site = tmp_path / "site"
    (site / "floodpkg-1.0.dist-info").mkdir(parents=True)
    (site / "floodpkg.py").write_text(
        "import sys\nblock = 'x' * (1 << 20)\nfor _ in range(200):\n    sys.stderr.write(block)\n"
        "from ginbots.players.baselines import SimplePlayer\n\n\nclass Flood(SimplePlayer):\n    name = 'flood'\n")
    (site / "floodpkg-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: floodpkg\nVersion: 1.0\n")
    (site / "floodpkg-1.0.dist-info" / "entry_points.txt").write_text("[ginbots.players]\nflood = floodpkg:Flood\n")
    monkeypatch.syspath_prepend(str(site))
    assert DESCRIBE_FILE_MB < 200
    with pytest.raises(ValueError, match="flood: its process exited with status 1 without describing itself"):
        describe_bot("flood")


@pytest.fixture
def older_bwrap(tmp_path, monkeypatch):
    """A ``bwrap`` first on PATH that refuses one option, as an older bubblewrap does (``--size`` came in
    0.7, ``--clearenv`` in 0.5), and is otherwise the real one; the probes' caches cleared around it."""
    real = shutil.which("bwrap")
    if real is None:
        pytest.skip("bubblewrap is not installed here")
    folder = tmp_path / "old-bwrap"
    folder.mkdir()

    def refusing(option: str) -> None:
        script = folder / "bwrap"
        script.write_text("#!/bin/sh\n"
                          'for a in "$@"; do [ "$a" = "--" ] && break\n'
                          f'  [ "$a" = "{option}" ] && {{ echo "bwrap: Unknown option {option}" >&2; exit 1; }}\n'
                          f'done\nexec {real} "$@"\n')
        script.chmod(0o755)
        for probe in (sandbox.bubblewrap, sandbox.sized_tmpfs):
            probe.cache_clear()
        monkeypatch.setattr(sandbox, "_warned", False)

    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    yield refusing
    for probe in (sandbox.bubblewrap, sandbox.sized_tmpfs):
        probe.cache_clear()


def _plays_a_game(tmp_path: Path) -> ProcessPlayer:
    bot = ProcessPlayer(HOSTILE + ["helpers:Passive"], label="passive", sandbox=True, confine=True,
                        pythonpath=[TESTS, *sys.path], log=tmp_path / "passive.log", memory_mb=2048)
    try:
        result = play_game([bot, SimplePlayer(seed=2)], seed=5, config=GameConfig(time_budget=30, max_hands_per_game=1))
    finally:
        bot.close()
    assert result.forfeit is None, (tmp_path / "passive.log").read_text()[-2000:]
    return bot


def test_a_bwrap_without_size_caps_still_sandboxes_and_says_what_is_missing(older_bwrap, tmp_path):
    """bubblewrap before 0.7 (Ubuntu 22.04 has 0.6) cannot size a memory file system: a confined bot then
    still plays in the sandbox, its scratch folder a folder on disk, and the runner says so once."""
    older_bwrap("--size")
    assert sandbox.bubblewrap() is not None and not sandbox.sized_tmpfs()
    command = sandbox.wrap(["true"], tmp_path, scratch_mb=confine.SCRATCH_MB)
    assert "--size" not in command and command[command.index("--bind") + 1] == str(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _plays_a_game(tmp_path)
    assert any("--size needs bubblewrap 0.7" in str(w.message) for w in caught)
    assert "on disk, not capped" in confine.Confinement.describe_host()


def test_a_bwrap_too_old_for_the_sandbox_is_found_before_any_bot_starts(older_bwrap, tmp_path):
    """A bwrap that refuses one of the sandbox's options (``--clearenv``, before 0.5) fails the probe, so
    isolated bots run degraded, with a warning, instead of failing at every start."""
    older_bwrap("--clearenv")
    assert sandbox.bubblewrap() is None and "bwrap is installed" in sandbox.degraded_reason()
    assert sandbox.wrap(["true"], tmp_path) == ["true"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _plays_a_game(tmp_path)
    assert any("without a file-system, PID and network sandbox" in str(w.message) for w in caught)


def test_without_proc_a_plain_user_gets_no_task_cap_rather_than_a_crash(monkeypatch):
    """Off Linux there is no /proc to count a user's tasks by: confinement then sets no task cap (a cap
    counted from nothing could stop the bot's first fork) and says so, instead of failing every start."""
    real_listdir = os.listdir

    def no_proc(path="."):
        if str(path) == "/proc":
            raise FileNotFoundError(path)
        return real_listdir(path)

    monkeypatch.setattr(confine, "CGROUP_PIDS_ROOTS", ())
    monkeypatch.setattr(confine.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(confine.os, "listdir", no_proc)
    assert confine._user_tasks() is None
    confinement = confine.Confinement("no-proc")
    assert confinement._nproc is None and "no /proc" in confinement.how


def test_a_plain_users_task_limit_leaves_room_for_the_other_workers_bots(monkeypatch):
    """RLIMIT_NPROC counts all of a user's tasks, so one bot's limit must leave room for the bots other
    workers start after it (else a bot's thread fails because another bot grew), within the pid space."""
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    monkeypatch.setattr(confine.os, "cpu_count", lambda: 16)
    assert confine.nproc_headroom(256) == max(256, min(256 * 2 * 16, pid_max // 8))
    monkeypatch.setattr(confine.os, "cpu_count", lambda: 1)
    assert confine.nproc_headroom(256) == 512
    monkeypatch.setattr(confine, "CGROUP_PIDS_ROOTS", ())
    monkeypatch.setattr(confine.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(confine, "_user_tasks", lambda: 100)
    confinement = confine.Confinement("headroom")
    assert confinement._nproc == 100 + 512 and "RLIMIT_NPROC" in confinement.how


def test_a_cgroup_name_another_runner_holds_is_left_to_it():
    """Cgroups are named by the runner's pid, which another PID namespace sharing the cgroup tree may also
    have: a name already taken is left to its owner (not removed), and the bot goes without a cgroup."""
    root = confine._writable_pids_root()
    if root is None:
        pytest.skip("no pids cgroup this process may make here (a plain user, or cgroup v2 without the controller)")
    taken = root / f"ginbots-{os.getpid()}-{confine._made + 1}-taken"
    taken.mkdir()
    try:
        confinement = confine.Confinement("taken")
        assert confinement.cgroup is None and taken.is_dir()
        confinement.close()
        assert taken.is_dir()
    finally:
        taken.rmdir()
