"""Public EAAI challenge entries written in Java, played by the bundle's runner on its own deals.

``java-tonic`` is "Gin Rummy and Tonic" (``GinRummyAndTonic_Player`` of bendstein/Gin-Rummy), a
public entry of the challenge: Simple's draw rule, discards scored against what the opponent is
expected to gain from them, and knocks by a mixed strategy its authors computed with CFR.
``java-sigra`` and ``java-sigra-stubborn`` are SIGRA (cudy789/gin-rummy-SIGRA): draws and discards
that minimise deadwood less the melds the unseen cards could complete (one draw ahead) and less what
the discard would give the opponent's likely melds; the first knocks as soon as it may, the second
only with gin. None is ours and none is shipped: ``experiments/outside-opponents/java/build.sh ENGINE
TONIC [SIGRA]`` compiles them, with the server that speaks the bridge protocol for them
(``java/EntryServer.java``), into ``java_build/`` beside this file. The runner treats each as any
outside bot: a sandboxed process (the bridge), which runs the JVM as its child.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from ginbots.connect.host import ProcessPlayer

BUILD = Path(__file__).resolve().parent / "java_build"
#: A JVM that fits the runner's address-space cap for a bot's process (2 GiB by default).
JVM_FLAGS = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=64m",
             "-XX:MaxMetaspaceSize=128m", "-Xshare:off",
             # Parallel streams run in the entry's own thread, not a pool beside it: a bot thinks on one
             # core here, as every bot of the bundle does (SIGRA averages over the unseen cards in one).
             "-Djava.util.concurrent.ForkJoinPool.common.parallelism=0")


class JavaEntry(ProcessPlayer):
    """A ``ginrummy.GinRummyPlayer`` class in ``java_build/classes``, behind ``ginbots.EntryServer``."""

    entry_class = ""
    needs_sigra = False  # built only when build.sh is given the SIGRA checkout

    def __init__(self, *, seed: int | None = None, **params: Any) -> None:
        java = shutil.which("java")
        if java is None:
            raise RuntimeError(f"{self.name} needs a Java runtime (java on PATH)")
        if not (BUILD / "classes" / f"{self.entry_class}.class").exists():
            raise RuntimeError(f"{self.name}: {self.entry_class} is not built in {BUILD}; run "
                               "experiments/outside-opponents/java/build.sh ENGINE_CHECKOUT TONIC_CHECKOUT"
                               + (" SIGRA_CHECKOUT" if self.needs_sigra else ""))
        command = [java, *JVM_FLAGS, "-cp", str(BUILD / "classes"), "ginbots.EntryServer", self.entry_class]
        super().__init__(command, seed=seed, label=self.name, cwd=str(BUILD))  # it reads its files from here
        self.name = type(self).name


class Tonic(JavaEntry):
    """Gin Rummy and Tonic, a public EAAI entry in Java (bendstein/Gin-Rummy)."""

    name = "java-tonic"
    entry_class = "GinRummyAndTonic_Player"


class Sigra(JavaEntry):
    """SIGRA, knocking as soon as it may (cudy789/gin-rummy-SIGRA; java/entries/SigraKnocker.java)."""

    name = "java-sigra"
    entry_class = "SigraKnocker"
    needs_sigra = True


class SigraStubborn(JavaEntry):
    """SIGRA knocking only with gin (cudy789/gin-rummy-SIGRA; java/entries/SigraStubborn.java)."""

    name = "java-sigra-stubborn"
    entry_class = "SigraStubborn"
    needs_sigra = True
