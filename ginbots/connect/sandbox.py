"""The sandbox around an isolated bot, from what Linux and its standard tools already give.

With bubblewrap (``bwrap``, Debian package ``bubblewrap``, the sandbox Flatpak uses) an isolated
bot runs in its own PID, network, IPC and UTS namespaces, with every capability dropped: it sees
no other process (not the runner, not the opponent, not their ``/proc``), no network, a read-only
file system in which the run's own folders (results, logs, every other bot's scratch folder, the
judge's key) are empty, one writable scratch folder of its own, and an environment of a few
variables. Everything it starts dies with it (the namespace ends with its first process) and with
the runner (``--die-with-parent``).

Without bubblewrap the bot still gets a scrubbed environment, its own scratch folder as working
directory, its own session (its process group is killed with it) and an address-space cap, and the
runner makes itself non-dumpable (``PR_SET_DUMPABLE``: no ``/proc/PID/mem``, ``/proc/PID/fd`` or
``ptrace`` by another process of the same user that lacks ``CAP_SYS_PTRACE``); but the bot can read
the file system, see other processes and the network, and a ``setsid`` grandchild can outlive it.
The runner warns once when it runs degraded, and ``docs/robustness.md`` lists what holds where.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Sequence

#: ``prctl`` option numbers (linux/prctl.h).
PR_SET_DUMPABLE = 4
_UID = os.getuid() if hasattr(os, "getuid") else 0
#: Where every isolated bot's scratch folder lives; hidden from every bot but for its own folder.
SCRATCH_ROOT = Path(tempfile.gettempdir()) / f"ginbots-sandbox-{_UID}"
#: Where isolated bots' stderr logs go unless a run names a folder: one folder per user, as above.
LOG_ROOT = Path(tempfile.gettempdir()) / f"ginbots-logs-{_UID}"
#: The size of an isolated bot's /dev/shm (POSIX shared memory and semaphores: a few kB for most uses).
SHM_MB = 64
#: Where, in a size-capped scratch folder, the runner's copy of the kernel cache is bound read-only, and
#: the variable that tells the bridge (``seed_kernel_cache``).
KERNEL_SEED_NAME = ".kernel-cache"
KERNEL_SEED_ENV = "GINBOTS_KERNEL_CACHE_SEED"
#: Set GINBOTS_SANDBOX=none to run isolated bots without bubblewrap even where it is installed.
SANDBOX_ENV = "GINBOTS_SANDBOX"


#: bubblewrap's options for every isolated bot before its own folders: a read-only root, a fresh /dev
#: (read-only) and /proc, new namespaces, no capabilities. The probe runs these same options, so a bwrap
#: that lacks one (``--clearenv`` needs 0.5) is found before any bot starts, and isolated bots then run
#: degraded, with a warning, instead of failing at every start.
_BASE_OPTIONS = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc")
_NAMESPACE_OPTIONS = ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                      "--as-pid-1", "--die-with-parent", "--new-session", "--cap-drop", "ALL")


def _probe(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@lru_cache(maxsize=1)
def bubblewrap() -> str | None:
    """The path of a working ``bwrap``, or None (not installed, too old, or namespaces refused here)."""
    if os.environ.get(SANDBOX_ENV, "").lower() == "none":
        return None
    path = shutil.which("bwrap")
    if path is None:
        return None
    probe = [path, *_BASE_OPTIONS, "--tmpfs", "/dev/shm", "--remount-ro", "/dev", *_NAMESPACE_OPTIONS, "--clearenv",
             "--", "true"]
    return path if _probe(probe) else None


@lru_cache(maxsize=1)
def sized_tmpfs() -> bool:
    """Whether this host's bwrap can cap a memory file system's size (``--size``: bubblewrap 0.7 or later,
    and not installed setuid, where it refuses the option). Without it a confined bot's scratch folder is a
    folder on disk and its /dev/shm is not capped (``size_caps_missing``)."""
    path = bubblewrap()
    return path is not None and _probe([path, "--ro-bind", "/", "/", "--size", str(1 << 20), "--tmpfs", "/tmp",
                                        "--", "true"])


def size_caps_missing() -> str | None:
    """What an isolated bot loses where bwrap works but cannot size a memory file system, or None."""
    if bubblewrap() is None or sized_tmpfs():
        return None
    return ("this bwrap cannot size a memory file system (--size needs bubblewrap 0.7 or later, not setuid): "
            "an isolated bot's /dev/shm and a confined bot's scratch folder have no size cap")


def degraded_reason() -> str | None:
    """Why isolated bots run without the full sandbox here, or None."""
    if os.environ.get(SANDBOX_ENV, "").lower() == "none":
        return f"{SANDBOX_ENV}=none"
    if shutil.which("bwrap") is None:
        return "bubblewrap (bwrap) is not installed; on Debian: apt install bubblewrap"
    if bubblewrap() is None:
        return "bwrap is installed but cannot run the sandbox here (older than 0.5, or namespaces refused)"
    return None


_warned = False


def warn_if_degraded() -> None:
    """One warning per process when isolated bots run without bubblewrap, or without its size caps."""
    global _warned
    if _warned:
        return
    reason = degraded_reason()
    if reason is not None:
        message = (f"isolated bots run without a file-system, PID and network sandbox ({reason}): they can read "
                   "the run's files, see other processes and use the network; see docs/robustness.md")
    else:
        missing = size_caps_missing()
        if missing is None:
            return
        message = f"isolated bots run in bubblewrap, but {missing}; see docs/robustness.md"
    _warned = True
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def set_dumpable(dumpable: bool) -> bool:
    """With False, forbid ``/proc/PID/mem``, ``/proc/PID/fd`` and ``ptrace`` of this process to other
    processes of the same user (Linux; a process with CAP_SYS_PTRACE, such as root's, is not stopped); with
    True, allow them again. True if set.

    A non-dumpable process's ``/proc/self`` files belong to root, so a child forked from the runner
    cannot write its own ``oom_score_adj`` until it is made dumpable again (``confine``)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_DUMPABLE, int(dumpable), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def new_scratch(label: str) -> Path:
    """A fresh, private scratch folder for one bot process, named by the runner process that owns it
    (``LABEL-PID-RANDOM``), so that the folders of a runner killed outright are found and removed."""
    private_folder(SCRATCH_ROOT)
    prune_stale_scratch()
    return Path(tempfile.mkdtemp(prefix=f"{safe_name(label) or 'bot'}-{os.getpid()}-", dir=SCRATCH_ROOT))


def private_folder(path: Path) -> Path:
    """``path``, made if missing, checked to be a folder of this user's that no other user may enter.
    A fixed name in a shared temporary folder can be taken first by another user, who would then read
    (or swap) what is written there: such a folder is refused by name, not used."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.lstat()
    if not stat.S_ISDIR(info.st_mode) or (hasattr(os, "getuid") and info.st_uid != os.getuid()):
        raise PermissionError(f"{path} is not a folder of this user's: another user (or a link) holds the name; "
                              "remove it, or set TMPDIR (or --log-dir) elsewhere")
    if info.st_mode & 0o077:
        path.chmod(0o700)
    return path


def safe_name(label: str, limit: int = 40) -> str:
    """``label`` as a file or cgroup name: letters, digits, ``-_.`` kept, anything else ``_``, at most ``limit``."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:limit]


@lru_cache(maxsize=1)
def prune_stale_scratch() -> int:
    """Remove (once per process) the scratch folders whose owning runner process is gone (killed
    before it could clean up: each holds a copy of the compiled-kernel cache, tens of MB). Returns
    how many were removed."""
    removed = 0
    for folder in SCRATCH_ROOT.iterdir() if SCRATCH_ROOT.is_dir() else ():
        parts = folder.name.rsplit("-", 2)
        if len(parts) != 3 or not parts[1].isdigit() or pid_alive(int(parts[1])):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed


def pid_alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def bot_environment(scratch: Path, pythonpath: Sequence[str] = ()) -> dict[str, str]:
    """The whole environment an isolated bot gets: nothing of the runner's but what Python needs."""
    env = {"PATH": os.pathsep.join(p for p in (str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin")),
           "HOME": str(scratch), "TMPDIR": str(scratch), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
           "PYTHONUNBUFFERED": "1", "PYTHONNOUSERSITE": "1"}
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    for name in ("OMP_NUM_THREADS", "GINBOTS_WEIGHTS"):  # settings a bot may legitimately need
        if name in os.environ:
            env[name] = os.environ[name]
    cache = copy_kernel_cache(scratch)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    return env


def copy_kernel_cache(scratch: Path) -> str | None:
    """A copy of this package's compiled-kernel cache in the bot's scratch folder (for ``NUMBA_CACHE_DIR``).

    numba keeps its cache beside the sources only where that folder is writable; in the sandbox it is
    not, so without the copy every isolated bot compiled every kernel again when it started (about 13 s
    for the champion). A copy, never a link: a bot must not be able to write a file the runner loads.
    The layout is numba's for a user-given cache folder: one folder a source folder, named by its name
    and the SHA-1 of its path. None where numba is not installed."""
    if importlib.util.find_spec("numba") is None:
        return None
    package = Path(os.path.abspath(__file__)).parent.parent  # absolute, not resolved: as numba names the sources
    target = scratch / "numba-cache"
    for cache in package.rglob("__pycache__"):
        files = [f for f in cache.iterdir() if f.suffix in (".nbi", ".nbc")]
        if not files:
            continue
        source_dir = str(cache.parent)
        folder = target / f"{cache.parent.name}_{hashlib.sha1(source_dir.encode()).hexdigest()}"
        folder.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copyfile(f, folder / f.name)
    return str(target)


def wrap(command: Sequence[str], scratch: Path, hide: Sequence[str | os.PathLike[str]] = (),
         env: dict[str, str] | None = None, chdir: str | os.PathLike[str] | None = None,
         scratch_mb: int | None = None) -> list[str]:
    """``command`` inside bubblewrap (when it works here): read-only root, the ``hide`` folders and
    every other bot's scratch empty, ``scratch`` writable, new namespaces, no capabilities, ``env``
    only; it starts in ``chdir`` (default: ``scratch``). ``scratch_mb``: the scratch folder is instead a
    memory file system of at most this size where bwrap can size one (``sized_tmpfs``), so that the bot
    cannot fill the runner's disk (the kernel cache the runner copied there is bound read-only beside it,
    and the bridge copies it in at start: ``seed_kernel_cache``). Without bubblewrap, ``command``
    unchanged (the caller still scrubs the environment)."""
    bwrap = bubblewrap()
    if bwrap is None:
        return list(command)
    sized = sized_tmpfs()
    # /dev and /dev/shm are memory file systems whose pages belong to no process, so the out-of-memory
    # killer could not free them by killing the bot: /dev read-only, /dev/shm capped at SHM_MB.
    args = [bwrap, *_BASE_OPTIONS, *(("--size", str(SHM_MB << 20)) if sized else ()), "--tmpfs", "/dev/shm",
            "--remount-ro", "/dev", *_NAMESPACE_OPTIONS]
    needed = [Path(p).resolve() for p in (env or {}).get("PYTHONPATH", "").split(os.pathsep) if p]
    needed += [Path(sys.prefix).resolve(), Path(sys.executable).resolve().parent]
    masked = {Path(h).resolve() for h in hide} | {SCRATCH_ROOT.resolve()}
    empty = []
    for folder in sorted(masked, key=lambda p: len(p.parts)):
        # A folder that holds the bot's own code or the interpreter stays visible (a run whose results
        # go into the bot's source tree, say); every other listed folder is an empty, read-only tmpfs.
        if folder.is_dir() and folder != Path("/") and not any(n == folder or folder in n.parents for n in needed):
            args += ["--tmpfs", str(folder)]
            empty.append(str(folder))
    cache, env = scratch / "numba-cache", dict(env or {})
    if scratch_mb is None or not sized:  # a folder on disk (size_caps_missing says so once)
        args += ["--bind", str(scratch), str(scratch)]
    else:
        args += ["--size", str(scratch_mb << 20), "--tmpfs", str(scratch)]
        if cache.is_dir():
            args += ["--ro-bind", str(cache), str(scratch / KERNEL_SEED_NAME)]
            env[KERNEL_SEED_ENV] = str(scratch / KERNEL_SEED_NAME)
    for folder in empty:
        args += ["--remount-ro", folder]
    args += ["--chdir", str(chdir or scratch), "--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return args + ["--", *command]


def seed_kernel_cache() -> None:
    """In the bridge, before the bot is imported: copy the kernel cache the runner bound read-only into
    a size-capped scratch folder (``wrap``'s ``scratch_mb``) to where ``NUMBA_CACHE_DIR`` points."""
    source, target = os.environ.get(KERNEL_SEED_ENV), os.environ.get("NUMBA_CACHE_DIR")
    if source and target and os.path.isdir(source) and not os.path.exists(target):
        try:
            shutil.copytree(source, target)
        except OSError:
            pass  # the bot then compiles its kernels itself: slower, not wrong


def remove_scratch(scratch: Path | None) -> None:
    if scratch is not None and scratch.parent == SCRATCH_ROOT:
        shutil.rmtree(scratch, ignore_errors=True)
