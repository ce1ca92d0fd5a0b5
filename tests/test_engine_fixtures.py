"""The engine against every record the real EAAI engine produced."""

import pytest
from conftest import DATA, fixture_records

from ginbots.arena.trace import ScriptedPlayer, read_traces, replay
from ginbots.game.cards import CARD_NAMES, parse_card
from ginbots.game.engine import GameConfig, play_game
from ginbots.game.javarandom import _STEPS, DealOrder, JavaRandom, deal_order

SUMMARIES = fixture_records("games_simple_vs_simple.jsonl")


def test_all_50_shuffles_deal_exactly_the_java_deck():
    records = fixture_records("shuffles.jsonl")
    assert len(records) == 50
    for r in records:
        assert [CARD_NAMES[c] for c in deal_order(r["seed"])] == r["pop_order"], r["seed"]


def test_a_deal_shuffled_as_drawn_gives_the_java_deck_card_for_card():
    """The engine shuffles only as far as cards are drawn; in any steps, the cards are the Java deck's."""
    for r in fixture_records("shuffles.jsonl"):
        order = DealOrder(r["seed"], 21)
        assert len(order.cards) == 21
        steps = iter([1, 6, 2, 9, 30])
        while len(order.cards) < 52:
            order.deal(len(order.cards) + next(steps))
        assert [CARD_NAMES[c] for c in order.cards] == r["pop_order"], r["seed"]


def test_the_shuffles_rejection_limits_are_javas_overflow_rule():
    """nextInt(i) draws again when ``bits - bits % i + (i - 1)`` overflows an int; the shuffle reads it as
    ``bits >= limit``: the first draw rejected is the limit, the one below it is kept."""
    def rejected(bits, i):
        return bits - bits % i + (i - 1) >= 1 << 31

    for i, limit, power_of_two in _STEPS:
        if not power_of_two:
            assert rejected(limit, i) and not rejected(limit - 1, i), i
            assert all(rejected(b, i) for b in range(limit, 1 << 31, max(1, ((1 << 31) - limit) // 7)))


def test_engine_random_stream_gives_the_recorded_starters_and_shuffle_seeds():
    for g in SUMMARIES:
        rng = JavaRandom(g["engine_seed"])
        assert rng.next_int(2) == g["hands"][0]["starting_player"]
        assert [rng.next_int() for _ in g["hands"]] == [h["shuffle_seed"] for h in g["hands"]]


def test_java_random_edge_behaviour():
    # nextInt(bound) for a power of two uses the high bits; the rejection loop never returns >= bound.
    rng = JavaRandom(-7)
    assert all(0 <= rng.next_int(52) < 52 for _ in range(2000))
    a, b = JavaRandom(2**40 + 5), JavaRandom(5)
    assert [a.next_int() for _ in range(3)] != [b.next_int() for _ in range(3)]
    with pytest.raises(ValueError):
        JavaRandom(1).next_int(0)


@pytest.mark.parametrize("index", range(20))
def test_fixture_game_replays_event_for_event(index):
    record = list(read_traces(DATA / "games_simple_vs_simple_trace.jsonl"))[index]
    summary = SUMMARIES[index]
    report = replay(record)
    assert report.mismatches == []
    result = report.result
    assert result.winner == summary["winner"]
    assert list(result.scores) == summary["final_scores"]
    assert len(result.hands) == summary["n_hands"]
    for ours, theirs in zip(result.hands, summary["hands"]):
        assert ours.shuffle_seed == theirs["shuffle_seed"]
        assert ours.starter == theirs["starting_player"]
        assert ours.result == theirs["result"]
        assert ours.draws == theirs["n_draws"]
        assert list(ours.scores_after) == theirs["scores_after"]
        if theirs["result"] != "cancelled":
            assert ours.knocker == theirs["knocker"]
            assert ours.knocker_deadwood == theirs["knocker_deadwood"]
            assert ours.points == theirs["points"]


def _knock_scenario(r):
    """Deal the record's hands, let the knocker draw and throw one stock card, then knock."""
    k = r["knocker_seat"]
    hands = {k: [parse_card(c) for c in r["knocker_hand"]], k ^ 1: [parse_card(c) for c in r["opponent_hand"]]}
    spare = [c for c in range(52) if c not in hands[0] and c not in hands[1]]
    upcard, stock_top = spare[0], spare[1]
    deck = [c for pair in zip(hands[0], hands[1]) for c in pair] + [upcard, stock_top] + spare[2:]
    up, top = CARD_NAMES[upcard], CARD_NAMES[stock_top]
    events = [
        {"e": "offer", "p": k, "card": up, "take": False},
        {"e": "offer", "p": k ^ 1, "card": up, "take": False},
        {"e": "draw", "p": k, "card": top},
        {"e": "discard", "p": k, "card": top},
        {"e": "melds", "p": k, "melds": r["knocker_melds"]},
        {"e": "melds", "p": k ^ 1, "melds": r["opponent_melds"]},
    ]
    return deck, [{"events": events}]


def test_all_500_knock_records_resolve_identically_in_the_engine():
    records = fixture_records("knocks.jsonl")
    assert len(records) == 500
    config = GameConfig(time_budget=None, max_hands_per_game=1)
    for r in records:
        deck, hands = _knock_scenario(r)
        players = [ScriptedPlayer(0, hands), ScriptedPlayer(1, hands)]
        result = play_game(players, seed=0, config=config, decks=[deck], first_starter=r["knocker_seat"], trace=True)
        assert result.forfeit is None, (r["i"], result.forfeit)
        hand = result.hands[0]
        assert hand.knocker == r["knocker_seat"]
        assert hand.knocker_deadwood == r["knocker_deadwood"], r["i"]
        assert hand.opponent_deadwood == r["opponent_deadwood"], r["i"]
        assert hand.result == r["result"], r["i"]
        assert hand.points == r["points"], r["i"]
        assert hand.winner == r["winner_seat"], r["i"]
        layoffs = [e for e in result.trace["hands"][0]["events"] if e["e"] == "layoff"]
        assert [(e["card"], e["onto"]) for e in layoffs] == [
            (x["card"], sorted(x["meld_before"], key=parse_card)) for x in r["layoffs"]], r["i"]
        assert all(e["p"] == r["knocker_seat"] ^ 1 for e in layoffs)


def _knock_hand(knocker_melds):
    record = {
        "knocker_seat": 0,
        "knocker_hand": "5H 6H 7H 8C 8S 8D AC 2C AS 2S".split(),
        "opponent_hand": "8H 9H KC QD JS TC 3D 5D KH QS".split(),
        "knocker_melds": knocker_melds,
        "opponent_melds": [],
    }
    deck, hands = _knock_scenario(record)
    players = [ScriptedPlayer(0, hands), ScriptedPlayer(1, hands)]
    config = GameConfig(time_budget=None, max_hands_per_game=1)
    return play_game(players, seed=0, config=config, decks=[deck], first_starter=0, trace=True)


def test_layoffs_follow_the_declared_meld_order():
    run, meld_set = ["5H", "6H", "7H"], ["8C", "8S", "8D"]
    run_first = _knock_hand([run, meld_set])
    set_first = _knock_hand([meld_set, run])
    lay = lambda res: [(e["card"], e["onto"]) for e in res.trace["hands"][0]["events"] if e["e"] == "layoff"]
    # 8H is scanned first; on the run it lets 9H follow, on the set it does not.
    assert lay(run_first) == [("8H", run), ("9H", ["5H", "6H", "7H", "8H"])]
    assert lay(set_first) == [("8H", meld_set)]
    assert run_first.hands[0].opponent_deadwood == set_first.hands[0].opponent_deadwood - 9
