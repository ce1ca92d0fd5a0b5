"""Every command the README and docs show: the parser accepts it, and the README's walk-through runs.

Shell blocks (```bash) are run in order in a scratch folder, with game and trial
counts shrunk so the suite stays fast; every other `ginbots ...` command in the
prose is checked against the real argument parser. Links between pages resolve.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ginbots.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
SHRINK = {"--games": "4", "--games-per-pair": "2", "--trials": "2", "--games-per-trial": "8", "--hands": "4"}
#: Set-up lines of the README's blocks that the test environment already satisfies.
SKIP = ("pip install", "python3 -m venv", "experiments/")


def _bash_blocks(page: Path) -> list[list[str]]:
    text = page.read_text()
    return [[line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]
            for block in re.findall(r"```bash\n(.*?)```", text, re.S)]


def _ginbots_args(line: str) -> list[str] | None:
    line = line.split("  #")[0].strip()
    for segment in line.split("&&"):
        words = shlex.split(segment.strip())
        if words and words[0].endswith("ginbots"):
            return words[1:]
    return None


def _inline_commands(page: Path) -> list[str]:
    return [m for m in re.findall(r"`(ginbots [^`]+)`", page.read_text()) if "..." not in m and "[" not in m]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_parses(page):
    commands = [_ginbots_args(line) for block in _bash_blocks(page) for line in block]
    # Prose may name a command alone ("`ginbots tune`") or with placeholders for numbers ("--seed S").
    inline = [shlex.split(c)[1:] for c in _inline_commands(page)]
    # A log line that starts with "ginbots shim:" is not a command; a span with no option and at most a
    # subcommand ("`ginbots offense train`") names a command rather than showing one.
    choices = set(build_parser()._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    commands += [["1" if w in ("N", "S", "K") else w for w in args] for args in inline
                 if args[0] in choices and (len(args) > 2 or any(w.startswith("-") for w in args))]
    parser = build_parser()
    for args in commands:
        if args is None:
            continue
        try:
            parser.parse_args(args)
        except SystemExit as exc:
            if exc.code == 0:  # --help, --version
                continue
            pytest.fail(f"{page.name}: `ginbots {' '.join(args)}` is not a valid command")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_pages_resolve(page):
    for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", page.read_text()):
        if re.match(r"^[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(ROOT)} links to {target}, which does not exist"


def test_the_readme_walk_through_runs(tmp_path):
    """The README's 'What you can do' blocks, in order, in an empty folder (counts shrunk)."""
    ran = []
    for block in _bash_blocks(ROOT / "README.md")[1:]:  # the first block is the set-up itself
        for line in block:
            if line.strip().startswith(SKIP):
                continue
            args = _ginbots_args(line)
            if args is None:
                continue
            for i, word in enumerate(args[:-1]):
                if word in SHRINK:
                    args[i + 1] = SHRINK[word]
            if args[:1] == ["tune"]:
                args += ["--batches", "1", "--heldout-games", "4"]
            if args[:2] == ["package", "--verify"]:
                args += ["--games", "1", "--no-venv"]  # the fresh-environment path has its own test
            if args[:1] == ["openspiel"]:
                pytest.importorskip("pyspiel")
            done = subprocess.run([sys.executable, "-m", "ginbots", *args], cwd=tmp_path, capture_output=True,
                                  text=True, timeout=600)
            assert done.returncode == 0, f"`ginbots {' '.join(args)}` failed:\n{done.stdout}\n{done.stderr}"
            ran.append(args[0])
    assert {"list", "match", "replay", "tournament", "tune", "package", "openspiel"} <= set(ran)


def _figures():
    """``docs/figures.py``, imported from its folder (it is a script, not part of the package)."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        import figures
    finally:
        sys.path.pop(0)
    return figures


def test_every_figure_shown_is_the_one_its_result_file_gives():
    """README and docs show figures as marked spans; each must equal what docs/figures.py renders from its
    committed file (run `python docs/figures.py` after new results), and every file must exist."""
    figures = _figures()
    problems = figures.differences(write=False)
    assert not problems, "\n".join(problems)
    shown = sum(len(figures.SPAN.findall(p.read_text())) for p in figures.pages())
    assert shown >= 15  # the README's table alone shows this many


def _unmarked_win_rates(text: str) -> list[str]:
    """Win rates with an interval (``61.3% [59.9, 62.8]``) outside every marked figure span of ``text``."""
    figures = _figures()
    marked = [(m.start(), m.end()) for m in figures.SPAN.finditer(text)]
    shown = re.compile(r"\d+\.\d% \[\d+\.\d%?, \d+\.\d%?\]")
    return [m.group(0) for m in shown.finditer(text) if not any(a <= m.start() < b for a, b in marked)]


def test_every_win_rate_with_an_interval_is_a_figure_from_a_file():
    """A win rate shown with its interval is a measured result: it must be a marked figure (so the check
    above ties it to its file), never typed by hand (`python docs/link_figures.py --write` finds the file)."""
    figures = _figures()
    loose = [f"{page.relative_to(ROOT)}: {shown}" for page in figures.pages()
             for shown in _unmarked_win_rates(page.read_text(encoding="utf-8"))]
    assert not loose, "win rates typed by hand:\n" + "\n".join(loose)
    assert _unmarked_win_rates("won 61.3% [59.9, 62.8] of them") == ["61.3% [59.9, 62.8]"]
    assert not _unmarked_win_rates("<!-- fig:x -->61.3% [59.9, 62.8]<!-- /fig -->")


def test_the_figure_check_catches_a_figure_typed_by_hand(tmp_path, monkeypatch):
    figures = _figures()
    page = tmp_path / "README.md"
    page.write_text("<!-- fig:safe-vs-simple -->55.0% [54.0, 56.0] (10,000 games)<!-- /fig -->\n"
                    "<!-- fig:no-such-figure -->1<!-- /fig -->\n")
    monkeypatch.setattr(figures, "pages", lambda: [page])
    monkeypatch.setattr(figures, "ROOT", ROOT)
    problems = figures.differences(write=False)
    assert any("safe-vs-simple shows '55.0%" in p for p in problems)
    assert any("no-such-figure is not in docs/figures.toml" in p for p in problems)


def test_a_figure_id_with_a_dot_is_refused_by_name(tmp_path, monkeypatch):
    """TOML reads ``[x-0.8]`` as table ``x-0`` holding table ``8``: the registry names it rather than lose the figure."""
    figures = _figures()
    registry = tmp_path / "figures.toml"
    registry.write_text('[fine]\nkind = "value"\n\n[opp-util-0.8-paired]\nkind = "text"\n')
    monkeypatch.setattr(figures, "REGISTRY", registry)
    with pytest.raises(ValueError, match=r"\[opp-util-0\] has no kind"):
        figures.registry()
    registry.write_text('[fine]\nkind = "value"\n\n[kindless]\nfile = "x.json"\n')
    with pytest.raises(ValueError, match=r"\[kindless\] has no kind; every figure names its kind"):
        figures.registry()
    registry.write_text('[fine]\nkind = "value"\n')
    assert list(figures.registry()) == ["fine"]


def test_a_figures_file_list_takes_globs_and_reports_a_missing_path(tmp_path, monkeypatch):
    figures = _figures()
    for name in ("a_1.json", "a_2.json", "b.json"):
        (tmp_path / name).write_text("{}")
    monkeypatch.setattr(figures, "ROOT", tmp_path)
    found = figures._files({"files": ["a_*.json", "b.json", "missing.json"]})
    assert [f.name for f in found] == ["a_1.json", "a_2.json", "b.json", "missing.json"]
    assert not found[-1].exists()  # named, so the figure's check reports it rather than pooling less


#: What docs/api.md tells users to build: the root and every wing (pdoc follows their submodules).
API_MODULES = ("ginbots", "ginbots.game", "ginbots.search", "ginbots.estimators", "ginbots.players", "ginbots.connect",
               "ginbots.arena", "ginbots.training", "ginbots.tuning")


def test_the_api_reference_builds_from_the_docstrings(tmp_path):
    """pdoc renders every public module; a broken docstring or import fails here (and so in CI)."""
    done = subprocess.run([sys.executable, "-m", "pdoc", "--docformat", "restructuredtext", "-o", str(tmp_path),
                           *API_MODULES], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0 and "Warn" not in done.stderr, done.stderr[-3000:]
    for page in ("ginbots.html", "ginbots/game/engine.html", "ginbots/players/base.html", "ginbots/arena/match.html"):
        assert (tmp_path / page).exists(), page
