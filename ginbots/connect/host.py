"""The host side of the bridge: a player that lives in another process.

``ProcessPlayer`` plays any process that speaks ``submission/PROTOCOL.md`` on
the embedded engine: packaged submissions, foreign bots, and every bot of an
``--isolate`` match, which then shares nothing with the engine but two pipes.
The child gets only its pipes (no other descriptors), an address-space cap,
its stderr in a log file (so a chatty bot can never fill a pipe and stall the
game), request ids on every question (a late reply is dropped, never taken as
the next answer), and SIGKILL when a decision is interrupted: a bot cannot
catch it, and the next game starts a fresh process.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path
from typing import IO, Any, Sequence

from ginbots.game.cards import cards_of
from ginbots.players.base import Player
from ginbots.players.registry import PlayerSpec, available_players, is_trusted, parse_spec

from . import sandbox as sandbox_tools
from .confine import SCRATCH_MB, Confinement

from .bridge import (
    EXIT_BOT_ERROR,
    EXIT_INVALID,
    EXIT_MALFORMED,
    EXIT_ORDER,
    EXIT_UNKNOWN,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
)

PROTOCOL_EXITS = {EXIT_MALFORMED, EXIT_UNKNOWN, EXIT_INVALID, EXIT_ORDER, EXIT_BOT_ERROR}
#: Default address-space cap of an isolated bot (RLIMIT_AS).
DEFAULT_MEMORY_MB = 2048


#: Every bot process this process has started and not yet closed (``close_all``).
_OPEN: weakref.WeakSet[ProcessPlayer] = weakref.WeakSet()


def close_all() -> None:
    """Close every bridge process this process still holds: its sandbox's scratch folder and cgroup go
    with it. Runner workers call this before they exit (they end with ``os._exit``, which runs no
    finalizer)."""
    for player in list(_OPEN):
        try:
            player.kill()  # no goodbye: quick, on the way out
            player.close()
        except Exception:  # noqa: BLE001 - cleaning up on the way out: one failure must not stop the rest
            pass


class BridgeFailure(RuntimeError):
    """The bridge process failed: gone, silent past a deadline, or reported a protocol error."""


class BridgeStartError(BridgeFailure):
    """The bridge process could not be started or did not greet: a broken set-up, not the bot's play."""


def _limits(memory_mb: int | None, confinement: Confinement | None = None) -> Any:
    """The child's set-up between fork and exec: its address-space cap, and its task cap (``confine``)."""
    if (memory_mb is None and confinement is None) or not hasattr(os, "fork"):
        return None

    def apply() -> None:
        import resource

        if memory_mb is not None:
            limit = memory_mb * (1 << 20)
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        if confinement is not None:
            confinement.enter()

    return apply


def bridge_command(target: str, params: dict[str, Any] | None = None) -> list[str]:
    """The command that serves the Player class ``module:Class`` over the bridge with this interpreter."""
    command = [sys.executable, "-m", "ginbots.connect.bridge", "--import", target]
    if params:
        command += ["--params-json", json.dumps(params)]
    return command


class ProcessPlayer(Player):
    """A player in a child process, spoken to over the bridge protocol.

    A failure of the child (exit, crash, protocol error, silence past ``start_timeout`` at start-up)
    raises ``BridgeFailure`` naming the exit status and the tail of its stderr; the engine records
    that as the bot's forfeit. Any interruption of a decision (the engine's time budget) kills the
    child; ``new_game`` starts a fresh one when the last has died.
    """

    name = "process"

    def __init__(self, command: Sequence[str], *, seed: int | None = None, label: str = "",
                 cwd: str | None = None, isolated: bool = False, log: str | os.PathLike[str] | None = None,
                 memory_mb: int | None = None, env: dict[str, str] | None = None,
                 start_timeout: float = 120.0, sandbox: bool = False,
                 hide: Sequence[str | os.PathLike[str]] = (), pythonpath: Sequence[str] = (),
                 decision_timeout: float | None = None, confine: bool = False) -> None:
        """``isolated`` drops PYTHONPATH and user site-packages from the child's environment (as
        package verification needs); ``log`` receives the child's stderr (default: a temporary file).
        ``sandbox`` runs the child in ``ginbots.connect.sandbox`` (bubblewrap where it works: the
        ``hide`` folders empty to it, a scratch folder of its own, only ``pythonpath`` and a few
        variables in its environment). ``decision_timeout``: seconds a decision may take before the
        child is killed and the decision fails, for hosts with no clock of their own (``ginbots play``,
        the environments); the engine's time budget needs none. ``confine`` (with ``sandbox``; for bots
        not from this package) caps the child's tasks and stops its processes between its turns
        (``ginbots.connect.confine``), so that it cannot take CPU from the opponent's thinking time."""
        super().__init__(seed=seed)
        self.decision_timeout = decision_timeout
        self.command = list(command)
        self.label = label or " ".join(self.command[-1:])
        self.name = self.label
        self.cwd = cwd
        self.memory_mb = memory_mb
        self.start_timeout = start_timeout
        self.sandbox = sandbox
        self.hide = tuple(hide)
        self.scratch: Path | None = None
        # A sandboxed bot's processes: capped in number, stopped between its turns (``confine``).
        self.confinement = Confinement(self.label) if sandbox and confine else None
        base = dict(os.environ if env is None else env)
        if isolated:
            base.pop("PYTHONPATH", None)
            base["PYTHONNOUSERSITE"] = "1"
        if sandbox:
            sandbox_tools.warn_if_degraded()
            sandbox_tools.set_dumpable(False)  # the process holding the opponent and the deal
            self.scratch = sandbox_tools.new_scratch(self.label)
            base = sandbox_tools.bot_environment(self.scratch, pythonpath)
        self.env = base
        self.log_path = Path(log) if log is not None else None
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._buffer = b""
        self._next_id = 0
        self._error: dict[str, Any] | None = None
        self.remote: dict[str, Any] = {}
        _OPEN.add(self)
        self._start()

    # --- process ---------------------------------------------------------
    def _start(self) -> None:
        if self._log is not None:
            self._log.close()
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log = open(self.log_path, "ab")
        else:
            self._log = tempfile.TemporaryFile()
        self._buffer = b""
        self._error = None
        command, cwd = self.command, self.cwd
        if self.scratch is not None:
            command = sandbox_tools.wrap(self.command, self.scratch, self.hide, self.env, chdir=self.cwd,
                                         scratch_mb=SCRATCH_MB if self.confinement is not None else None)
            cwd = self.cwd or str(self.scratch)
        try:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._log, cwd=cwd, env=self.env, close_fds=True,
                                         start_new_session=self.sandbox,
                                         preexec_fn=_limits(self.memory_mb, self.confinement))  # noqa: PLW1509
            if self.confinement is not None:
                self.confinement.started(self.proc.pid)
            self.remote = self._ask({"type": "hello", "protocol": PROTOCOL_VERSION}, timeout=self.start_timeout)
        except (BridgeFailure, OSError) as exc:
            raise BridgeStartError(f"could not start {self.label}: {exc}") from None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL the child (a bot cannot catch it), and in a sandbox its whole session, and reap it."""
        if self.proc is None:
            return
        if self.sandbox:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)  # what it started in its session goes with it
            except (ProcessLookupError, PermissionError, OSError):
                pass
        if self.confinement is not None:
            self.confinement.kill_all()  # and, where a cgroup names them, what left the session
        if self.proc.poll() is None:
            self.proc.kill()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass

    def close(self) -> None:
        if self.confinement is not None:
            self.confinement.thaw()  # to read its goodbye
        if self.alive:
            try:
                self._send({"type": "bye"})
                self.proc.wait(timeout=5)  # type: ignore[union-attr]
            except (BridgeFailure, subprocess.TimeoutExpired):
                self.kill()
        for stream in (self.proc.stdin, self.proc.stdout) if self.proc else ():
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        if self.sandbox:
            self.kill()  # the session's leftovers (in bubblewrap the namespace ended with the bot)
        if self.confinement is not None:
            self.confinement.close()
        _OPEN.discard(self)
        if self._log is not None:
            self._log.close()
            self._log = None
        sandbox_tools.remove_scratch(self.scratch)

    def stderr_tail(self, chars: int = 400) -> str:
        """The last lines the child wrote to stderr."""
        if self._log is None:
            return ""
        try:
            self._log.flush()
            size = os.fstat(self._log.fileno()).st_size
            with open(self._log.fileno(), "rb", closefd=False) as fh:
                fh.seek(max(0, size - chars))
                return fh.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    def _gone(self, what: str) -> BridgeFailure:
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
                code = self.proc.returncode
        if self._error is not None:
            status = f"stopped on protocol error {self._error.get('code')}: {self._error.get('message')}"
        elif code is None:
            status = "is not answering"
        elif code < 0:
            status = f"was killed by signal {-code}"
        elif code in PROTOCOL_EXITS:
            status = f"exited with status {code} without a protocol error report (the bot's own exit)"
        else:
            status = f"exited with status {code}"
        tail = self.stderr_tail()
        return BridgeFailure(f"bridge process {self.label} {status} ({what})" + (f"; stderr: {tail}" if tail else ""))

    # --- protocol --------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise BridgeFailure(f"bridge process {self.label} is not running")
        try:
            self.proc.stdin.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            raise self._gone(f"while sending {msg.get('type')}") from None

    def _read_line(self, deadline: float | None) -> bytes | None:
        """One line from the child, or None at end of output; BridgeFailure past ``deadline``."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > MAX_LINE_BYTES:
                raise BridgeFailure(f"bridge process {self.label} wrote a line longer than {MAX_LINE_BYTES} bytes")
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    self.kill()
                    raise self._gone("no answer in time")
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _ask(self, msg: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        self._next_id += 1
        ask_id = self._next_id
        deadline = time.monotonic() + timeout if timeout is not None else None
        try:
            if self.confinement is not None:
                self.confinement.thaw()  # its turn: it runs until it answers
            self._send({**msg, "id": ask_id})
            while True:
                line = self._read_line(deadline)
                if line is None:
                    raise self._gone(f"while waiting for the answer to {msg['type']}")
                try:
                    reply = json.loads(line)
                except ValueError:
                    self.kill()
                    raise BridgeFailure(f"bridge process {self.label} wrote a line that is not JSON: "
                                        f"{line[:80]!r}") from None
                if isinstance(reply, dict) and reply.get("type") == "error":
                    self._error = reply
                    raise self._gone(f"asked {msg['type']}")
                if isinstance(reply, dict) and reply.get("id") == ask_id:
                    if self.confinement is not None:
                        self.confinement.freeze()  # not its turn: nothing of it runs on the opponent's time
                    return reply
                # a late reply to a question given up on: drop it
        except BaseException:
            # Interrupted (time budget, Ctrl-C) or failed: the child may still be thinking; never let it
            # answer the next question.
            self.kill()
            raise

    def ensure_running(self) -> None:
        """Start a fresh process if the last one died; runners call this between games, outside any
        timed callback, so a restart never eats into the bot's thinking time."""
        if not self.alive:
            self._start()

    # --- the player interface ---------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        self.ensure_running()
        self._send({"type": "new_game", "seed": seed})

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self._send({"type": "start_hand", "seat": seat, "starter": starter, "hand": cards_of(hand)})

    def will_draw_face_up(self, card: int) -> Any:
        return self._ask({"type": "will_draw_face_up", "card": card}, self.decision_timeout)["take"]

    def report_draw(self, seat: int, card: int | None) -> None:
        self._send({"type": "report_draw", "seat": seat, "card": card})

    def discard(self) -> Any:
        return self._ask({"type": "get_discard"}, self.decision_timeout)["card"]

    def report_discard(self, seat: int, card: int) -> None:
        self._send({"type": "report_discard", "seat": seat, "card": card})

    def knock(self) -> Any:
        melds = self._ask({"type": "get_melds", "opponent_knocked": False}, self.decision_timeout)["melds"]
        return None if melds is None else [_meld(m) for m in melds]

    def declare_melds(self) -> Any:
        melds = self._ask({"type": "get_melds", "opponent_knocked": True}, self.decision_timeout)["melds"]
        return None if melds is None else [_meld(m) for m in melds]

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        self._send({"type": "report_melds", "seat": seat, "melds": [cards_of(m) for m in melds]})

    def report_layoff(self, seat: int, card: int, meld_before: int) -> None:
        self._send({"type": "report_layoff", "seat": seat, "card": card, "meld": cards_of(meld_before)})

    def report_final_hand(self, seat: int, hand: int) -> None:
        self._send({"type": "report_final_hand", "seat": seat, "hand": cards_of(hand)})

    def report_scores(self, scores: tuple[int, int]) -> None:
        self._send({"type": "report_scores", "scores": list(scores)})


def _meld(value: Any) -> Any:
    """A meld from the wire as a card list (the engine validates it like any answer)."""
    return list(value) if type(value) is list else value


__all__ = ["BridgeFailure", "BridgeStartError", "ProcessPlayer", "bridge_command", "close_all", "DEFAULT_MEMORY_MB"]


def make_player(spec: PlayerSpec, seed: int | None = None, decision_timeout: float | None = None,
                confine: bool | None = None) -> Player:
    """The player a spec describes: in this process, or (``spec.isolate``) in its own sandboxed process
    behind the bridge (``ginbots.connect.sandbox``), with an address-space cap of ``spec.memory_mb``,
    its stderr in a log under ``spec.log_dir`` and the folders of ``spec.hidden`` out of its sight.
    ``confine``: cap its tasks and stop it between its turns (``ginbots.connect.confine``); by default
    for every bot not from this package."""
    if not spec.isolate:
        player = spec.make(seed=seed)
        player.label = spec.display  # traces and forfeits name it as the user did (keats:tuned)
        player.prepare()  # its weights and runtime now, named if broken, not at its first decision
        return player
    log = None
    if spec.log_dir is not None:
        log = Path(spec.log_dir) / f"{sandbox_tools.safe_name(spec.display, 60)}-{os.getpid()}.log"
    hide = [*spec.hidden, *([spec.log_dir] if spec.log_dir else [])]
    # The child imports the bot the way this process does: same interpreter, same import path.
    return ProcessPlayer(bridge_command(available_players()[spec.name], spec.params), seed=seed,
                         label=spec.display, log=log, memory_mb=spec.memory_mb, sandbox=True, hide=hide,
                         pythonpath=[p for p in sys.path if p], decision_timeout=decision_timeout,
                         confine=not is_trusted(spec.name) if confine is None else confine)


#: Seconds a bot's process gets to describe itself (it may load its models first).
DESCRIBE_TIMEOUT = 120.0
#: The most a describing process may write to any file, its output included (its declaration is one line).
DESCRIBE_FILE_MB = 64


def _tail(fh: IO[bytes], size: int) -> str:
    """The last ``size`` bytes written to ``fh``, as text."""
    end = fh.seek(0, os.SEEK_END)
    fh.seek(max(0, end - size))
    return fh.read().decode("utf-8", "replace")


def describe_bot(name: str, params: dict[str, Any] | None = None, memory_mb: int = DEFAULT_MEMORY_MB) -> dict[str, Any]:
    """A bot's declaration asked of its own sandboxed process (``bridge --describe``), never imported here:
    ``{"summary", "hyperparameters", "params", "weight_files"}``. ValueError names the bot and what its
    process said (a refused parameter, a failure to load, silence past ``DESCRIBE_TIMEOUT``)."""
    target = available_players()[name]
    command = [*bridge_command(target, params or None), "--describe"]
    scratch = sandbox_tools.new_scratch(f"describe-{name}")
    env = sandbox_tools.bot_environment(scratch, [p for p in sys.path if p])
    sandbox_tools.warn_if_degraded()
    # Its output goes to files, never into this process's memory, and no file of it may pass
    # DESCRIBE_FILE_MB: a process that prints for ever must not take the runner's memory or disk.
    confinement = Confinement(f"describe-{name}", file_mb=DESCRIBE_FILE_MB)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        try:
            done = subprocess.run(sandbox_tools.wrap(command, scratch, (), env, scratch_mb=SCRATCH_MB), stdout=out,
                                  stderr=err, cwd=scratch, env=env, timeout=DESCRIBE_TIMEOUT, start_new_session=True,
                                  stdin=subprocess.DEVNULL, preexec_fn=_limits(memory_mb, confinement))  # noqa: PLW1509
        except subprocess.TimeoutExpired:
            raise ValueError(f"bot {name}: its process did not describe itself within {DESCRIBE_TIMEOUT:g} s") from None
        finally:
            confinement.close()
            sandbox_tools.remove_scratch(scratch)
        lines, tail = _tail(out, MAX_LINE_BYTES).strip().splitlines(), _tail(err, 400).strip()
    try:
        reply = json.loads(lines[-1]) if lines else None
    except ValueError:
        reply = None
    if not isinstance(reply, dict) or reply.get("type") not in ("describe", "error"):
        raise ValueError(f"bot {name}: its process exited with status {done.returncode} without describing itself"
                         + (f"; stderr: {tail}" if tail else ""))
    if reply["type"] == "error":
        raise ValueError(f"{name}: {reply.get('message', 'refused')}")
    return reply


def parse_checked(text: str, params_file: str | os.PathLike[str] | None = None) -> PlayerSpec:
    """``parse_spec`` with another package's bot checked by its own sandboxed process, never imported here."""
    return parse_spec(text, params_file, describe=describe_bot)
