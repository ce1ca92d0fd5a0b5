"""The Shankar-CNN safe discarder (document 001's application) and the eq. 5 discard risk."""

from __future__ import annotations

import numpy as np
from helpers import known_run_position

from ginbots.estimators.risk import discard_risk
from ginbots.game.cards import parse_card
from ginbots.game.engine import play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.safe import SafeDiscarderPlayer


def test_discard_risk_by_hand() -> None:
    p = np.zeros(52)
    p[parse_card("7H")] = 1.0
    p[parse_card("8H")] = 0.5
    p[parse_card("9C")] = 0.4
    p[parse_card("9D")] = 0.5
    risk = discard_risk(p)
    assert risk[parse_card("9H")] == 1.0 * 0.5 + 0.4 * 0.5  # run 7H-8H-9H, set with 9C and 9D
    assert risk[parse_card("6H")] == 0.5  # run 6H-7H-8H
    assert risk[parse_card("TH")] == 0.0  # 8H-9H-TH needs 9H, which nobody may hold here
    batch = discard_risk(np.stack([p, p]))
    np.testing.assert_array_equal(batch[0], risk)


def test_safe_discarder_keeps_the_card_that_feeds_a_known_run() -> None:
    simple, safe = SimplePlayer(seed=1), SafeDiscarderPlayer(seed=1)
    known_run_position(simple)
    known_run_position(safe)
    assert simple.discard() == parse_card("9H")  # the most deadwood, next to the opponent's 7H
    choice = safe.discard()
    assert choice != parse_card("9H")
    assert choice == parse_card("6C")  # of the three safest, the one leaving least deadwood


def test_safe_discarder_plays_whole_games() -> None:
    for seed in range(3):
        result = play_game((SafeDiscarderPlayer(seed=seed), SimplePlayer(seed=seed + 10)), seed=seed)
        assert result.forfeit is None


def test_meld_danger_sums_every_meld_containing_the_card() -> None:
    from ginbots.estimators.risk import meld_danger

    p = np.zeros(52)
    for name, chance in (("7H", 1.0), ("8H", 0.5), ("TH", 0.5), ("9C", 0.4), ("9D", 0.5), ("9S", 0.2)):
        p[parse_card(name)] = chance
    danger = meld_danger(p)
    # 9H: runs 7-8-9, 8-9-T, 7-8-9-T; sets 9C 9D, 9C 9S, 9D 9S, 9C 9D 9S. Eq. 5 counts the three-card ones only.
    runs = 1.0 * 0.5 + 0.5 * 0.5 + 1.0 * 0.5 * 0.5
    sets = 0.4 * 0.5 + 0.4 * 0.2 + 0.5 * 0.2 + 0.4 * 0.5 * 0.2
    assert abs(danger[parse_card("9H")] - (runs + sets)) < 1e-12
    assert danger[parse_card("9H")] > discard_risk(p)[parse_card("9H")]
    np.testing.assert_allclose(meld_danger(np.stack([p, p]))[1], danger)


def test_the_authors_habits_never_throw_an_ace_when_another_card_will_do() -> None:
    from ginbots.game.cards import parse_cards

    for seed in range(20):
        bot = SafeDiscarderPlayer(seed=seed, habits="authors", danger="meld-sum")
        bot.new_game(seed)
        bot.start_hand(0, 0, parse_cards("AC AD 5S 9H KD 3C 4C 5C 7D 7S"))
        bot.will_draw_face_up(parse_card("QH"))
        bot.report_draw(0, parse_card("QH"))
        assert bot.discard() not in (parse_card("AC"), parse_card("AD"))
