"""Run keys: the secret behind the deals and bot seeds of a run with isolated bots, and the seal on its records.

A match seed is public (it is on the command line, and seeds 0-19 are easy to guess), so when a
bot that is not trusted takes part, nothing it sees may follow from the seed alone: the deals and
every bot's seed come from a **run key**, HMAC-SHA256 of the match seed under the judge's secret
(32 random bytes kept in ``judge.key``, created on first use with mode 0600, out of every sandboxed
bot's sight). The same seed still gives the same games on this machine; the run key is recorded in
the run's results, so ``--run-key`` replays the games anywhere. Records the runner writes carry an
HMAC under the run key (``seal``); one that does not verify is never counted.

Runs of the bundle's own bots only (isolated or not) keep the public derivation, so every figure of
the project replays from its seed alone.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

#: Environment variable holding the judge's secret as hex (overrides the key file).
JUDGE_KEY_ENV = "GINBOTS_JUDGE_KEY"
#: Environment variable naming the key file's folder.
JUDGE_DIR_ENV = "GINBOTS_JUDGE_DIR"
KEY_FILE = "judge.key"


class RunKeyError(ValueError):
    """A run key or judge key that cannot be used: names it and the rule."""


def judge_dir() -> Path:
    """Where the judge's secret lives (hidden from every sandboxed bot)."""
    if os.environ.get(JUDGE_DIR_ENV):
        return Path(os.environ[JUDGE_DIR_ENV])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ginbots"


def judge_secret() -> bytes:
    """The judge's secret: ``$GINBOTS_JUDGE_KEY`` (hex), else ``judge.key``, created on first use."""
    text = os.environ.get(JUDGE_KEY_ENV)
    if text:
        return _hex_bytes(text, JUDGE_KEY_ENV)
    path = judge_dir() / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Written whole under another name, then linked into place: a runner starting at the same moment
        # finds either no key or the whole key, never a half-written one; the first link wins.
        fd, draft = tempfile.mkstemp(prefix=".judge-", dir=path.parent)  # mode 0600
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_hex(32) + "\n")
            os.link(draft, path)
        except FileExistsError:
            pass  # another runner made it first: its key is the judge's
        finally:
            os.unlink(draft)
    return _hex_bytes(path.read_text().strip(), str(path))


def _hex_bytes(text: str, where: str) -> bytes:
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise RunKeyError(f"{where} must hold a key in hex, got {text[:12]!r}...") from None
    if len(key) < 16:
        raise RunKeyError(f"{where} holds {len(key)} bytes; a key needs at least 16")
    return key


def run_key_for(seed: int) -> str:
    """The run key of ``seed`` under this judge's secret (hex)."""
    return hmac.new(judge_secret(), f"ginbots run {seed}".encode(), hashlib.sha256).hexdigest()


def check_run_key(text: str) -> str:
    """A run key given by hand (``--run-key``), checked."""
    _hex_bytes(text, "--run-key")
    return text.lower()


def keyed_seed(run_key: str, *parts: int) -> int:
    """A 48-bit seed from the run key and integer parts (no one without the key can predict it)."""
    message = ",".join(str(p) for p in parts).encode()
    return int.from_bytes(hmac.new(bytes.fromhex(run_key), message, hashlib.sha256).digest()[:6], "big")


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps({k: v for k, v in record.items() if k != "mac"}, sort_keys=True,
                      separators=(",", ":")).encode()


def seal(run_key: str, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its ``mac``: HMAC-SHA256 under the run key of the record without it."""
    return {**record, "mac": hmac.new(bytes.fromhex(run_key), _canonical(record), hashlib.sha256).hexdigest()}


def sealed(run_key: str, record: Any) -> bool:
    """Whether ``record`` carries a valid ``mac`` under the run key (was written by this run's runner)."""
    if not isinstance(record, dict) or not isinstance(record.get("mac"), str):
        return False
    expected = hmac.new(bytes.fromhex(run_key), _canonical(record), hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, record["mac"])
