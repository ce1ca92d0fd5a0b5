"""The package's wings import only downward, and no module imports itself back round a circle.

The rule (``docs/modules.md``): ``game`` is the ground floor; ``search`` and ``estimators`` sit on
it; ``players`` on those; then ``connect``, ``arena``, and at the top ``training`` and ``tuning``
(the command line, ``ginbots.cli``, may use anything). Every import counts, those inside
functions too: a lazy import that runs back up is still a back-arrow.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "ginbots"

#: Wing -> the wings it may import (itself always allowed).
MAY_IMPORT = {
    "game": set(),
    "search": {"game"},
    "estimators": {"game"},
    "players": {"game", "search", "estimators"},
    "connect": {"game", "search", "estimators", "players"},
    "arena": {"game", "search", "estimators", "players", "connect"},
    "training": {"game", "search", "estimators", "players", "connect", "arena"},
    "tuning": {"game", "search", "estimators", "players", "connect", "arena"},
}
#: Modules at the top of the package that sit above every wing.
TOP = {"ginbots.cli", "ginbots.__main__", "ginbots"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every ``ginbots`` import in the file, relative ones resolved."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            # ``from ginbots.connect import shim`` imports the submodule too
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names
                      if (PACKAGE.parent / Path(*f"{target}.{alias.name}".split("."))).with_suffix(".py").exists()
                      or (PACKAGE.parent / Path(*f"{target}.{alias.name}".split("."))).is_dir()]
    return [(line, mod) for line, mod in found if mod == "ginbots" or mod.startswith("ginbots.")]


def is_top(module: str) -> bool:
    """Entry points sit above every wing: ``python -m ginbots.tuning`` may call the command line."""
    return module in TOP or module.endswith(".__main__")


def wing_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in MAY_IMPORT else None


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_wing_or_at_the_top():
    stray = [module_name(p) for p in SOURCES if wing_of(module_name(p)) is None and not is_top(module_name(p))]
    assert not stray, f"modules outside every wing: {stray} (put each in the wing of its concern)"


def test_wings_import_only_downward():
    back_arrows = []
    for path in SOURCES:
        me = module_name(path)
        wing = wing_of(me)
        if wing is None or is_top(me):
            continue
        for line, target in imports_of(path):
            if target == "ginbots":
                continue  # the root holds __version__ and lazy public names, nothing that imports back
            other = wing_of(target)
            if other is None or (other != wing and other not in MAY_IMPORT[wing]):
                back_arrows.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {wing} imports {target}")
    assert not back_arrows, "imports against the wing rule (docs/modules.md):\n" + "\n".join(back_arrows)


def _graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in SOURCES}
    graph = {}
    for name, path in modules.items():
        graph[name] = {t for _, t in imports_of(path) if t in modules and t != name and t != "ginbots"}
    return graph


def test_no_import_circles():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, "import circles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_rule_catches_a_back_arrow(tmp_path, monkeypatch):
    """The checker itself: a game module importing a player is reported."""
    fake = tmp_path / "ginbots" / "game"
    fake.mkdir(parents=True)
    (fake / "bad.py").write_text("from ginbots.players.base import Player\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "ginbots")
    found = imports_of(fake / "bad.py")
    assert found == [(1, "ginbots.players.base")]
    assert wing_of(found[0][1]) not in MAY_IMPORT["game"]


@pytest.mark.parametrize("name", ["Player", "HandTrackingPlayer", "Hyperparameter", "min_deadwood", "best_meld_set",
                                  "cards_of", "mask_of", "parse_cards", "MAX_DEADWOOD"])
def test_public_names_for_bot_writers(name):
    import ginbots

    assert name in ginbots.__all__ and getattr(ginbots, name) is not None
