"""Bots that misbehave on purpose, for the supervisor, isolation and bridge tests.

Each plays like ``Passive`` until its one misdeed. They are importable by
``python -m ginbots.connect.bridge --import hostile:NAME`` with ``tests`` on the path.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from typing import Any

from helpers import Passive

from ginbots.players.baselines import SimplePlayer


class ExitsHard(Passive):
    """os._exit(3) at its first discard: kills whatever process it runs in."""

    name = "exits-hard"

    def discard(self) -> int:
        os._exit(3)


class SysExits(Passive):
    """sys.exit(3) at its first discard."""

    name = "sys-exits"

    def discard(self) -> int:
        sys.exit(3)


class RaisesInterrupt(Passive):
    name = "raises-interrupt"

    def discard(self) -> int:
        raise KeyboardInterrupt


class Unstoppable(Passive):
    """Sleeps through every interruption at its first discard (catches BaseException)."""

    name = "unstoppable"

    def discard(self) -> int:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                time.sleep(0.01)
            except BaseException:  # noqa: BLE001
                pass
        return self.drawn


class Chatty(Passive):
    """Writes 200 KB to stderr at every decision (more than a pipe holds)."""

    name = "chatty"

    def will_draw_face_up(self, card: int) -> bool:
        sys.stderr.write("x" * 200_000 + "\n")
        return super().will_draw_face_up(card)


class WritesFd1(Passive):
    """Writes garbage straight to file descriptor 1 at every decision."""

    name = "writes-fd1"

    def will_draw_face_up(self, card: int) -> bool:
        os.write(1, b"garbage that is not protocol\n")
        print("and a print")
        return super().will_draw_face_up(card)


class LeavesThread(Passive):
    """Starts a non-daemon thread that never ends."""

    name = "leaves-thread"

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        threading.Thread(target=lambda: time.sleep(3600), daemon=False).start()


class Hog(Passive):
    """Allocates without bound at its first discard."""

    name = "hog"

    def discard(self) -> int:
        blocks = []
        while True:
            blocks.append(bytearray(50 * (1 << 20)))


class Spy(Passive):
    """Looks for the opponent's hand in its own process and plays as if it had won.

    ``found`` records what it could see: the opponent player object (through gc) and, through it,
    its hand. Over the bridge there is nothing to find.
    """

    name = "spy"

    def will_draw_face_up(self, card: int) -> bool:
        self.found: dict[str, Any] = {}
        for obj in gc.get_objects():
            if getattr(type(obj), "__module__", "").startswith("ginbots.players") and obj is not self \
                    and hasattr(obj, "hand"):
                self.found["opponent_hand"] = obj.hand
        if "opponent_hand" in self.found:
            os.environ["GINBOTS_SPY_SAW"] = str(self.found["opponent_hand"])
        sys.stderr.write(f"spy found: {sorted(self.found)}\n")
        return super().will_draw_face_up(card)


class Announcer(SimplePlayer):
    """Simple that announces each new game and the time it is told it has left, on stderr."""

    name = "announcer"

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        sys.stderr.write("ANNOUNCE new_game\n")
        self._first = True

    def will_draw_face_up(self, card: int) -> bool:
        if getattr(self, "_first", False):
            sys.stderr.write(f"ANNOUNCE time_left={getattr(self, 'time_left', None)}\n")
            self._first = False
        return super().will_draw_face_up(card)


def _name_process(name: bytes) -> None:
    """Set this process's name (``/proc/PID/comm``), so that a test can find it from outside the sandbox."""
    import ctypes

    ctypes.CDLL(None).prctl(15, name, 0, 0, 0)  # PR_SET_NAME


class CpuThief(Passive):
    """At its first decision starts ``processes`` busy processes, each in a session of its own and named
    ``gbthief``, to take CPU from its opponent's thinking time (the engine's clock is wall time)."""

    name = "cpu-thief"
    processes = 4

    def wants_face_up(self, card: int) -> bool:
        if not getattr(self, "started", False):
            self.started = True
            for _ in range(self.processes):
                if os.fork() == 0:
                    os.setsid()
                    _name_process(b"gbthief")
                    end = time.monotonic() + 60
                    while time.monotonic() < end:
                        pass
                    os._exit(0)
        return super().wants_face_up(card)


class ForkBomb(Passive):
    """At its first decision forks up to 2,000 sleeping children (named ``gbbomb``); writes how many it
    made to stderr as ``BOMB made N``, and plays on."""

    name = "fork-bomb"

    def wants_face_up(self, card: int) -> bool:
        if not getattr(self, "started", False):
            self.started = True
            made = 0
            for _ in range(2000):
                try:
                    pid = os.fork()
                except OSError:
                    break
                if pid == 0:
                    _name_process(b"gbbomb")
                    time.sleep(60)
                    os._exit(0)
                made += 1
            print(f"BOMB made {made}", file=sys.stderr, flush=True)
        return super().wants_face_up(card)


def _fill(folder: str, limit_mb: int = 1024) -> int:
    """MB written in 1 MB blocks to a file in ``folder`` until refused or ``limit_mb``."""
    written = 0
    try:
        with open(os.path.join(folder, "fill.bin"), "wb") as fh:
            while written < limit_mb:
                fh.write(b"x" * (1 << 20))
                fh.flush()
                written += 1
    except OSError:
        pass
    return written


class DiskFiller(Passive):
    """At its first decision writes 1 MB blocks into its scratch folder (``TMPDIR``), /dev/shm and /dev until
    refused or 1 GB each; writes ``FILL wrote N MB, K cached kernels, SHM MB, DEV MB`` to stderr (K: files
    where ``NUMBA_CACHE_DIR`` points)."""

    name = "disk-filler"

    def wants_face_up(self, card: int) -> bool:
        if not getattr(self, "started", False):
            self.started = True
            written = _fill(os.environ["TMPDIR"])
            cache = os.environ.get("NUMBA_CACHE_DIR", "")
            kernels = sum(len(files) for _, _, files in os.walk(cache)) if cache else 0
            shm, dev = _fill("/dev/shm"), _fill("/dev")
            print(f"FILL wrote {written} MB, {kernels} cached kernels, {shm} MB, {dev} MB", file=sys.stderr,
                  flush=True)
        return super().wants_face_up(card)
