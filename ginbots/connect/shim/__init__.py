"""The Java shim for the EAAI harness: its sources and its Java 8 classes, shipped as package data.

``ginbots package`` copies both into every archive, so packaging needs no Java
at all; javac is needed only to rebuild the classes after the sources change
(``ginbots package --rebuild-shim``, which compiles with ``--release 8`` against
the stand-in ``ginrummy`` package). ``SOURCES.sha256`` beside the classes
records which sources they were built from; a test keeps them in step.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

SHIM_DIR = Path(__file__).resolve().parent
SOURCES = SHIM_DIR / "java" / "ginbots"
CLASSES = SHIM_DIR / "classes" / "ginbots"
STAMP = SHIM_DIR / "classes" / "SOURCES.sha256"
#: Class-file major version of Java 8: organisers on Java 8 or later can load the shim.
JAVA_8 = 52


def sources_hash() -> str:
    """sha256 over the shim's Java sources, by name, in order."""
    h = hashlib.sha256()
    for path in sorted(SOURCES.glob("*.java")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def class_files() -> list[Path]:
    return sorted(CLASSES.glob("*.class"))


def stale_reason() -> str | None:
    """Why the shipped classes cannot be used as they are, or None."""
    if not class_files():
        return f"no compiled shim classes in {CLASSES}"
    if not STAMP.exists() or STAMP.read_text().strip() != sources_hash():
        return f"the classes in {CLASSES} were built from other sources than {SOURCES}"
    return None


def rebuild(stub: Path) -> list[Path]:
    """Compile the sources with ``javac --release 8`` against the ``ginrummy`` stand-in in ``stub`` and
    replace the shipped classes; raises RuntimeError with javac's message."""
    javac = shutil.which("javac")
    if javac is None:
        raise RuntimeError("rebuilding the shim needs javac (a JDK 9 or later, for --release 8)")
    sources = [str(p) for p in sorted(stub.glob("*.java"))] + [str(p) for p in sorted(SOURCES.glob("*.java"))]
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([javac, "--release", "8", "-Xlint:all", "-Werror", "-d", tmp, *sources],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"javac failed:\n{done.stderr.strip()}")
        CLASSES.mkdir(parents=True, exist_ok=True)
        for old in class_files():
            old.unlink()
        for cls in sorted(Path(tmp, "ginbots").glob("*.class")):  # the stand-in ginrummy stays out
            shutil.copy(cls, CLASSES / cls.name)
    STAMP.write_text(sources_hash() + "\n")
    return class_files()
