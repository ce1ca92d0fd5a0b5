"""`ginbots view`: one self-contained HTML page per game, every event a frame, bad traces named line by line."""

from __future__ import annotations

import json
import re

from ginbots.arena.trace import write_traces
from ginbots.arena.view import frames_of, read_games
from ginbots.cli import main
from ginbots.game.engine import play_game
from ginbots.players.baselines import SimplePlayer


def _trace(tmp_path, games=2):
    traces = []
    for g in range(games):
        result = play_game([SimplePlayer(seed=g), SimplePlayer(seed=g + 9)], seed=g, trace=True)
        result.trace["game"] = g
        traces.append(result.trace)
    path = tmp_path / "games.jsonl"
    write_traces(path, traces)
    return path, traces


def test_every_event_is_a_frame_and_the_page_is_self_contained(tmp_path, capsys):
    path, traces = _trace(tmp_path)
    assert main(["view", str(path), "--game", "1", "-o", str(tmp_path / "g.html")]) == 0
    page = (tmp_path / "g.html").read_text()
    frames = json.loads(re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S).group(1))
    events = sum(len(h["events"]) for h in traces[1]["hands"])
    assert len(frames) == events + len(traces[1]["hands"])  # one per event and one per deal
    assert not re.search(r'(src|href)="(https?:)?//', page)   # no network
    assert "keydown" in page and "ArrowRight" in page
    for f in frames:  # both hands hold 10 or 11 cards (fewer only after a layoff moved a card to a meld)
        sizes = {sum(len(g) for g in f["hands"][0]), sum(len(g) for g in f["hands"][1])}
        assert sizes <= {10, 11} or "lays off" in f["text"] or "Scores" in f["text"] or "declares" in f["text"]
    kinds = {e["e"] for h in traces[1]["hands"] for e in h["events"]}
    texts = " ".join(f["text"] for f in frames)
    for kind, word in (("offer", "face-up"), ("draw", "draws"), ("discard", "discards"), ("melds", "knocks with"),
                       ("scores", "Scores")):
        if kind in kinds:
            assert word in texts


def test_stock_and_face_up_follow_the_draws(tmp_path):
    path, traces = _trace(tmp_path, 1)
    frames = frames_of(traces[0])
    first = [f for f in frames if f["hand"] == 1]
    stock_draws = sum(1 for f in first if "the stock:" in f["text"])
    assert first[0]["stock"] == 31 and first[-1]["stock"] == 31 - stock_draws


def test_a_truncated_or_malformed_trace_names_the_line_and_shows_the_whole_games(tmp_path, capsys):
    path, _ = _trace(tmp_path, 2)
    lines = path.read_text().splitlines()
    path.write_text(lines[0] + "\n" + '{"hands": [{"dealt": [["AC"], []]}]}\n' + lines[1][: len(lines[1]) // 2] + "\n")
    games, problems = read_games(path)
    assert len(games) == 1 and len(problems) == 2
    assert problems[0].startswith(f"{path}:2:") and problems[1].startswith(f"{path}:3:")
    assert main(["view", str(path), "-o", str(tmp_path / "g.html")]) == 0
    err = capsys.readouterr().err
    assert f"{path}:3: not a JSON game record" in err and (tmp_path / "g.html").exists()
    path.write_text("not json\n")
    assert main(["view", str(path)]) == 2
    assert "no whole game" in capsys.readouterr().err


HOSTILE_NAMES = ['<img src=x onerror="document.title=\'PWNED\'">',
                 '</script><script>document.title="PWNED"</script><!--']


def _chromium() -> str:
    import shutil

    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    assert found, "the viewer test needs Debian's chromium (.ci/run installs it: apt-get install chromium)"
    return found


def test_hostile_names_in_a_trace_are_text_in_headless_chromium(tmp_path):
    """Script from a trace never runs in the viewer: names are shown as the characters they are."""
    import subprocess

    path, traces = _trace(tmp_path, 1)
    trace = traces[0]
    trace["players"] = HOSTILE_NAMES
    write_traces(path, [trace])
    page = tmp_path / "g.html"
    assert main(["view", str(path), "-o", str(page)]) == 0
    profile = tmp_path / "profile"
    done = subprocess.run([_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={profile}", "--virtual-time-budget=3000", "--dump-dom",
                           page.as_uri()], capture_output=True, text=True, timeout=120)
    dom = done.stdout
    assert "seat0" in dom, done.stderr[-2000:]  # the page rendered
    assert "<title>PWNED</title>" not in dom  # no onerror handler or injected script ran
    assert "PWNED" in dom  # (the names are on the page, as text)
    assert "<img" not in dom  # the name stayed text ...
    assert "&lt;img src=x onerror=" in dom  # ... and is shown as such
    assert "document.title=\"PWNED\"&lt;/script&gt;" in dom or "&lt;/script&gt;&lt;script&gt;" in dom
