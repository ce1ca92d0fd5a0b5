"""Supervised worker processes: no bot can hang, crash or stop a run.

Matches, tournaments and data generation hand their work to ``supervise``:
each worker is a child process in its own process group (so killing it also
kills any bot process it started), takes a task (a list of items), and sends
back each item's result as soon as it is done. The parent watches every
worker: one that dies (``os._exit``, a signal, the memory killer) costs only
the item it was on, which is reported with the seat and callback that were
acting; one whose player sits in a single callback past ``call_limit`` is
killed the same way; a fresh worker takes the rest. Ctrl-C stops the run and
keeps every finished item. Workers ignore SIGINT and end with ``os._exit``,
so neither a bot's signal handling nor its leftover threads can hold them.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Sequence

from ginbots.connect.host import close_all
from ginbots.game.engine import ACTIONS
from ginbots.game.rules import describe_exception

#: A worker that dies this many times in a row without finishing an item stops the run.
MAX_DEATHS_WITHOUT_PROGRESS = 5
#: Seconds a worker told to stop gets to close its bots' processes (their scratch folders and cgroups)
#: before it is killed.
STOP_GRACE_S = 5.0

_monitor: Any = None


def current_monitor() -> Any:
    """This worker's shared slot [acting seat, call start (perf_counter), action index], or None."""
    return _monitor


class SupervisorError(RuntimeError):
    """The run cannot go on: a worker cannot even be set up (its reason is the message)."""


@dataclass(frozen=True)
class Lost:
    """An item whose worker died or was killed: who was acting in which callback, and why."""

    item: Any
    seat: int
    action: str
    cause: str  # "died" or "call-limit"
    detail: str


def _exit_with_parent(parent: int) -> None:
    """End this worker once its parent is gone (SIGKILL, the memory killer): a forked worker holds
    inherited copies of the pipes' parent ends, so waiting on its pipe would never see the end."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(conn: Connection, slot: Any, setup: Callable[..., None], setup_args: tuple[Any, ...],
                 run: Callable[[Any], Any], parent: int) -> None:
    global _monitor
    threading.Thread(target=_exit_with_parent, args=(parent,), name="exit-with-parent", daemon=True).start()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.setpgrp()
    except OSError:
        pass
    _monitor = slot
    try:
        try:
            setup(*setup_args)
        except BaseException as exc:  # noqa: BLE001 - reported, the run stops with it
            conn.send(("setup-error", describe_exception(exc)))
            return
        conn.send(("ready", None))
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            for k, item in enumerate(task):
                slot[0] = -1.0
                try:
                    result = run(item)
                except BaseException as exc:  # noqa: BLE001 - the runner's own failure, reported per item
                    conn.send(("item-error", k, f"{describe_exception(exc)}\n{traceback.format_exc()}"))
                    continue
                conn.send(("result", k, result))
            conn.send(("done", None))
    finally:
        try:
            close_all()  # the bots' processes, scratch folders and cgroups: os._exit runs no finalizer
            conn.close()
        finally:
            os._exit(0)


class _Slot:
    def __init__(self, ctx: Any, index: int, monitor: Any, setup: Callable[..., None], setup_args: tuple[Any, ...],
                 run: Callable[[Any], Any]) -> None:
        self.index = index
        self.monitor = monitor
        self.parent, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, monitor, setup, setup_args, run, os.getpid()),
                                daemon=True)
        monitor[0] = -1.0
        self.proc.start()
        child.close()
        self.ready = False
        self.task: list[Any] | None = None
        self.next = 0
        self.killed_for: str | None = None

    def handle(self, message: tuple[Any, ...], on_result: Callable[[Any, Any], None],
               on_error: Callable[[Any, str], None] | None) -> bool:
        """Act on one message of the worker; True when it reported a finished item."""
        kind, *payload = message
        if kind == "ready":
            self.ready = True
        elif kind == "setup-error":
            raise SupervisorError(str(payload[0]))
        elif kind in ("result", "item-error"):
            item = self.task[payload[0]]  # type: ignore[index]
            self.next = payload[0] + 1
            if kind == "result":
                on_result(item, payload[1])
                return True
            if on_error is not None:
                on_error(item, payload[1])
        elif kind == "done":
            self.task = None
        return False

    def kill(self, why: str | None = None) -> None:
        if why and self.killed_for is None:
            self.killed_for = why
        if self.proc.pid is not None:
            for target in (lambda: os.killpg(self.proc.pid, signal.SIGKILL), self.proc.kill):
                try:
                    target()
                except (OSError, ProcessLookupError, AttributeError):
                    pass

    def stop(self) -> None:
        try:
            self.parent.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join(STOP_GRACE_S)
        self.kill()
        self.proc.join(1.0)
        self.parent.close()


def _exit_text(code: int | None) -> str:
    if code is None:
        return "unknown"
    if code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def _drain(slots: list[_Slot], on_result: Callable[[Any, Any], None]) -> None:
    """Keep the results already sent when Ctrl-C stopped the run (they are finished work)."""
    for slot in slots:
        try:
            while slot.task is not None and slot.parent.poll():
                slot.handle(slot.parent.recv(), on_result, None)
        except (EOFError, OSError, KeyboardInterrupt, SupervisorError):
            continue


def supervise(tasks: Sequence[list[Any]], workers: int, setup: Callable[..., None], setup_args: tuple[Any, ...],
              run: Callable[[Any], Any], on_result: Callable[[Any, Any], None], *,
              on_lost: Callable[[Lost], None] | None = None, on_error: Callable[[Any, str], None] | None = None,
              call_limit: float | None = None, start_method: str | None = None) -> bool:
    """Run ``run(item)`` for every item of every task in ``workers`` supervised processes.

    ``on_result(item, result)`` gets each finished item, ``on_lost`` each item whose worker died or
    was killed, ``on_error(item, text)`` each item whose ``run`` raised. Returns True when Ctrl-C
    stopped the run; raises ``SupervisorError`` when workers cannot be set up. ``start_method``: the
    multiprocessing start method of the workers (default: fork where there is one). Runs over many
    machines go through ``ginbots.arena.cluster.distribute``.
    """
    if start_method is None:
        start_method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(start_method)
    monitors = [ctx.RawArray("d", 3) for _ in range(max(1, workers))]
    pending: deque[list[Any]] = deque(list(t) for t in tasks if t)
    slots: list[_Slot] = []
    deaths = 0

    def spawn(i: int) -> _Slot:
        return _Slot(ctx, i, monitors[i], setup, setup_args, run)

    def lose(slot: _Slot) -> None:
        nonlocal deaths
        task = slot.task
        code = slot.proc.exitcode
        if task is not None and slot.next < len(task):
            seat = int(slot.monitor[0])
            action = ACTIONS[int(slot.monitor[2])] if seat >= 0 else ""
            if slot.killed_for is not None:
                lost = Lost(task[slot.next], seat, action, "call-limit", slot.killed_for)
            else:
                lost = Lost(task[slot.next], seat, action, "died", f"its worker process {_exit_text(code)}")
            if on_lost is not None:
                on_lost(lost)
            rest = task[slot.next + 1:]
            if rest:
                pending.appendleft(rest)
        deaths += 1
        if deaths > MAX_DEATHS_WITHOUT_PROGRESS:
            raise SupervisorError(f"worker processes died {deaths} times in a row without finishing anything "
                                  f"(last: {_exit_text(code)})")

    # The user's Ctrl-C only raises a flag, checked between messages: an interrupt can never land inside
    # a message being read from a worker and lose the results behind it.
    stop = [False]
    old_sigint = None
    if threading.current_thread() is threading.main_thread():
        old_sigint = signal.signal(signal.SIGINT, lambda signum, frame: stop.__setitem__(0, True))
    try:
        slots = [spawn(i) for i in range(max(1, workers))]
        while (pending or any(s.task is not None for s in slots)) and not stop[0]:
            for slot in slots:
                if slot.ready and slot.task is None and pending:
                    slot.task, slot.next = pending.popleft(), 0
                    slot.parent.send(slot.task)
            ready = wait([s.parent for s in slots] + [s.proc.sentinel for s in slots], timeout=0.2)
            for slot in list(slots):
                dead = False
                if slot.parent in ready:
                    try:
                        while slot.parent.poll():
                            if slot.handle(slot.parent.recv(), on_result, on_error):
                                deaths = 0
                    except (EOFError, OSError):
                        dead = True
                if dead or (slot.proc.sentinel in ready and not slot.proc.is_alive()):
                    slot.proc.join(1.0)
                    lose(slot)
                    slot.parent.close()
                    slots[slots.index(slot)] = spawn(slot.index)
                    continue
                if call_limit is not None and slot.task is not None and slot.monitor[0] >= 0 \
                        and time.perf_counter() - slot.monitor[1] > call_limit:
                    slot.kill(f"one {ACTIONS[int(slot.monitor[2])]} call ran past {call_limit:g} s; its worker "
                              f"process was killed")
        if stop[0]:
            _drain(slots, on_result)
            return True
        return False
    except KeyboardInterrupt:  # not the main thread: the interrupt arrives as an exception
        _drain(slots, on_result)
        return True
    finally:
        if old_sigint is not None:
            signal.signal(signal.SIGINT, old_sigint)
        for slot in slots:
            slot.stop()
