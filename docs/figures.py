"""Every figure shown in the README and the docs, rendered from the committed result file it comes from.

A figure in a page is a marked span, ``<!-- fig:ID -->74.7% [74.0, 75.4] (10,000 games)<!-- /fig -->``,
and ``docs/figures.toml`` says where figure ID comes from:

- ``kind = "winrate"``: the wins and decided games of ``role`` (A or B) pooled over the match
  results ``files`` (a glob, or a list of paths and globs, each a ``ginbots match --json`` file), as a win rate with its
  90% Wilson interval and the number of games (``show_games = false``: without it, where the page
  gives the games in its own words);
- ``kind = "record"``: one record with ``wins`` and ``losses`` (and ``games`` or ``hands``) at ``path``
  (keys joined by tabs) in the JSON ``file``, as a win rate like ``winrate``;
- ``kind = "think"``: the mean thinking seconds per game of ``role``, pooled over the same files;
- ``kind = "pair"``: the win rate of ``a`` against ``b`` in a tournament's ``summary.json`` (``file``);
- ``kind = "heldout"``: a tuning record's held-out check (``tuning/best/BOT.json``, ``key``);
- ``kind = "text"``: the groups of ``pattern`` in a text ``file``, through ``format``;
- ``kind = "text-winrate"``: the named groups ``wins`` and ``games`` of ``pattern`` in a text ``file``,
  as a win rate with its 90% Wilson interval;
- ``kind = "table"``: a markdown table, a row per JSON record of ``files`` (named by their ``key``, in
  the order ``rows`` gives; ``key`` may be dotted, ``players.A``; with ``list``, the records of that list in
  each file) and a column per
  ``columns`` entry ``[title, dotted path, format]`` (path "" formats the whole record: ``{0[bt]}``);
- ``kind = "value"``: one number at ``path`` (keys joined by dots) in ``file``, through ``format``.

``python docs/figures.py`` rewrites every marked span from its file; ``--check`` only reports the spans
that differ and the files that are missing (``tests/test_docs.py`` runs it, so no figure is typed by hand
twice, and none drifts from its file).
"""

from __future__ import annotations

import glob
import json
import re
import sys
from pathlib import Path
from typing import Any

from ginbots.arena.stats import wilson

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parents[1]
REGISTRY = ROOT / "docs" / "figures.toml"
SPAN = re.compile(r"<!-- fig:([\w.-]+) -->(.*?)<!-- /fig -->", re.S)
PAGES = ("README.md", "docs/**/*.md")


def _files(spec: dict[str, Any]) -> list[Path]:
    """A glob's matches, or a list's paths (kept as named, so a missing one is reported) and globs' matches."""
    pattern = spec["files"]
    if isinstance(pattern, str):
        return [Path(n) for n in sorted(glob.glob(str(ROOT / pattern)))]
    return [Path(n) for p in pattern
            for n in (sorted(glob.glob(str(ROOT / p))) if glob.has_magic(p) else [str(ROOT / p)])]


def _search(fig_id: str, spec: dict[str, Any]) -> re.Match[str]:
    """``pattern``'s first match in the text ``file``; FileNotFoundError or ValueError name what is missing."""
    path = ROOT / spec["file"]
    if not path.exists():
        raise FileNotFoundError(f"figure {fig_id}: no result file {spec['file']}")
    found = re.search(spec["pattern"], path.read_text(encoding="utf-8"), re.M)
    if found is None:
        raise ValueError(f"figure {fig_id}: {spec['pattern']!r} is not in {spec['file']}")
    return found


def win_rate(wins: int, decided: int, count: int | None = None, unit: str = "games") -> str:
    """``74.7% [74.0, 75.4] (10,000 games)``: a win rate, its 90% Wilson interval and (unless ``count`` is
    None) how many games or hands."""
    low, high = wilson(wins, decided)
    shown = f"{100 * wins / decided:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
    return shown if count is None else f"{shown} ({count:,} {unit})"


def _json_file(fig_id: str, spec: dict[str, Any]) -> Any:
    path = ROOT / spec["file"]
    if not path.exists():
        raise FileNotFoundError(f"figure {fig_id}: no result file {spec['file']}")
    return json.loads(path.read_text())


def _at(value: Any, keys: list[str]) -> Any:
    """``value`` followed through ``keys`` (a list index where it is a list)."""
    for key in keys:
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def _dig(record: Any, path: str) -> Any:
    """``record``'s value at a dotted ``path`` (``players.A``), or None where there is none."""
    for key in path.split("."):
        if not isinstance(record, dict) or key not in record:
            return None
        record = record[key]
    return record


def _table(fig_id: str, spec: dict[str, Any]) -> str:
    """A markdown table with a row per JSON record of ``files`` (keyed by ``key``, in the order of
    ``rows``) and a column per ``columns`` entry: [title, dotted path, format]."""
    records = {}
    for f in _files(spec):
        data = json.loads(f.read_text())
        listed = data.get(spec["list"], []) if "list" in spec and isinstance(data, dict) else [data]
        for record in listed:
            label = _dig(record, spec.get("key", "label"))
            if label is not None:  # other results share the folder
                records[str(label)] = record
    lines = ["| " + " | ".join(title for title, _, _ in spec["columns"]) + " |",
             "|" + "---|" * len(spec["columns"])]
    for row in spec["rows"]:
        if row not in records:
            raise FileNotFoundError(f"figure {fig_id}: no record {row!r} in {spec['files']}")
        cells = []
        for _, path, fmt in spec["columns"]:
            # "" is the whole record, for formats like {0[bt]}
            cells.append(fmt.format(_at(records[row], path.split(".") if path else [])))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n" + "\n".join(lines) + "\n"


def render(fig_id: str, spec: dict[str, Any]) -> str:
    """The text of a figure from its files; FileNotFoundError names what is missing."""
    show = spec.get("show_games", True)
    if spec["kind"] == "winrate":
        files = _files(spec)
        if not files or not all(f.exists() for f in files):
            raise FileNotFoundError(f"figure {fig_id}: no result file at {spec['files']}")
        wins = decided = games = 0
        for f in files:
            data = json.loads(f.read_text())
            side = data[spec.get("role", "A")]
            wins += side["wins"]
            decided += side["wins"] + side["losses"]
            games += data["games"]
        return win_rate(wins, decided, games if show else None, spec.get("unit", "games"))
    if spec["kind"] == "record":
        record = _at(_json_file(fig_id, spec), spec["path"].split("\t"))
        unit = "hands" if "hands" in record else "games"
        return win_rate(record["wins"], record["wins"] + record["losses"], record[unit] if show else None, unit)
    if spec["kind"] == "think":
        files = _files(spec)
        if not files:
            raise FileNotFoundError(f"figure {fig_id}: no result file at {spec['files']}")
        total = games = 0.0
        for f in files:
            data = json.loads(f.read_text())
            total += data[spec.get("role", "A")]["think_s_per_game"] * data["games"]
            games += data["games"]
        return spec.get("format", "{:.2f} s").format(total / games)
    if spec["kind"] == "pair":
        for pair in _json_file(fig_id, spec)["pairs"]:
            if (pair["a"], pair["b"]) == (spec["a"], spec["b"]):
                return win_rate(pair["a_wins"], pair["a_wins"] + pair["b_wins"], pair["games"] if show else None)
        raise FileNotFoundError(f"figure {fig_id}: no pair {spec['a']} vs {spec['b']} in {spec['file']}")
    if spec["kind"] == "heldout":
        side = _json_file(fig_id, spec)[spec.get("key", "heldout")]
        return win_rate(side["wins"], side["decided"], side["games"] if show else None)
    if spec["kind"] == "text-winrate":  # one ``file``, or the sum over several (``files``)
        names = [str(f.relative_to(ROOT)) for f in _files(spec)] if "files" in spec else [spec["file"]]
        if not names:
            raise FileNotFoundError(f"figure {fig_id}: no result file at {spec['files']}")
        found = [_search(fig_id, {**spec, "file": name}) for name in names]
        wins, games = sum(int(m.group("wins")) for m in found), sum(int(m.group("games")) for m in found)
        return win_rate(wins, games, games)
    if spec["kind"] == "text":
        return spec["format"].format(*_search(fig_id, spec).groups())
    if spec["kind"] == "table":
        return _table(fig_id, spec)
    if spec["kind"] == "value":
        return spec.get("format", "{}").format(_at(_json_file(fig_id, spec), spec["path"].split(".")))
    raise ValueError(f"figure {fig_id}: unknown kind {spec['kind']!r}")


def registry() -> dict[str, dict[str, Any]]:
    """The figures of ``docs/figures.toml`` by id. An id with a dot in it (``[a-0.8]``) is read by TOML as a
    table inside a table, so the figure would go missing under another name: refused, naming the table."""
    figures = tomllib.loads(REGISTRY.read_text(encoding="utf-8"))
    for fig_id, spec in figures.items():
        if "kind" in spec:
            continue
        inner = [key for key, value in spec.items() if isinstance(value, dict)]
        why = (f"a figure id holds letters, digits and dashes only (a dot in [{fig_id}.{inner[0]}] makes TOML read "
               f"tables inside a table)" if inner else "every figure names its kind")
        raise ValueError(f"{REGISTRY.name}: [{fig_id}] has no kind; {why}")
    return figures


def pages() -> list[Path]:
    return sorted({p for pattern in PAGES for p in ROOT.glob(pattern)})


def _shown(page: Path) -> str:
    return str(page.relative_to(ROOT)) if page.is_relative_to(ROOT) else str(page)


def differences(write: bool = False) -> list[str]:
    """Every marked span whose text is not what its file gives (rewritten when ``write``), and every
    figure that is missing from the registry or whose file is missing."""
    figures = registry()
    problems = []
    for page in pages():
        text = page.read_text(encoding="utf-8")

        def fix(match: re.Match[str]) -> str:
            fig_id, shown = match.group(1), match.group(2)
            if fig_id not in figures:
                problems.append(f"{_shown(page)}: figure {fig_id} is not in docs/figures.toml")
                return match.group(0)
            try:
                wanted = render(fig_id, figures[fig_id])
            except (FileNotFoundError, KeyError, ValueError) as exc:
                problems.append(f"{_shown(page)}: {exc}")
                return match.group(0)
            if shown != wanted:
                problems.append(f"{_shown(page)}: figure {fig_id} shows {shown!r}, its file gives {wanted!r}")
            return f"<!-- fig:{fig_id} -->{wanted}<!-- /fig -->"

        new = SPAN.sub(fix, text)
        if write and new != text:
            page.write_text(new, encoding="utf-8")
    return problems


if __name__ == "__main__":
    check = "--check" in sys.argv
    found = differences(write=not check)
    for line in found:
        print(line)
    sys.exit(1 if found and check else 0)
