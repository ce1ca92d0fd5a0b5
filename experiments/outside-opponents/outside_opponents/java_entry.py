"""A public EAAI challenge entry written in Java, played by the bundle's runner on its own deals.

``java-tonic`` is "Gin Rummy and Tonic" (``GinRummyAndTonic_Player`` of bendstein/Gin-Rummy), a
public entry of the challenge: Simple's draw rule, discards scored against what the opponent is
expected to gain from them, and knocks by a mixed strategy its authors computed with CFR. It is
not ours and not shipped: ``experiments/outside-opponents/java/build.sh ENGINE TONIC`` compiles it,
with the server that speaks the bridge protocol for it (``java/EntryServer.java``), into
``java_build/`` beside this file. The runner treats it as any outside bot: a sandboxed process
(the bridge), which runs the JVM as its child.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from ginbots.connect.host import ProcessPlayer

BUILD = Path(__file__).resolve().parent / "java_build"
#: A JVM that fits the runner's address-space cap for a bot's process (2 GiB by default).
JVM_FLAGS = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=64m",
             "-XX:MaxMetaspaceSize=128m", "-Xshare:off")


class JavaEntry(ProcessPlayer):
    """A ``ginrummy.GinRummyPlayer`` class in ``java_build/classes``, behind ``ginbots.EntryServer``."""

    entry_class = ""

    def __init__(self, *, seed: int | None = None, **params: Any) -> None:
        java = shutil.which("java")
        if java is None:
            raise RuntimeError(f"{self.name} needs a Java runtime (java on PATH)")
        if not (BUILD / "classes" / f"{self.entry_class}.class").exists():
            raise RuntimeError(f"{self.name}: {self.entry_class} is not built in {BUILD}; run "
                               "experiments/outside-opponents/java/build.sh ENGINE_CHECKOUT TONIC_CHECKOUT")
        command = [java, *JVM_FLAGS, "-cp", str(BUILD / "classes"), "ginbots.EntryServer", self.entry_class]
        super().__init__(command, seed=seed, label=self.name, cwd=str(BUILD))  # it reads its files from here
        self.name = type(self).name


class Tonic(JavaEntry):
    """Gin Rummy and Tonic, a public EAAI entry in Java (bendstein/Gin-Rummy)."""

    name = "java-tonic"
    entry_class = "GinRummyAndTonic_Player"
