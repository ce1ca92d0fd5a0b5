import json

import pytest

from ginbots.cli import main

from ginbots.arena.trace import (
    describe_hand,
    follow_hand,
    format_hand,
    read_traces,
    replay,
    write_traces,
)
from ginbots.game.cards import parse_cards
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import GreedyPlayer, RandomPlayer, SimplePlayer


def test_own_traces_round_trip_through_a_file_and_replay_identically(tmp_path):
    records = []
    for g, (a, b) in enumerate([(SimplePlayer, GreedyPlayer), (RandomPlayer, SimplePlayer)]):
        res = play_game([a(seed=g), b(seed=g + 7)], seed=1000 + g, trace=True)
        records.append(res.trace)
    path = tmp_path / "games.jsonl"
    write_traces(path, records)
    loaded = list(read_traces(path))
    assert loaded == json.loads(json.dumps(records))
    for rec, original in zip(loaded, records):
        report = replay(rec)
        assert report.ok, report.mismatches
        assert report.result.trace["hands"] == original["hands"]
        assert rec["final_scores"] == list(report.result.scores)


def test_rigged_decks_are_recorded_and_replayed():
    from helpers import Passive, deck_from
    deck = deck_from("AC 2C 3C 4H 5H 6H 7S 8S 9S AD", "KC QH JS TD 8C 6D 4S 2H 9D 7C", "5D")
    res = play_game([Passive(seed=0), Passive(seed=1)], seed=3, decks=[deck], first_starter=1,
                    config=GameConfig(time_budget=None, max_hands_per_game=1), trace=True)
    assert "deck" in res.trace["hands"][0] and res.trace["hands"][0]["starting_player"] == 1
    assert replay(res.trace).ok


def test_a_doctored_trace_is_reported_as_different():
    res = play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=77, trace=True)
    rec = json.loads(json.dumps(res.trace))
    scores = [e for e in rec["hands"][0]["events"] if e["e"] == "scores"][0]
    scores["scores"] = [scores["scores"][0] + 1, scores["scores"][1]]
    report = replay(rec)
    assert not report.ok and "hand 1" in report.mismatches[0]


def test_malformed_trace_files_name_the_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"engine_seed": 1, "players": ["a", "b"], "hands": []}\nnot json\n')
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        list(read_traces(path))
    path.write_text('{"engine_seed": 1, "players": ["a", "b"], "no_hands": 1}\n')
    with pytest.raises(ValueError, match="'hands'"):
        list(read_traces(path))


def test_describe_hand_shows_turns_melds_and_deadwood():
    res = play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=5, trace=True)
    text = describe_hand(res.trace, 1)
    assert text.startswith("Hand 1 of")
    assert "dealt:" in text and "discards" in text and "deadwood" in text and "scores" in text
    with pytest.raises(ValueError, match="does not exist"):
        describe_hand(res.trace, 99)


def test_follow_hand_keeps_both_hands_card_for_card():
    from ginbots.game.cards import parse_card
    res = play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=5, trace=True)
    checked = 0
    for number, hand in enumerate(res.trace["hands"], 1):
        for event, held in follow_hand(hand, number):
            assert held[0] & held[1] == 0
            kind, seat = event["e"], event.get("p")
            if kind in ("draw", "discard"):
                card_held = held[seat] >> parse_card(event["card"]) & 1
                assert (card_held, bin(held[seat]).count("1")) == ((1, 11) if kind == "draw" else (0, 10))
                checked += 1
            elif kind == "melds":
                for meld in event["melds"]:
                    assert all(held[seat] >> parse_card(c) & 1 for c in meld)
    assert checked > 20
    first = res.trace["hands"][0]
    bad = {**first, "dealt": [first["dealt"][0][:9], first["dealt"][1]]}
    with pytest.raises(ValueError, match="hand 3: each player must be dealt 10 distinct cards"):
        list(follow_hand(bad, 3))


def test_format_hand_groups_melds_and_tags_gin():
    assert format_hand(parse_cards("AC 2C 3C 9H KS")) == "[AC 2C 3C] 9H KS  (deadwood 19)"
    assert format_hand(parse_cards("AC 2C 3C 4H 5H 6H 7S 8S 9S TS")).endswith("(deadwood 0, gin)")


def _engine_traces(games=3):
    from ginbots.game.engine import play_game
    from ginbots.players.baselines import SimplePlayer

    return [play_game([SimplePlayer(seed=g), SimplePlayer(seed=g + 5)], seed=g, trace=True).trace for g in range(games)]


def test_engine_traces_follow_the_published_schema():
    """trace.schema.json is valid JSON Schema, and what the engine writes (forfeits and layoffs included) meets it."""
    import jsonschema

    from ginbots.arena.schema import problem, trace_schema

    jsonschema.Draft202012Validator.check_schema(trace_schema())
    validator = jsonschema.Draft202012Validator(trace_schema())
    records = _engine_traces(6)
    from helpers import Passive
    from ginbots.game.engine import play_game

    class Raises(Passive):
        def discard(self):
            raise RuntimeError("boom")

    records.append(play_game([Raises(seed=0), Passive(seed=1)], seed=3, trace=True).trace)
    kinds = {e["e"] for r in records for h in r["hands"] for e in h["events"]}
    assert {"offer", "draw", "discard", "melds", "scores", "forfeit"} <= kinds
    for record in records:
        assert list(validator.iter_errors(record)) == []
        assert problem(record) is None


@pytest.mark.parametrize("mangle, words", [
    (lambda r: {**r, "hands": None}, "record.hands must be array"),
    (lambda r: {**r, "players": [1, 2]}, "record.players[0] must be string"),
    (lambda r: {**r, "hands": [{**r["hands"][0], "upcard": "ZZ"}]}, "does not match"),
    (lambda r: {**r, "hands": [{**r["hands"][0], "events": [{"e": "teleport"}]}]}, "must be one of"),
    (lambda r: {**r, "hands": [{**r["hands"][0], "starting_player": True}]}, "starting_player must be integer"),
    (lambda r: {k: v for k, v in r.items() if k != "hands"}, "lacks 'hands'"),
])
def test_a_malformed_record_is_refused_by_replay_and_view_with_its_line(tmp_path, capsys, mangle, words):
    import jsonschema

    from ginbots.arena.schema import trace_schema
    from ginbots.arena.view import read_games

    good, bad = _engine_traces(2)
    bad = mangle(bad)
    assert list(jsonschema.Draft202012Validator(trace_schema()).iter_errors(bad))  # the library agrees it is bad
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    games, problems = read_games(path)
    assert len(games) == 1 and len(problems) == 1 and problems[0].startswith(f"{path}:2:") and words in problems[0]
    assert main(["replay", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2:" in err and words in err and "Traceback" not in err


def test_a_deeply_nested_record_is_refused_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"hands": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert main(["replay", str(path)]) == 2
    assert "nested deeper" in capsys.readouterr().err
    assert main(["view", str(path), "-o", str(tmp_path / "x.html")]) != 0
    assert "nested deeper" in capsys.readouterr().err
