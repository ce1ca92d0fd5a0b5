"""An isolated bot's processes held to its own turns and capped in number.

The engine's clock is wall time, as the challenge's is, so a bot behind the bridge could start
processes that burn CPU while its opponent thinks: 60 busy processes, each in a session of its own,
made the champion think 7.0 s a game instead of 0.6 on two cores (experiments/robustness,
``cpu_thief.py``), and enough of them make any opponent forfeit on time. It could also fork without
end until the machine runs out of processes or memory.
Two defences, both on Linux:

- **Stopped between its turns.** After each answer the host sends SIGSTOP to every process of the
  bot, and SIGCONT before its next question: the bot computes only inside its own decisions, which
  its own clock pays for. Reports sent meanwhile wait in its pipe and are read when it next runs.
- **A cap on its tasks** (processes and threads, ``TASK_CAP``): a ``pids`` cgroup of its own where this
  process may make one (root on cgroup v1, or the root of cgroup v2), which also names every process
  the bot started wherever it went; else ``RLIMIT_NPROC`` (which the kernel does not apply to root).
  Its processes are also the first the kernel's out-of-memory killer takes (``OOM_SCORE_ADJ``), and no
  file it writes, its stderr log included, may pass ``FILE_MB``.

Without a cgroup the bot's processes are found as the host's child and its descendants
(``/proc/PID/task/TID/children``); in bubblewrap's PID namespace nothing can leave that tree (an
orphan is adopted by the bot, the namespace's first process). ``docs/robustness.md`` says what holds where.
"""

from __future__ import annotations

import os
import signal
import time
from functools import lru_cache
from pathlib import Path

from .sandbox import pid_alive, safe_name, set_dumpable, sized_tmpfs

#: Tasks (processes and threads) one isolated bot may run: far above what a bot needs (the champion
#: runs a few threads per core: onnxruntime's and numba's pools), far below what hurts the machine.
TASK_CAP = max(256, 8 * (os.cpu_count() or 1))
#: Without a pids cgroup (a runner that is not root's), RLIMIT_NPROC counts every task of the user, not the
#: bot's alone, and a fork fails once the user's total passes it, whoever made the others: so the limit is
#: the user's tasks when the bot starts plus room for its own TASK_CAP and for the bots the runner's other
#: workers start beside it (two a worker, a worker a core), at most an eighth of the kernel's pid space.
NPROC_BOTS_PER_CORE = 2
#: Where a pids cgroup of our own may be made, cgroup v1 first, then the root of cgroup v2.
CGROUP_PIDS_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))
#: The bot's processes' ``oom_score_adj``: the most (any process may raise its own), so the kernel's
#: out-of-memory killer takes them before anything of the runner's (each one's address space is capped,
#: ``--memory-mb``, but up to ``TASK_CAP`` of them together are not).
OOM_SCORE_ADJ = 1000
#: The size of a confined bot's scratch folder, a memory file system (``sandbox.wrap``): what it may write
#: at all, so that it cannot fill the runner's disk (its copy of the kernel cache takes about 20 MB).
SCRATCH_MB = 256
#: The largest file a confined bot may write, its stderr log included (appended to over a whole match by
#: each worker): RLIMIT_FSIZE, so that it cannot fill the runner's disk through its log either.
FILE_MB = 1024
#: Rounds of stopping newly found processes before a freeze gives up looking (each round stops
#: every process found; a stopped process cannot fork, so two rounds are the usual case).
MAX_FREEZE_ROUNDS = 8

_made = 0


def _writable_pids_root() -> Path | None:
    """A cgroup folder with the pids controller under which this process may make a child, or None."""
    for root in CGROUP_PIDS_ROOTS:
        if root.name == "pids":
            ok = (root / "pids.max").exists() or (root / "cgroup.procs").exists()
        else:  # cgroup v2: only where the controller is handed down from the root
            try:
                ok = "pids" in (root / "cgroup.subtree_control").read_text().split()
            except OSError:
                ok = False
        if ok and os.access(root, os.W_OK):
            return root
    return None


@lru_cache(maxsize=1)
def prune_stale_cgroups() -> int:
    """Remove (once per process) the empty cgroups of runner processes that are gone (``ginbots-PID-...``:
    a worker killed outright cannot remove its own). Returns how many were removed."""
    root = _writable_pids_root()
    removed = 0
    for folder in root.glob("ginbots-*") if root is not None else ():
        owner = folder.name.split("-")[1]
        if owner.isdigit() and not pid_alive(int(owner)):
            try:
                folder.rmdir()
                removed += 1
            except OSError:
                pass
    return removed


class Confinement:
    """The processes of one isolated bot (kept across its restarts): cap them, stop them, count them."""

    def __init__(self, label: str = "bot", cap: int = TASK_CAP, file_mb: int | None = None) -> None:
        global _made
        self.cap = cap
        self.file_mb = FILE_MB if file_mb is None else file_mb
        self.cgroup: Path | None = None
        self._procs: str | None = None  # the path of the cgroup's process list
        self.root_pid: int | None = None
        self.stopped: list[int] = []
        root = _writable_pids_root()
        if root is not None:
            prune_stale_cgroups()
            _made += 1
            path = root / f"ginbots-{os.getpid()}-{_made}-{safe_name(label)}"
            try:
                path.mkdir()  # a name another runner holds (another PID namespace's pid) is left to it
                (path / "pids.max").write_text(f"{cap}\n")
                self._procs = str(path / "cgroup.procs")
                self.cgroup = path
            except FileExistsError:
                pass
            except OSError:
                self._remove(path)
        tasks = None if self.cgroup is not None or os.geteuid() == 0 else _user_tasks()
        self._nproc = None if tasks is None else tasks + nproc_headroom(cap)

    @staticmethod
    def describe_host() -> str:
        """How a bot's tasks are capped and found on this host, and where its scratch folder is, in words."""
        scratch = (f"a {SCRATCH_MB} MB scratch folder in memory" if sized_tmpfs()
                   else "its scratch folder on disk, not capped (no bwrap that sizes a memory file system)")
        tasks = _how(_writable_pids_root() is not None, os.geteuid() != 0 and os.path.isdir("/proc"), TASK_CAP)
        return f"{tasks}; {scratch}"

    @property
    def how(self) -> str:
        """How this bot's tasks are capped and found, in words."""
        return _how(self.cgroup is not None, self._nproc is not None, self.cap)

    def enter(self) -> None:
        """In the child between fork and exec: first in line for the kernel's out-of-memory killer (so
        that a bot whose processes together exhaust memory loses them, not the runner its own), no file
        past ``file_mb``, then join the cgroup, or set the process limit."""
        _raise_oom_score()
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # kept across exec: a write past the cap fails, no kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (self.file_mb << 20, self.file_mb << 20))
        if self.cgroup is not None:
            try:
                (self.cgroup / "cgroup.procs").write_text("0\n")
            except OSError:
                pass
        elif self._nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (self._nproc, self._nproc))

    def started(self, pid: int) -> None:
        """The bot's new first process (the sandbox's, or the bot's own without one)."""
        self.root_pid = pid
        self.stopped = []

    def processes(self) -> list[int]:
        """Every process of the bot now: the cgroup's, else the first process and its descendants."""
        if self._procs is not None:
            # Opened afresh each time (about 10 us): cgroup v1 keeps the list an open file first read.
            try:
                fd = os.open(self._procs, os.O_RDONLY)
                try:
                    listed = [int(p) for p in os.read(fd, 1 << 20).split()]
                finally:
                    os.close(fd)
                if listed or self.root_pid is None:
                    return listed  # empty while the bot runs: it could not join the cgroup; the tree holds it
            except (OSError, ValueError):
                pass
        return [] if self.root_pid is None else process_tree(self.root_pid)

    def freeze(self) -> None:
        """SIGSTOP every process of the bot (until a round finds none it has not stopped)."""
        seen: set[int] = set()
        for _ in range(MAX_FREEZE_ROUNDS):
            new = [p for p in self.processes() if p not in seen]
            if not new:
                break
            for pid in new:
                _signal(pid, signal.SIGSTOP)
            seen.update(new)
        self.stopped = list(seen)

    def thaw(self) -> None:
        """SIGCONT what ``freeze`` stopped."""
        for pid in self.stopped:
            _signal(pid, signal.SIGCONT)
        self.stopped = []

    def kill_all(self) -> None:
        """SIGKILL every process of the bot (what escaped its session included, where a cgroup names it)."""
        for pid in self.processes():
            _signal(pid, signal.SIGKILL)
        self.stopped = []

    def close(self) -> None:
        """Kill what is left and remove the cgroup."""
        self.kill_all()
        self._procs = None
        if self.cgroup is not None:
            self._remove(self.cgroup)
            self.cgroup = None

    @staticmethod
    def _remove(path: Path) -> None:
        for _ in range(20):  # killed processes leave the cgroup a moment after they are reaped
            try:
                path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.05)


def _raise_oom_score() -> None:
    """This process first in line for the out-of-memory killer. Between fork and exec: the runner is
    not dumpable (``sandbox.set_dumpable``) and its children inherit that, which gives their
    ``/proc/self`` files to root, so a runner that is not root's must make the child dumpable for the
    write (and then not again: the child still holds the runner's memory until its exec)."""
    dumpable_for_write = os.geteuid() != 0 and set_dumpable(True)
    try:
        with open("/proc/self/oom_score_adj", "w") as fh:
            fh.write(f"{OOM_SCORE_ADJ}\n")
    except OSError:
        pass
    finally:
        if dumpable_for_write:
            set_dumpable(False)


def nproc_headroom(cap: int = TASK_CAP) -> int:
    """How many tasks past the user's present count RLIMIT_NPROC allows a bot (``NPROC_BOTS_PER_CORE``)."""
    try:
        pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    except (OSError, ValueError):
        pid_max = 32768
    return max(cap, min(cap * NPROC_BOTS_PER_CORE * (os.cpu_count() or 1), pid_max // 8))


def _how(cgroup: bool, nproc: bool, cap: int) -> str:
    if cgroup:
        return f"pids cgroup, {cap} tasks"
    if nproc:
        return f"RLIMIT_NPROC, this user's tasks + {nproc_headroom(cap)} (the kernel counts the user's, not the bot's)"
    why = "root without a pids cgroup" if os.geteuid() == 0 else "no /proc to count this user's tasks"
    return f"process tree, no task cap ({why})"


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it, by the children lists of each of their threads."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as fh:
                    todo.extend(int(c) for c in fh.read().split())
            except OSError:
                pass
    return out


def _user_tasks() -> int | None:
    """Tasks (processes and threads) of this real user now: what RLIMIT_NPROC counts; None without /proc
    (not Linux), where no cap is set rather than one that might stop the bot's first fork."""
    uid, total = os.getuid(), 0
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        try:
            if int(fields["Uid"].split()[0]) == uid:
                total += int(fields["Threads"])
        except (KeyError, ValueError, IndexError):
            continue
    return total


__all__ = ["Confinement", "SCRATCH_MB", "TASK_CAP", "process_tree"]
