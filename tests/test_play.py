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
    assert "answer y (take it) or n" in text or "is not a card: type a card as its rank then its suit" in text
    assert trace["winner"] is not None


def test_the_person_learns_how_to_type_a_card_and_why_a_card_is_refused():
    """Said at the start; 'zz' is not a card, a card not held is refused for that reason; a knock names deadwood."""
    from ginbots.arena.play import TerminalPlayer
    from ginbots.game.cards import parse_cards

    out = io.StringIO()
    person = TerminalPlayer(io.StringIO("zz\nKD\n\n"), out, colour=False, opponent="simple")
    person.new_game(1)
    person.start_hand(0, 0, parse_cards("AC 2C 3C 4H 5H 6H 7S 8S 9S TS"))
    person.report_draw(0, parse_cards("JS").bit_length() - 1)
    person.discard()
    text = out.getvalue()
    assert text.count("type a card as its rank then its suit") == 2  # at the start, and after 'zz'
    assert "'ZZ' is not a card" in text and "you cannot discard KD now (it is not in your hand)" in text
    assert text.count("your hand:") == 1  # not at the deal and again at the question
    person.report_final_melds(1, (parse_cards("QH QS QD"),))
    assert "simple knocks, laying" in out.getvalue()
