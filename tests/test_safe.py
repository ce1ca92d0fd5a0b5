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
