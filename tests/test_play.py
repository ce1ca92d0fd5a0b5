"""`ginbots play`: a person's game in the terminal, driven here by piped input."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from ginbots.arena.play import play
from ginbots.arena.trace import read_traces


def test_piped_input_plays_a_whole_game_that_replays_and_views(tmp_path):
    save = tmp_path / "game.jsonl"
    done = subprocess.run([sys.executable, "-m", "ginbots", "play", "simple", "--seed", "4", "--save", str(save),
                           "--no-colour"], input="\n" * 5000, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "wins the game" in done.stdout and "hand was:" in done.stdout
    trace = next(read_traces(save))
    assert trace["players"][0] == "you" and trace["winner"] is not None and "forfeit" not in trace
    for command in (["replay", str(save), "--check"], ["view", str(save), "-o", str(tmp_path / "g.html")]):
        check = subprocess.run([sys.executable, "-m", "ginbots", *command], capture_output=True, text=True, timeout=120)
        assert check.returncode == 0, check.stdout + check.stderr
    assert "1 identical" in subprocess.run([sys.executable, "-m", "ginbots", "replay", str(save), "--check"],
                                           capture_output=True, text=True, timeout=120).stdout


def test_a_mistyped_answer_gets_the_choices_and_the_question_again():
    out = io.StringIO()
    answers = io.StringIO("maybe\n" + "ZZ\n" * 3 + "\n" * 4000)
    trace = play("simple", seed=2, stdin=answers, stdout=out, colour=False)
    text = out.getvalue()
    assert "answer y (take it) or n" in text or "not a card you may discard" in text
    assert trace["winner"] is not None


def test_when_the_input_ends_the_person_resigns_and_the_game_so_far_is_saved(tmp_path):
    save = tmp_path / "short.jsonl"
    out = io.StringIO()
    trace = play("simple", seed=3, stdin=io.StringIO("\n" * 30), stdout=out, colour=False, save=str(save))
    assert "you resigned (Resign: the input ended)" in out.getvalue()
    saved = json.loads(save.read_text())
    assert saved["forfeit"]["player"] == "you" and saved["hands"] and trace["winner"] == 1
