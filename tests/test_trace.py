import json

import pytest

from ginbots.arena.trace import (
    describe_hand,
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
    path.write_text('{"hands": []}\nnot json\n')
    with pytest.raises(ValueError, match="bad.jsonl:2"):
        list(read_traces(path))
    path.write_text('{"no_hands": 1}\n')
    with pytest.raises(ValueError, match="'hands'"):
        list(read_traces(path))


def test_describe_hand_shows_turns_melds_and_deadwood():
    res = play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=5, trace=True)
    text = describe_hand(res.trace, 1)
    assert text.startswith("Hand 1 of")
    assert "dealt:" in text and "discards" in text and "deadwood" in text and "scores" in text
    with pytest.raises(ValueError, match="does not exist"):
        describe_hand(res.trace, 99)


def test_format_hand_groups_melds_and_tags_gin():
    assert format_hand(parse_cards("AC 2C 3C 9H KS")) == "[AC 2C 3C] 9H KS  (deadwood 19)"
    assert format_hand(parse_cards("AC 2C 3C 4H 5H 6H 7S 8S 9S TS")).endswith("(deadwood 0, gin)")
