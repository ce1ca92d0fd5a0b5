"""Engine protocol: first-upcard turns, cancellation, knocking, forfeits, time budget, what players see."""

import os
import signal
import threading
import time

import numpy as np
import pytest
from helpers import Hooked, Passive, deck_from

from ginbots.game.cards import parse_card, parse_cards
from ginbots.game.engine import GameConfig, play_game
from ginbots.game.melds import best_meld_set
from ginbots.players.base import HandTrackingPlayer
from ginbots.players.baselines import SimplePlayer

ONE_HAND = GameConfig(time_budget=None, max_hands_per_game=1)
STRONG = "AC 2C 3C 4H 5H 6H 7S 8S 9S AD"   # deadwood 1
WEAK = "KC QH JS TD 8C 6D 4S 2H 9D 7C"     # no meld
DECK = deck_from(STRONG, WEAK, "5D", "KD QD JD")


def events_of(result, hand=0):
    return [e for e in result.trace["hands"][hand]["events"]]


def play(p0, p1, config=ONE_HAND, deck=DECK, starter=0, **kw):
    return play_game([p0, p1], seed=1, config=config, decks=[deck] * config.max_hands_per_game,
                     first_starter=starter, trace=True, **kw)


def test_both_decline_the_upcard_then_the_starter_must_draw_from_the_stock():
    res = play(Passive(seed=0), Passive(seed=1))
    ev = events_of(res)
    assert ev[:4] == [
        {"e": "offer", "p": 0, "card": "5D", "take": False},
        {"e": "offer", "p": 1, "card": "5D", "take": False},
        {"e": "draw", "p": 0, "card": "KD"},      # forced: no offer before it
        {"e": "discard", "p": 0, "card": "KD"},
    ]
    assert ev[4] == {"e": "offer", "p": 1, "card": "KD", "take": False}


def test_starter_taking_the_upcard_plays_on_normally_but_may_not_rediscard_it():
    ad = parse_card("AD")
    takes = Hooked(offer=lambda p: p.face_up == parse_card("5D"),
                   discard=lambda p: ad if p.hand >> ad & 1 else p.drawn)
    res = play(takes, Passive(seed=1))
    assert events_of(res)[:3] == [
        {"e": "offer", "p": 0, "card": "5D", "take": True},
        {"e": "draw", "p": 0, "card": "5D"},
        {"e": "discard", "p": 0, "card": "AD"},
    ]
    assert res.forfeit is None
    rediscard = Hooked(offer=lambda p: True)  # Passive discards what it drew: the face-up card
    res = play(rediscard, Passive(seed=1))
    assert res.forfeit.rule == "discard-face-up" and res.forfeit.seat == 0 and res.winner == 1
    assert "5D" in res.forfeit.reason and "seat 0" in res.forfeit.reason


def test_hand_is_cancelled_after_the_29th_stock_draw_and_the_starter_stays():
    config = GameConfig(time_budget=None, max_hands_per_game=2)
    res = play(Passive(seed=0), Passive(seed=1), config=config)
    first, second = res.hands
    assert first.result == "cancelled" and first.draws == 29 and "stock" in first.note
    assert second.starter == first.starter == 0
    assert res.scores == (0, 0) and res.winner is None and "max_hands_per_game" in res.note
    assert events_of(res)[-2:] == [{"e": "cancel", "reason": "stock down to 2 cards"}, {"e": "scores", "scores": [0, 0]}]


def _knock_on_call(n):
    calls = []

    def knock(player):
        calls.append(1)
        return best_meld_set(player.hand) if len(calls) == n else None
    return knock


def test_knocking_on_the_turn_that_takes_the_stock_to_two_is_allowed():
    # The starter makes stock draws 1, 3, ..., 29: its 15th is the one leaving 2 cards.
    res = play(Hooked(knock=_knock_on_call(15)), Passive(seed=1))
    hand = res.hands[0]
    assert hand.result == "knock" and hand.knocker == 0 and hand.draws == 29
    assert hand.knocker_deadwood == 1 and res.scores[0] == hand.points > 0
    late = play(Hooked(knock=_knock_on_call(16)), Passive(seed=1))
    assert late.hands[0].result == "cancelled" and late.hands[0].draws == 29


def test_starting_player_alternates_after_scored_hands():
    for g in range(30):
        res = play_game([SimplePlayer(seed=g), SimplePlayer(seed=g + 100)], seed=g)
        assert res.winner is not None and max(res.scores) >= 100 and min(res.scores) < 100
        assert res.scores[res.winner] >= 100
        for before, after in zip(res.hands, res.hands[1:]):
            assert after.starter == before.starter ^ (before.result != "cancelled")


def _knocker(melds):
    return Hooked(knock=lambda p: melds)


@pytest.mark.parametrize("melds, rule", [
    ([parse_cards("AC 2C 4C")], "illegal-meld"),
    ([parse_cards("AC 2C 3C"), parse_cards("AC 2C 3C")], "overlapping-melds"),
    ([parse_cards("AC 2C 3C 4C")], "meld-not-in-hand"),
    ([], "knock-over-10"),
    ([parse_cards("AC 2C 3C")], "knock-over-10"),
])
def test_illegal_knocks_forfeit_with_the_rule(melds, rule):
    res = play(_knocker(melds), Passive(seed=1))
    assert res.forfeit is not None and res.forfeit.rule == rule
    assert res.forfeit.seat == 0 and res.forfeit.action == "knock" and res.winner == 1
    assert res.hands[0].result == "forfeit"


def test_discarding_a_card_not_in_hand_forfeits():
    res = play(Hooked(discard=lambda p: parse_card("QS")), Passive(seed=1))
    assert res.forfeit.rule == "discard-not-in-hand" and "QS" in res.forfeit.detail


def test_missing_or_illegal_declaration_by_the_defender_forfeits():
    res = play(Hooked(knock=_knock_on_call(1)), Hooked(declare=lambda p: None))
    assert res.forfeit.rule == "missing-declaration" and res.forfeit.seat == 1
    assert res.forfeit.action == "declare_melds" and res.winner == 0
    res = play(Hooked(knock=_knock_on_call(1)), Hooked(declare=lambda p: [parse_cards("KC QC JC")]))
    assert res.forfeit.rule == "meld-not-in-hand" and res.forfeit.seat == 1


def test_melds_may_be_given_as_card_lists_or_masks_and_numpy_answers_are_accepted():
    as_lists = Hooked(knock=lambda p: [[0, 1, 2], [16, 17, 18], [32, 33, 34]],
                      discard=lambda p: np.int64(p.drawn), offer=lambda p: np.bool_(False))
    res = play(as_lists, Passive(seed=1))
    assert res.forfeit is None and res.hands[0].result == "knock" and res.hands[0].knocker_deadwood == 1


@pytest.mark.parametrize("hook, value, action", [
    ("offer", "yes", "will_draw_face_up"),
    ("offer", None, "will_draw_face_up"),
    ("discard", "AC", "discard"),
    ("discard", 3.5, "discard"),
    ("discard", None, "discard"),
    ("discard", True, "discard"),
    ("discard", 99, "discard"),
    ("knock", 7, "knock"),
    ("knock", [["AC", "2C", "3C"]], "knock"),
    ("knock", [[0, 0, 1, 2]], "knock"),
    ("declare", "melds", "declare_melds"),
])
def test_garbage_answers_forfeit_as_bad_answer_type(hook, value, action):
    if hook == "declare":
        res = play(Hooked(knock=_knock_on_call(1)), Hooked(declare=lambda p: value))
    else:
        res = play(Hooked(**{hook: lambda p: value}), Passive(seed=1))
    assert res.forfeit is not None and res.forfeit.rule == "bad-answer-type", res.forfeit
    assert res.forfeit.action == action


class Raiser(Passive):
    def __init__(self, where, exc=RuntimeError("boom")):
        super().__init__(seed=0)
        self.where, self.exc = where, exc

    def __getattribute__(self, name):
        if name == object.__getattribute__(self, "where"):
            def fail(*args):
                raise object.__getattribute__(self, "exc")
            return fail
        return object.__getattribute__(self, name)


@pytest.mark.parametrize("where", ["new_game", "start_hand", "will_draw_face_up", "report_draw", "discard",
                                   "report_discard", "knock", "report_final_hand", "report_scores"])
def test_an_exception_in_any_callback_forfeits_and_names_it(where):
    res = play(Passive(seed=0), Raiser(where))
    assert res.forfeit is not None and res.forfeit.seat == 1 and res.forfeit.action == where
    assert res.forfeit.rule == "exception" and "RuntimeError: boom" in res.forfeit.reason
    assert res.winner == 0


@pytest.mark.parametrize("exc", [SystemExit(3), KeyboardInterrupt(), GeneratorExit(), MemoryError(),
                                 RecursionError(), BaseException("odd")])
def test_anything_a_player_raises_is_its_forfeit(exc):
    res = play(Passive(seed=0), Raiser("discard", exc))
    assert res.forfeit.rule == "exception" and res.forfeit.seat == 1 and res.winner == 0
    assert type(exc).__name__ in res.forfeit.detail


def test_a_real_ctrl_c_still_stops_the_game():
    """A bot's exceptions forfeit its game, but a real SIGINT is the user's and stops the run."""
    def interrupt(player):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
        return player.drawn

    # A test run started in the background (`nohup ... &`) inherits SIGINT ignored, and Python then never
    # raises KeyboardInterrupt; give the test Python's own handler, as an interactive run has.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            play(Passive(seed=0), Hooked(discard=interrupt))
    finally:
        signal.signal(signal.SIGINT, previous)


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("no")


class _BadIndex:
    def __index__(self):
        raise RuntimeError("index")

    def __bool__(self):
        raise RuntimeError("bool")

    def __repr__(self):
        raise RuntimeError("repr")


def _raising_melds():
    yield 1
    raise RuntimeError("generator")


HOSTILE = {
    "huge-int": ("discard", lambda: 10 ** 5000), "huge-negative": ("discard", lambda: -(10 ** 5000)),
    "bad-index": ("discard", _BadIndex), "bad-bool": ("offer", _BadIndex), "raising-generator": ("knock", _raising_melds),
    "bad-meld": ("knock", lambda: [_BadIndex()]), "bad-card": ("knock", lambda: [[_BadIndex()]]),
    "huge-mask": ("knock", lambda: [10 ** 5000]), "too-many-melds": ("knock", lambda: [[0, 1, 2]] * 100),
    "yes": ("offer", lambda: "yes"), "float": ("discard", lambda: np.float64(3.0)),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_answers_are_bad_answers_never_crashes(case):
    hook, make = HOSTILE[case]
    res = play(Hooked(**{hook: lambda p: make()}), Passive(seed=1))
    assert res.forfeit is not None and res.forfeit.rule == "bad-answer-type" and res.forfeit.seat == 0
    assert len(res.forfeit.reason) < 400


def test_an_exception_whose_message_raises_is_still_a_forfeit():
    res = play(Passive(seed=0), Raiser("discard", _Unprintable()))
    assert res.forfeit.rule == "exception" and "_Unprintable" in res.forfeit.detail


def _swallowing_sleeper(player):
    try:
        time.sleep(30)
    except Exception:
        pass
    return player.drawn


def test_a_hung_player_is_interrupted_at_its_budget_even_if_it_catches_exceptions():
    config = GameConfig(time_budget=0.3, max_hands_per_game=1)
    start = time.perf_counter()
    res = play(Passive(seed=0), Hooked(discard=_swallowing_sleeper), config=config)
    elapsed = time.perf_counter() - start
    assert res.forfeit is not None and res.forfeit.rule == "time-budget" and res.forfeit.seat == 1
    assert res.forfeit.action == "discard"
    assert elapsed < 10, "the sleeping player was not interrupted"


def test_overrun_is_caught_after_the_fact_when_no_alarm_is_possible():
    config = GameConfig(time_budget=0.05, max_hands_per_game=1)
    out = {}

    def slow(player):
        time.sleep(0.1)
        return player.drawn

    thread = threading.Thread(target=lambda: out.setdefault("res", play(Passive(seed=0), Hooked(discard=slow),
                                                                         config=config)))
    thread.start()
    thread.join()
    assert out["res"].forfeit.rule == "time-budget" and "budget 0.05 s" in out["res"].forfeit.detail


class SlowReports(Passive):
    """Thinks in its reports: each draw or discard it is told of costs it 20 ms."""

    def report_draw(self, seat, card):
        time.sleep(0.02)
        super().report_draw(seat, card)

    def report_discard(self, seat, card):
        time.sleep(0.02)
        super().report_discard(seat, card)


def test_time_spent_in_reports_is_charged_to_the_seat_that_spends_it():
    res = play(Passive(seed=0), SlowReports(seed=1), config=GameConfig(time_budget=None, max_hands_per_game=1))
    assert res.think_time[1] > 0.1 and res.think_time[0] < 0.05
    out = {}
    thread = threading.Thread(target=lambda: out.setdefault("res", play(
        Passive(seed=0), SlowReports(seed=1), config=GameConfig(time_budget=0.05, max_hands_per_game=1))))
    thread.start()  # no alarm in a thread: the overrun is caught when the report returns
    thread.join()
    forfeit = out["res"].forfeit
    assert forfeit.rule == "time-budget" and forfeit.seat == 1 and forfeit.action in ("report_draw", "report_discard")


def test_budget_off_never_forfeits_for_time():
    res = play(Passive(seed=0), Hooked(discard=lambda p: (time.sleep(0.01), p.drawn)[1]),
               config=GameConfig(time_budget=None, max_hands_per_game=1))
    assert res.forfeit is None


class AlwaysTake(HandTrackingPlayer):
    name = "always-take"

    def wants_face_up(self, card):
        return True

    def discard(self):
        return min(c for c in range(52) if self.legal_discards() >> c & 1)

    def knock(self):
        return None

    def declare_melds(self):
        return []


def test_turn_cap_cancels_the_hand_and_hand_cap_ends_the_game_unfinished():
    config = GameConfig(time_budget=None, max_turns_per_hand=40, max_hands_per_game=3)
    res = play_game([AlwaysTake(seed=0), AlwaysTake(seed=1)], seed=5, config=config)
    assert [h.result for h in res.hands] == ["cancelled"] * 3
    assert all("turn cap" in h.note and h.turns == 40 for h in res.hands)
    assert res.winner is None and res.forfeit is None and "unfinished" in res.note


class Spy(SimplePlayer):
    """Records every argument it is handed, and the order of all calls in a shared log."""

    def __init__(self, log, seed):
        super().__init__(seed=seed)
        self.log = log
        self.args = []

    def __getattribute__(self, name):
        attr = object.__getattribute__(self, name)
        if name in ("new_game", "start_hand", "will_draw_face_up", "report_draw", "discard", "report_discard",
                    "knock", "declare_melds", "report_final_melds", "report_layoff", "report_final_hand",
                    "report_scores"):
            log, args_seen = object.__getattribute__(self, "log"), object.__getattribute__(self, "args")

            def wrapped(*args):
                log.append((name, object.__getattribute__(self, "seat") if name != "new_game" and name != "start_hand"
                            else args[0] if name == "start_hand" else None, args))
                args_seen.append((name, args))
                return attr(*args)
            return wrapped
        return attr


def _plain(value):
    if value is None or type(value) in (int, bool):
        return True
    return type(value) is tuple and all(type(v) is int for v in value)


def test_players_see_only_plain_values_and_never_the_opponents_stock_draws():
    log = []
    spies = [Spy(log, 1), Spy(log, 2)]
    res = play_game(spies, seed=11, config=GameConfig(time_budget=None), trace=True)
    assert res.forfeit is None
    for seat, spy in enumerate(spies):
        assert all(_plain(a) for _, args in spy.args for a in args)
        opp_draws = [args for name, args in spy.args if name == "report_draw" and args[0] != seat]
        own_draws = [args for name, args in spy.args if name == "report_draw" and args[0] == seat]
        assert all(card is not None for _, card in own_draws)
        assert any(card is None for _, card in opp_draws)
        assert any(card is not None for _, card in opp_draws)  # face-up draws are public
    # each opponent draw shows the real card or None, and None exactly for stock draws
    face_up_draws = [e for h in res_trace(res) for e in h["events"] if e["e"] == "offer" and e["take"]]
    for seat in (0, 1):
        seen = [a[1] for n, a in spies[seat].args if n == "report_draw" and a[0] != seat]
        real = [a[1] for n, a in spies[seat ^ 1].args if n == "report_draw" and a[0] == seat ^ 1]
        assert len(seen) == len(real)
        assert all(mine is None or mine == card for mine, card in zip(seen, real))
        shown = sum(1 for mine in seen if mine is not None)
        assert shown == sum(1 for e in face_up_draws if e["p"] == seat ^ 1)


def res_trace(res):
    return res.trace["hands"]


def test_callbacks_come_in_the_challenge_order():
    log = []
    play_game([Spy(log, 3), Spy(log, 4)], seed=2, config=GameConfig(time_budget=None, max_hands_per_game=1))
    names = [(n, who) for n, who, _ in log]
    assert names[:2] == [("new_game", None), ("new_game", None)]
    assert names[2:4] == [("start_hand", 0), ("start_hand", 1)]
    # a normal turn: offer, report_draw to both seats, discard, report_discard to both, knock
    i = next(k for k, (n, _) in enumerate(names) if n == "discard")
    cur = names[i][1]
    assert names[i - 3:i + 4] == [("will_draw_face_up", cur), ("report_draw", 0), ("report_draw", 1),
                                  ("discard", cur), ("report_discard", 0), ("report_discard", 1), ("knock", cur)]
    tail = [n for n, _ in names[names.index(("report_final_melds", 0)) - 1:]]
    assert tail[:4] == ["knock", "report_final_melds", "report_final_melds", "declare_melds"]
    assert tail[4:6] == ["report_final_melds", "report_final_melds"]
    assert tail[-6:] == ["report_final_hand"] * 4 + ["report_scores"] * 2


def test_same_seed_same_game_different_seed_different_game():
    def run(seed):
        return play_game([SimplePlayer(seed=1), SimplePlayer(seed=2)], seed=seed, trace=True,
                         player_seeds=(10, 20)).trace
    assert run(42) == run(42)
    assert run(42) != run(43)


def test_player_seeds_reseed_at_new_game():
    a = SimplePlayer(seed=1)
    b = SimplePlayer(seed=2)
    first = play_game([a, b], seed=9, player_seeds=(5, 6), trace=True).trace
    again = play_game([a, b], seed=9, player_seeds=(5, 6), trace=True).trace
    assert first == again


def test_a_game_needs_two_distinct_players():
    p = SimplePlayer(seed=1)
    with pytest.raises(ValueError):
        play_game([p, p], seed=1)
