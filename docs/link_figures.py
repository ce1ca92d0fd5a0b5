"""Find the result file behind each hand-typed win rate of the docs and mark it as a figure.

    python docs/link_figures.py [--write] [PAGE ...]

A win rate shown as ``61.3% [59.9, 62.8]`` (optionally followed by ``(3,000 games)``) that is not yet
a marked figure is looked up among every committed match result (``ginbots match --json`` files,
single or pooled over numbered chunks ``NAME__N.json``, either role): where exactly one source renders
those numbers, the span is marked ``<!-- fig:ID -->...<!-- /fig -->`` and the source registered in
``docs/figures.toml`` (``--write``); otherwise it is listed as unmatched, to be linked by hand or
re-measured. From then on ``docs/figures.py`` keeps it equal to its file.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from figures import REGISTRY, ROOT, SPAN, pages, registry, render, win_rate  # noqa: E402  (docs/ is this script's folder)

SHOWN = re.compile(r"(\d+\.\d)% \[(\d+\.\d)%?, (\d+\.\d)%?\](?: \(([\d,]+) (games|hands)\))?")
CHUNK = re.compile(r"^(.*__)(\d+)\.json$")


def _render(wins: int, decided: int) -> tuple[str, str, str]:
    """(rate, low, high) as ``figures.win_rate`` shows them: the key sources are indexed by."""
    return SHOWN.match(win_rate(wins, decided)).groups()[:3]


def sources() -> dict[tuple[str, str, str], list[dict]]:
    """(rate, low, high) -> every match source that renders it: single files and pooled chunk groups,
    and the records (tournament pairs, held-out checks, tables of wins and losses) of other result files."""
    found: dict[tuple[str, str, str], list[dict]] = defaultdict(list)
    groups: dict[str, list[tuple[Path, dict]]] = defaultdict(list)
    for path in sorted(ROOT.glob("experiments/**/*.json")) + sorted(ROOT.glob("reports/**/*.json")):
        try:
            data = json.loads(path.read_text())
        except (ValueError, UnicodeDecodeError):
            continue
        rel = str(path.relative_to(ROOT))
        if isinstance(data, dict) and isinstance(data.get("A"), dict):
            if "wins" in data["A"] and "games" in data:  # a match report
                chunk = CHUNK.match(rel)
                if chunk:
                    groups[chunk.group(1) + "*.json"].append((path, data))
                for role in ("A", "B"):
                    side = data[role]
                    decided = side["wins"] + side["losses"]
                    if decided:
                        found[_render(side["wins"], decided)].append(
                            {"kind": "winrate", "files": [rel], "role": role, "games": data["games"]})
            continue
        for keys, record in _records(data, []):
            if "losses" not in record:  # a tuning record's held-out check: wins of ``decided`` games
                if len(keys) == 1 and record["decided"]:
                    found[_render(record["wins"], record["decided"])].append(
                        {"kind": "heldout", "files": rel, "key": keys[0], "role": "heldout",
                         "games": record["games"]})
                continue
            decided = record["wins"] + record["losses"]
            count = record.get("games", record.get("hands"))
            if decided and isinstance(count, int):
                found[_render(record["wins"], decided)].append(
                    {"kind": "record", "files": rel, "path": "\t".join(keys), "role": "record", "games": count})
    for pattern, members in groups.items():
        if len(members) < 2:
            continue
        for role in ("A", "B"):
            for files, pooled in _pools(pattern, members):
                wins = sum(d[role]["wins"] for _, d in pooled)
                decided = sum(d[role]["wins"] + d[role]["losses"] for _, d in pooled)
                if decided:
                    found[_render(wins, decided)].append({"kind": "winrate", "files": files, "role": role,
                                                          "games": sum(d["games"] for _, d in pooled)})
    return found


def _pools(pattern: str, members: list[tuple[Path, dict]]):
    """(files, members) of a chunk group: all its chunks (as the glob), and each run of its first chunks
    (1..k, as a list of files): a comparison "on the same deals" pools the first chunks of a longer run."""
    yield pattern, members
    by_number = {int(CHUNK.match(str(path)).group(2)): (path, data) for path, data in members}
    prefix = []
    for number in range(1, len(members)):
        if number not in by_number:
            break
        prefix.append(by_number[number])
        if len(prefix) >= 2:
            yield [str(path.relative_to(ROOT)) for path, _ in prefix], list(prefix)


def registered(known: dict, index: dict) -> None:
    """Add the figures already registered (their renders, under their own ids) to ``index``."""
    for fig_id, spec in known.items():
        if spec.get("kind") not in ("winrate", "heldout", "text-winrate"):
            continue
        try:
            shown = render(fig_id, {**spec, "show_games": True})
        except (FileNotFoundError, KeyError, ValueError):
            continue
        m = SHOWN.match(shown)
        if m:
            index[(m.group(1), m.group(2), m.group(3))].append(
                {"id": fig_id, "files": fig_id, "role": "registered", "games": int(m.group(4).replace(",", "")),
                 "spec": spec})


def _records(data: object, keys: list[str]):
    """Every (key path, dict) in ``data`` that holds integer ``wins`` and ``losses``."""
    if isinstance(data, dict):
        if isinstance(data.get("wins"), int) and (isinstance(data.get("losses"), int) or
                                                  isinstance(data.get("decided"), int) and "games" in data):
            yield keys, data
        for key, value in data.items():
            yield from _records(value, keys + [str(key)])
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _records(value, keys + [str(i)])


def _source(candidate: dict) -> str:
    """The (first) file or glob behind a candidate; a registered figure's from its registry entry."""
    spec = candidate.get("spec", candidate)
    files = spec.get("files", spec.get("file", ""))
    return files if isinstance(files, str) else files[0]


def _experiment(candidate: dict) -> str:
    """``experiments/NAME/`` (or ``reports/NAME/``) of a candidate's source, or ''."""
    parts = Path(_source(candidate)).parts
    return f"{parts[0]}/{parts[1]}/" if len(parts) > 2 and parts[0] in ("experiments", "reports") else ""


def _row_opponent(text: str, at: int) -> str | None:
    """The bot spec in the first cell of the table row holding ``at``, spelled as result file names
    spell it (``dual-inception:tuned`` -> ``dual-inception_tuned``), or None outside a table."""
    start = text.rfind("\n", 0, at) + 1
    row = text[start:text.find("\n", at)]
    if not row.startswith("|"):
        return None
    spec = re.match(r"\|\s*`([^`]+)`", row)
    return re.sub(r"[:=,]", "_", spec.group(1)) if spec else None


def _context(text: str, at: int) -> str:
    """The page text from the section heading above ``at`` (or 40 lines up, if nearer) to the next blank
    line after the figure's paragraph or table, where a page names the source of its figures."""
    start = text.rfind("\n#", 0, at)
    lines_up = at
    for _ in range(40):
        lines_up = text.rfind("\n", 0, lines_up)
        if lines_up < 0:
            break
    start = max(start, lines_up, 0)
    end = text.find("\n\n", at)
    return text[start:end if end >= 0 else len(text)]


def _in_text_results(shown: str, near: str) -> tuple[str, str] | None:
    """(id, registry block) of a ``text`` figure where ``shown`` appears on exactly one line of the text
    results (``results/**/*.txt``) of the experiments named in ``near``: the line's start before it is
    the pattern's anchor."""
    hits = []
    for name in sorted(set(re.findall(r"experiments/([\w.-]+)/", near))):
        for path in sorted((ROOT / "experiments" / name).glob("results/**/*.txt")):
            for text_line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if text_line.count(shown) == 1:
                    hits.append((path, text_line))
    if len(hits) != 1:
        return None
    path, text_line = hits[0]
    prefix = text_line[:text_line.index(shown)]
    anchor = r"\s+".join(re.escape(word) for word in prefix.split())
    pattern = "^" + anchor + (r"\s+" if prefix.endswith((" ", "\t")) else "") + r"(\d+\.\d% \[\d+\.\d%?, \d+\.\d%?\])"
    rel = str(path.relative_to(ROOT))
    digest = hashlib.sha1(f"{rel}\n{prefix}".encode()).hexdigest()[:6]
    fig_id = re.sub(r"[^a-z0-9]+", "-", f"{path.stem} {prefix}".lower()).strip("-")[:60].rstrip("-") + "-" + digest
    block = (f"[{fig_id}]\nkind = \"text\"\nfile = {json.dumps(rel)}\npattern = {_toml_literal(pattern)}\n"
             f'format = "{{0}}"\n')
    return fig_id, block


def _toml_literal(text: str) -> str:
    """A TOML string for ``text``: a literal '...' string where it has no quote, else a basic one."""
    return f"'{text}'" if "'" not in text and "\n" not in text else json.dumps(text)


def _id(page: Path, spec: dict) -> str:
    """A readable id (page, result file, role), cut short, with a hash of the source so ids never collide."""
    source = spec["files"] if isinstance(spec["files"], str) else spec["files"][0]
    stem = Path(source).name.replace(".json", "").replace("*", "all")
    text = re.sub(r"[^a-z0-9]+", "-", f"{page.stem} {stem} {spec['role']}".lower()).strip("-")
    digest = hashlib.sha1(json.dumps([spec["files"], spec["role"]]).encode()).hexdigest()[:6]
    return f"{text[:60].rstrip('-')}-{digest}"


def _entry_toml(fig_id: str, entry: dict) -> str:
    """A registry block for ``entry`` as it stands (strings, numbers, booleans, lists of strings)."""
    def value(v):
        return "true" if v is True else "false" if v is False else json.dumps(v)
    return "\n".join([f"[{fig_id}]"] + [f"{k} = {value(v)}" for k, v in entry.items()]) + "\n"


def _entry(spec: dict) -> dict:
    """The registry entry of a candidate source ``spec`` (a record, a held-out check or match files)."""
    if spec["kind"] == "record":
        entry = {"kind": "record", "file": spec["files"], "path": spec["path"]}
    elif spec["kind"] == "heldout":
        entry = {"kind": "heldout", "file": spec["files"], "key": spec["key"]}
    else:
        entry = {"kind": "winrate", "files": spec["files"]}
        if spec["role"] != "A":
            entry["role"] = spec["role"]
    if not spec.get("show_games", True):
        entry["show_games"] = False
    return entry


def link(page: Path, index: dict, known: dict, new: dict[str, str], unmatched: list[str]) -> str:
    text = page.read_text(encoding="utf-8")
    marked = [(m.start(), m.end()) for m in SPAN.finditer(text)]
    out, last = [], 0
    for m in SHOWN.finditer(text):
        if any(a <= m.start() < b for a, b in marked):
            continue
        games = int(m.group(4).replace(",", "")) if m.group(4) else None
        unit = m.group(5) or "games"
        candidates = [c for c in index.get((m.group(1), m.group(2), m.group(3)), [])
                      if games is None or c["games"] == games]
        # Two experiments can give the same numbers (250 games allow only 251 win rates): a source counts
        # only where the text around the figure names its experiment, and of several, those under the
        # most specific folder or file it names; a small single result (under 1,000 games) only where
        # the text names its own folder or file, not just its experiment.
        near = _context(text, m.start())
        mentioned = re.findall(r"(?:experiments|reports)/[\w./*-]+", near)
        under_folder = {id(c): max((p for p in mentioned if _source(c).startswith(p.rstrip("*"))), key=len,
                                   default="") for c in candidates}
        candidates = [c for c in candidates if _experiment(c) and _experiment(c) in near and
                      (c["games"] >= 1000 or len(under_folder[id(c)]) > len(_experiment(c)))]
        opponent = _row_opponent(text, m.start())
        if opponent:  # a table row names its opponent: of several sources, those played against it
            against = [c for c in candidates if f"__vs__{opponent}__" in _source(c) or
                       _source(c).endswith(f"__vs__{opponent}.json")]
            candidates = against or candidates
        if candidates:  # of a folder and a folder inside it, both named, the inner one (not a longer sibling)
            folders = {under_folder[id(c)] for c in candidates}
            candidates = [c for c in candidates if not any(f != under_folder[id(c)] and
                                                           f.startswith(under_folder[id(c)]) for f in folders)]
        direct = [c for c in candidates if any(str(Path(_source(c)).parent) + "/" == p for p in mentioned)]
        candidates = direct or candidates  # a folder named holds a result directly, not in a subfolder
        firsts = [c for c in candidates if CHUNK.match(_source(c)) and CHUNK.match(_source(c)).group(2) == "1"]
        if len(firsts) == 1 and len({CHUNK.match(_source(c)).group(1) if CHUNK.match(_source(c)) else _source(c)
                                     for c in candidates}) == 1:
            candidates = firsts  # several chunks of one run agree: "the same deals" are its first chunk's
        # A figure already registered stands for the raw files behind it (the same files, the same role).
        behind = {json.dumps([_source(c), c["spec"].get("role", "A")]) for c in candidates if "id" in c}
        candidates = [c for c in candidates
                      if "id" in c or json.dumps([_source(c), c.get("role", "A")]) not in behind]
        distinct = {json.dumps({k: c[k] for k in ("files", "role")}, sort_keys=True) for c in candidates}
        line = text.count("\n", 0, m.start()) + 1
        if not distinct and games is None:
            found = _in_text_results(m.group(0), _context(text, m.start()))
            if found is not None:
                fig_id, block = found
                if fig_id not in known and fig_id not in new:
                    new[fig_id] = block
                out.append(text[last:m.start()])
                out.append(f"<!-- fig:{fig_id} -->{m.group(0)}<!-- /fig -->")
                last = m.end()
                continue
        if len(distinct) != 1:
            unmatched.append(f"{page.relative_to(ROOT)}:{line}: {m.group(0)} ({len(distinct)} sources)")
            continue
        spec = dict(candidates[0])
        spec["show_games"] = games is not None
        if "id" in spec:  # a registered figure: the same id where the page shows the games as it does
            entry = dict(spec["spec"])
            if (games is None) == (entry.get("show_games", True) is False):
                fig_id = spec["id"]
            else:  # the same source shown the other way: a twin entry, "-short" without the games
                fig_id = spec["id"].removesuffix("-short") + ("-short" if games is None else "-games")
                entry["show_games"] = games is not None
                if fig_id not in known and fig_id not in new:
                    new[fig_id] = _entry_toml(fig_id, entry)
        else:
            if unit != "games":
                spec["unit"] = unit
            fig_id = _id(page, spec) + ("" if spec["show_games"] else "-short")
            if spec["kind"] == "heldout":
                fig_id = fig_id.rsplit("-", 1)[0] + "-" + re.sub(r"[^a-z0-9]+", "-", spec["key"]) + \
                    "-" + fig_id.rsplit("-", 1)[1]
            elif spec["kind"] == "record" and spec.get("path"):
                fig_id = fig_id.rsplit("-", 1)[0] + "-" + hashlib.sha1(spec["path"].encode()).hexdigest()[:4] + \
                    "-" + fig_id.rsplit("-", 1)[1]
            entry = _entry(spec)
            if fig_id not in known and fig_id not in new:
                new[fig_id] = _entry_toml(fig_id, entry)
        shown = render(fig_id, {**entry, **({"unit": unit} if unit != "games" else {})})
        again = SHOWN.fullmatch(shown)
        if again and again.groups()[:3] == m.groups()[:3] and (games is None or
                                                             int(again.group(4).replace(",", "")) == games):
            pass  # the same figure, written another way (2000 for 2,000): the render's text replaces it
        elif shown != m.group(0):
            unmatched.append(f"{page.relative_to(ROOT)}:{line}: {m.group(0)} renders as {shown}")
            continue
        out.append(text[last:m.start()])
        out.append(f"<!-- fig:{fig_id} -->{shown}<!-- /fig -->")
        last = m.end()
    out.append(text[last:])
    return "".join(out)


def main() -> int:
    write = "--write" in sys.argv
    chosen = [ROOT / a for a in sys.argv[1:] if not a.startswith("--")] or pages()
    index, known = sources(), registry()
    registered(known, index)
    new: dict[str, str] = {}
    unmatched: list[str] = []
    for page in chosen:
        linked = link(page, index, known, new, unmatched)
        if write and linked != page.read_text(encoding="utf-8"):
            page.write_text(linked, encoding="utf-8")
    if write and new:
        with open(REGISTRY, "a", encoding="utf-8") as fh:
            fh.write("\n# --- linked by docs/link_figures.py: win rates found in one match result ---------------------\n")
            for block in new.values():
                fh.write("\n" + block)
    print(f"{len(new)} new figure sources; {len(unmatched)} win rates without exactly one source:")
    for line in unmatched:
        print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
