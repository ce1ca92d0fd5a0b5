"""Submission packaging: one self-contained, hash-checked archive per bot, and its verification.

``ginbots package BOT`` collects the bot's code (only the bundle modules it
imports), its parameters and weights, the Java shim, a manifest with the
sha256 of every file, and a README for the organiser. ``--verify`` unpacks an
archive into a fresh directory, checks every hash, starts the bridge from the
unpacked copy (never the development checkout) and plays smoke games.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginbots import PUBLIC_NAMES, __version__
from ginbots.players.registry import available_players, parse_spec

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
PROJECT_ROOT = PACKAGE_ROOT.parent
MANIFEST = "MANIFEST.json"
#: The class name as the EAAI tournament runner (vermouth) wants it: folder, then the dotted class.
VERMOUTH_AGENT = "file:./java/classes/ginbots.GinbotsPlayer"


class PackageError(ValueError):
    """A package that cannot be built, or an archive that fails verification; says which file and why."""


#: Distributions the archive's manifest requires instead of shipping (and what they bring with them).
PROVIDED = {"numpy", "onnxruntime"}


def module_closure(module: str) -> list[str]:
    """Every module ``module`` imports, directly or not (itself included), that the archive must ship:
    the bundle's own (``ginbots.*``) and those of the bot's own top-level package, whichever distribution
    installed it. Standard-library modules and the required numpy and onnxruntime are not followed."""
    own = {"ginbots", module.partition(".")[0]}
    seen: set[str] = set()
    todo = [module, "ginbots", "ginbots.connect.bridge", "ginbots.players.registry"]
    while todo:
        name = todo.pop()
        if name in seen or name.partition(".")[0] not in own:
            continue
        found = _module_file(name)
        if found is None:
            continue
        path = found[0]
        seen.add(name)
        parent = name.rpartition(".")[0]
        while parent:
            todo.append(parent)
            parent = parent.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.Import):
                todo.extend(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(package, node.module, node.level)
                todo.append(base)
                todo.extend(f"{base}.{alias.name}" for alias in node.names)
                if base == "ginbots":  # the root's public names load their modules on first use
                    todo.extend(PUBLIC_NAMES[alias.name] for alias in node.names if alias.name in PUBLIC_NAMES)
    return sorted(seen)


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:``, which never run."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _optional_imports(tree: ast.AST) -> set[int]:
    """ids of the import nodes inside a ``try`` that handles ImportError: optional dependencies (numba for
    the compiled playouts), which the code does without where they are not installed."""
    optional: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Try):
            continue
        caught = set()
        for handler in node.handlers:
            kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            caught |= {k.id for k in kinds if isinstance(k, ast.Name)}
        if caught & {"ImportError", "ModuleNotFoundError"}:
            optional |= {id(inner) for stmt in node.body for inner in ast.walk(stmt)}
    return optional


def outside_imports(modules: list[str]) -> list[str]:
    """Top-level modules the packed code imports that are neither packed, nor standard library, nor required
    (an import guarded by ``except ImportError`` is optional and does not count)."""
    packed_tops = {m.partition(".")[0] for m in modules}
    found: set[str] = set()
    for name in modules:
        found_file = _module_file(name)
        if found_file is None:
            continue
        tree = ast.parse(found_file[0].read_text())
        optional = _optional_imports(tree)
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
            for imported in names:
                top = imported.partition(".")[0]
                if top not in packed_tops and top not in sys.stdlib_module_names and top not in PROVIDED:
                    found.add(top)
    return sorted(found)


def _resolve(package: str, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - level + 1])
    return f"{base}.{module}" if module else base


def _module_file(name: str) -> tuple[Path, Path] | None:
    """(source file, its path inside the archive) of a module: the bundle's from this install, any
    other from where Python would import it."""
    rel = Path(*name.split("."))
    if name.partition(".")[0] == "ginbots":
        for candidate in (PROJECT_ROOT / rel.with_suffix(".py"), PROJECT_ROOT / rel / "__init__.py"):
            if candidate.exists():
                return candidate, candidate.relative_to(PROJECT_ROOT)
        return None
    # Found on the path without importing anything: importlib.util.find_spec would run a package's
    # __init__ for its submodules, and a bot that is not this package's own never runs here.
    from importlib.machinery import PathFinder

    spec, search = None, None
    for part in name.split("."):
        spec = PathFinder.find_spec(part, search)
        if spec is None:
            return None
        search = spec.submodule_search_locations
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    origin = Path(spec.origin)
    inside = rel / "__init__.py" if origin.name == "__init__.py" else rel.with_suffix(".py")
    return origin, inside


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _requirements() -> dict[str, str]:
    from importlib import metadata

    out = {}
    for dist in ("numpy", "onnxruntime"):
        try:
            out[dist] = f">={metadata.version(dist)}"
        except metadata.PackageNotFoundError:
            out[dist] = ""
    return out


def _copy_shim(target: Path, bridge: str) -> None:
    """The shim's sources and its shipped Java 8 classes, with the entry's own bridge.properties."""
    from ginbots.connect import shim

    problem = shim.stale_reason()
    if problem:
        raise PackageError(f"{problem}; rebuild them with `ginbots package --rebuild-shim` (needs javac)")
    for src in sorted(shim.SOURCES.glob("*.java")):
        dest = target / "java" / "src" / "ginbots" / src.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, dest)
    classes = target / "java" / "classes" / "ginbots"
    classes.mkdir(parents=True, exist_ok=True)
    for cls in shim.class_files():
        shutil.copy(cls, classes / cls.name)
    # The shim reads this next to its class: each entry starts its own bot, from the archive's top folder
    # (three levels up from java/classes/ginbots), whatever the JVM's working directory.
    (classes / "bridge.properties").write_text(f"command={bridge}\ndirectory=../../..\n")


def build_package(spec_text: str, params_file: str | None = None, out_dir: str | Path = "submission/dist") -> Path:
    """Build ``ginbots-NAME-VERSION.zip`` for a player spec; returns its path."""
    spec = parse_spec(spec_text, params_file)
    target_module = available_players()[spec.name].partition(":")[0]
    modules = module_closure(target_module)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files: list[Path] = []
        outside = outside_imports(modules)
        if outside:
            raise PackageError(f"{spec.name} imports {', '.join(outside)}, which the archive would neither ship nor "
                               f"require (only the bot's own package, ginbots, numpy and onnxruntime travel)")
        for name in modules:
            found = _module_file(name)
            assert found is not None
            dest = root / found[1]
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(found[0], dest)
        (root / "params.json").write_text(json.dumps(spec.params, indent=2, sort_keys=True) + "\n")
        declared = _declaration(spec)
        weights = declared["weight_files"]
        for w in weights:
            dest = root / "weights" / Path(w).name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(w, dest)
        target = available_players()[spec.name]
        # The bundle's bots by name; any other by its class, since the organiser's environment does not have
        # the distribution that registered it.
        bridge_args = [spec.name] if target.startswith("ginbots.") else ["--import", target]
        bridge_args += ["--params", "params.json"]
        bridge = "python3 -m ginbots.connect.bridge " + " ".join(bridge_args)
        _copy_shim(root, bridge)
        (root / "README.txt").write_text(_organiser_readme(spec.display, bridge))
        files = sorted(p for p in root.rglob("*") if p.is_file())
        manifest = {
            "bot": spec.name,
            "spec": spec.display,
            "version": __version__,
            "hyperparameters": declared["params"],
            "python_requires": ">=3.10",
            "requirements": _requirements(),
            "entry_points": {
                "bridge": bridge,
                "bridge_args": bridge_args,
                "bridge_cwd": "the unpacked archive's top folder",
                "java_class": "ginbots.GinbotsPlayer",
                "java_classpath": "java/classes",
                "java_bytecode": "Java 8 (class file version 52)",
                "java_bridge_file": "java/classes/ginbots/bridge.properties",
                "vermouth_agent": VERMOUTH_AGENT,
            },
            "files": {str(p.relative_to(root)): _sha256(p) for p in files},
        }
        (root / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        archive = out / f"ginbots-{spec.display.replace(':', '-').replace('/', '_')}-{__version__}.zip"
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
            for p in sorted(root.rglob("*")):
                if p.is_file():
                    zf.write(p, p.relative_to(root).as_posix())
    return archive


def _declaration(spec: Any) -> dict[str, Any]:
    """The bot's parameters and weight files: from the bot itself when it is the bundle's own, else asked
    of its own sandboxed process (another package's code never runs in the packager)."""
    if spec.builtin:
        player = spec.make(seed=0)
        return {"params": player.params, "weight_files": [str(w) for w in getattr(player, "weight_files", list)()]}
    from .host import describe_bot

    return describe_bot(spec.name, spec.params)


def _organiser_readme(spec: str, bridge: str) -> str:
    return f"""ginbots submission: {spec}

Requirements: Python 3.10+ as `python3`, with numpy and onnxruntime (pip install numpy onnxruntime),
and Java 8 or later. Every file's sha256 is in MANIFEST.json.

Check the archive's files with Python alone, from the folder it was unpacked into:
    python3 -c "import hashlib,json,pathlib; m=json.load(open('MANIFEST.json')); print('changed:', [f for f, h in m['files'].items() if hashlib.sha256(pathlib.Path(f).read_bytes()).hexdigest() != h] or 'none')"
With ginbots itself installed (pip install ginbots from its source or a wheel; this archive carries only the
modules its bot needs), `ginbots package --verify THIS_ARCHIVE.zip` also starts the bridge from a fresh copy
in a fresh virtual environment, sandboxed, and plays smoke games.

Play over stdin/stdout (the bridge protocol), from this folder:
    {bridge}

In the EAAI tournament runner (vermouth), from the folder this archive was unpacked into (the class is
named as vermouth wants it: the class folder, then the dotted class name):
    java -jar vermouth.jar --oneall --games 100 --agents '{VERMOUTH_AGENT}' 'file:./ginrummy.SimpleGinRummyPlayer'
    java -jar vermouth.jar --elo --games 100 --agents '{VERMOUTH_AGENT}' 'file:./OtherAgent' ...
The shim finds its bridge command in java/classes/ginbots/bridge.properties and starts it in this folder,
so it works from any working directory, and several ginbots entries (each in its own unpacked folder) can
share one runner. -Dginbots.command=... or GINBOTS_COMMAND override the file (for every entry in the JVM),
-Dginbots.directory=... or GINBOTS_DIRECTORY the folder it starts in. Packed into a jar (jar cf entry.jar
-C java/classes .), the classes find this folder if the jar stays inside it (or up to three folders below).

In the challenge's GinRummyGame: put java/classes on the class path and name ginbots.GinbotsPlayer:
    java -cp <challenge classes>:java/classes ginrummy.GinRummyGame   (after editing its player list)

What to check in the logs (stderr):
    "ginbots shim: bridge ready: bot {spec.split(':')[0]} in ..." once per entry: the bot started.
    "playing the built-in move" or "bot unavailable": the Python side failed and the shim played Simple.
    A bridge that cannot start stops the runner when the player is constructed, before any game, with
    its reason: the bot loads its weights at start, so onnxruntime missing from python3 shows there.
    The shim writes to the process's stderr even when the runner redirects System.err (vermouth does).
Options: -Dginbots.budget=30 (thinking seconds per game), -Dginbots.decision_timeout=10 (seconds per decision).
"""


#: Limits on an archive being verified: a submission is a few MB, a zip bomb is not.
MAX_ENTRIES = 5000
MAX_UNPACKED_BYTES = 512 << 20
MAX_RATIO = 200


def _unsafe_entries(zf: zipfile.ZipFile) -> str | None:
    """Why an archive must not be unpacked (duplicates, paths outside it, too big or too compressed), or None."""
    infos = zf.infolist()
    if len(infos) > MAX_ENTRIES:
        return f"{len(infos)} entries (at most {MAX_ENTRIES})"
    seen: set[str] = set()
    total = 0
    for info in infos:
        name = info.filename
        if name in seen:
            return f"{name}: the archive holds it twice"
        seen.add(name)
        parts = Path(name).parts
        if name.startswith(("/", "\\")) or ".." in parts or (parts and ":" in parts[0]):
            return f"{name}: a path outside the archive's folder"
        total += info.file_size
        if total > MAX_UNPACKED_BYTES:
            return f"unpacks to more than {MAX_UNPACKED_BYTES >> 20} MiB"
        if info.compress_size and info.file_size / info.compress_size > MAX_RATIO and info.file_size > 1 << 20:
            return f"{name}: compressed {info.file_size / info.compress_size:.0f}:1 (a zip bomb?)"
    return None


@dataclass
class Verification:
    archive: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    games: int = 0
    wins: int = 0
    forfeits: int = 0
    #: What was checked and held, in order (``package --verify`` lists it).
    checked: list[str] = field(default_factory=list)

    def text(self) -> str:
        head = f"{self.archive}: {'PASS' if self.ok else 'FAIL'}"
        if self.games:
            head += f" ({self.games} smoke games vs simple: {self.wins} won, {self.forfeits} forfeits)"
        return "\n".join([head] + [f"  ok: {c}" for c in self.checked] + [f"  - {p}" for p in self.problems])


def fresh_python(where: Path, requirements: dict[str, str]) -> Path:
    """A new virtual environment in ``where`` holding only the manifest's requirements; its python.

    RuntimeError names the step that failed (no network, no wheel for this platform...).
    """
    venv = where / "venv"
    done = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"could not create a virtual environment: {done.stderr.strip()[-300:]}")
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    wanted = [f"{name}{spec}" for name, spec in sorted(requirements.items())]
    if wanted:
        done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *wanted],
                              capture_output=True, text=True, timeout=1800)
        if done.returncode != 0:
            raise RuntimeError(f"could not install the manifest's requirements {wanted}: {done.stderr.strip()[-400:]}")
    return python


def _read_manifest(root: Path) -> dict[str, Any]:
    """The unpacked archive's manifest, its required fields checked (ValueError names the one that is wrong)."""
    manifest = json.loads((root / MANIFEST).read_text())
    listed = manifest["files"]
    if not isinstance(listed, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in listed.items()):
        raise ValueError("'files' must map each file to its sha256")
    for key in ("bot", "spec"):
        if not isinstance(manifest.get(key), str):
            raise ValueError(f"{key!r} must be a string")
    return manifest


def _file_problems(root: Path, listed: dict[str, str]) -> list[str]:
    """Files missing, unlisted or changed against the manifest's list of sha256 sums."""
    present = {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()} - {MANIFEST}
    problems = [f"{name}: listed in the manifest but missing" for name in sorted(set(listed) - present)]
    problems += [f"{name}: present but not in the manifest" for name in sorted(present - set(listed))]
    problems += [f"{name}: sha256 differs from the manifest (tampered or corrupt)"
                 for name in sorted(set(listed) & present) if _sha256(root / name) != listed[name]]
    return problems


def _smoke_games(remote: Any, games: int, report: Verification) -> None:
    """Play ``games`` games of the unpacked bot against Simple, seats alternating, into ``report``."""
    from ginbots.game.engine import GameConfig, play_game
    from ginbots.players.baselines import SimplePlayer

    for g in range(games):
        bots = [remote, SimplePlayer(seed=g)]
        res = play_game(bots if g % 2 == 0 else bots[::-1], seed=1000 + g,
                        config=GameConfig(time_budget=60.0), player_seeds=(g, g + 1))
        report.games += 1
        report.wins += res.winner == (0 if g % 2 == 0 else 1)
        if res.forfeit is not None:
            report.forfeits += 1
            report.problems.append(f"smoke game {g}: {res.forfeit.reason}")


#: Address-space cap of the archive's bot in its smoke games (the default of an isolated bot).
SMOKE_MEMORY_MB = 2048
_TARGET = re.compile(r"[A-Za-z_][\w.]*:[A-Za-z_]\w*")


def _launch_problem(root: Path, manifest: dict[str, Any], args: Any) -> str | None:
    """Why the archive would start something else than its bot's bridge, or None: the bridge arguments
    must be the bot's name or ``--import MODULE:CLASS`` with its parameter file, and the Java shim's
    ``bridge.properties`` and the manifest's command must be exactly the command they make (a rewritten
    ``command=sh -c ...`` with a re-hashed manifest fails here)."""
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        return f"{MANIFEST}: entry_points.bridge_args must be a list of strings"
    named = len(args) == 3 and args[0] == manifest["bot"]
    imported = len(args) == 4 and args[0] == "--import" and _TARGET.fullmatch(args[1]) is not None
    if not (named or imported) or args[-2:] != ["--params", "params.json"]:
        return (f"{MANIFEST}: entry_points.bridge_args {args} are not BOT --params params.json or "
                "--import MODULE:CLASS --params params.json")
    bridge = "python3 -m ginbots.connect.bridge " + " ".join(args)
    if manifest.get("entry_points", {}).get("bridge") != bridge:
        return f"{MANIFEST}: entry_points.bridge is not {bridge!r}"
    props = root / "java" / "classes" / "ginbots" / "bridge.properties"
    try:
        lines = [line.strip() for line in props.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (OSError, UnicodeDecodeError) as exc:
        return f"java/classes/ginbots/bridge.properties cannot be read: {exc}"
    if lines != [f"command={bridge}", "directory=../../.."]:
        return (f"java/classes/ginbots/bridge.properties starts {lines[0][8:] if lines else 'nothing'!r}, not the "
                f"bridge `ginbots package` writes ({bridge!r})")
    return None


def verify_package(archive: str | Path, games: int = 4, fresh_env: bool = True) -> Verification:
    """Unpack into a fresh directory, check hashes and completeness, play smoke games from the copy.

    With ``fresh_env`` (the default) the bridge runs as an organiser's would: in a new virtual environment
    made from the manifest's requirements alone, with HOME and the working directory in a temporary folder,
    so nothing of the builder's environment (its site-packages, editable installs, user site) can stand in
    for a file the archive lacks.
    """
    from .host import ProcessPlayer

    archive = Path(archive)
    report = Verification(str(archive), ok=False)
    if not archive.exists():
        report.problems.append("archive does not exist")
        return report
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "archive"
        root.mkdir()
        try:
            with zipfile.ZipFile(archive) as zf:
                problem = _unsafe_entries(zf)
                if problem:
                    report.problems.append(problem)
                    return report
                zf.extractall(root)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
            report.problems.append(f"not a readable zip archive: {exc}")
            return report
        try:
            manifest = _read_manifest(root)
        except RecursionError:
            report.problems.append(f"{MANIFEST} malformed: nested too deeply to read")
            return report
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            report.problems.append(f"{MANIFEST} missing or malformed: {exc}")
            return report
        report.problems.extend(_file_problems(root, manifest["files"]))
        if report.problems:
            return report
        report.checked.append(f"{len(manifest['files'])} files present, each with the sha256 of {MANIFEST}, "
                              "nothing unlisted, no path leaving the archive")
        python = Path(sys.executable)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
        if fresh_env:
            home = Path(tmp) / "home"
            home.mkdir()
            try:
                python = fresh_python(home, manifest.get("requirements", {}))
            except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
                report.problems.append(f"the organiser's environment could not be made: {exc}")
                return report
            env.update(HOME=str(home), PYTHONNOUSERSITE="1")
        args = manifest.get("entry_points", {}).get("bridge_args") or [manifest["bot"], "--params", "params.json"]
        problem = _launch_problem(root, manifest, args)
        if problem:
            report.problems.append(problem)
            return report
        report.checked.append("the Java shim's bridge.properties and the manifest start exactly the bridge "
                              "`ginbots package` writes for this bot")
        command = [str(python), "-m", "ginbots.connect.bridge", *args]
        try:
            # The smoke games run the archive's code as a judge runs an entry: sandboxed, memory-capped.
            remote = ProcessPlayer(command, label=manifest["spec"], cwd=str(root), isolated=True, env=env,
                                   sandbox=True, pythonpath=[str(root)], memory_mb=SMOKE_MEMORY_MB, confine=True)
        except Exception as exc:
            report.problems.append(f"the bridge did not start from the unpacked archive: {exc}")
            return report
        try:
            where = str(remote.remote.get("module_path", ""))
            if not where.startswith(str(root.resolve())) and not where.startswith(str(root)):
                report.problems.append(f"the bridge loaded ginbots from {where}, not from the archive")
                return report
            report.checked.append(f"the bridge runs ginbots from the archive ({where})")
            _smoke_games(remote, games, report)
            if not report.forfeits:
                report.checked.append(f"{games} smoke games against Simple, sandboxed with a {SMOKE_MEMORY_MB} MiB "
                                      "address-space cap: no forfeit")
        finally:
            remote.close()
    report.ok = not report.problems
    return report
