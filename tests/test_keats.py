"""Keats bot: fuzzy collections after each kind of event, and each scoring rule on worked positions."""

import pytest
from helpers import seated

from ginbots.game.cards import parse_card as C
from ginbots.game.cards import parse_cards
from ginbots.game.engine import play_game
from ginbots.players.baselines import SimplePlayer
from ginbots.players.keats import (
    THROW_BACK_PENALTY,
    FuzzyCardCollection,
    KeatsPlayer,
    deck_collection,
    opponent_collection,
)


def keats(hand, seat=0, starter=0, **params):
    return seated(KeatsPlayer, hand, seat, starter, seed=1, **params)


def test_fuzzy_collection_can_have_and_chance():
    coll = FuzzyCardCollection(known=parse_cards("AC"), possible=parse_cards("AC 2C 3C 4C 5C"), size=3)
    assert coll.can_have_card(C("AC")) and coll.can_have_card(C("5C")) and not coll.can_have_card(C("KD"))
    assert coll.chance_of_card(C("AC")) == 1.0
    assert coll.chance_of_card(C("2C")) == pytest.approx(2 / 4)
    assert coll.chance_of_card(C("KD")) == 0.0


def test_collections_follow_offers_draws_and_discards():
    p = keats("AC 2C 3C 4H 5H 6H 7S 8S 9S AD", seat=1, starter=0)
    deck = deck_collection(p.knowledge)
    assert deck.size == 31 and deck.possible.bit_count() == 42 and not deck.can_have_card(C("AC"))
    p.report_draw(0, C("KD"))                 # the starter takes the (unseen) upcard KD
    opp = opponent_collection(p.knowledge)
    assert opp.chance_of_card(C("KD")) == 1.0 and not deck_collection(p.knowledge).can_have_card(C("KD"))
    p.report_discard(0, C("QD"))              # ... and throws QD
    assert not deck_collection(p.knowledge).can_have_card(C("QD"))
    assert p.knowledge.last_opp_discard == C("QD")
    p.will_draw_face_up(C("QD"))
    p.report_draw(1, C("5C"))                 # we draw 5C from the stock
    k = p.knowledge
    assert deck_collection(k).size == 30 and not deck_collection(k).can_have_card(C("5C"))
    p.report_discard(1, C("5C"))
    p.report_draw(0, None)                    # opponent draws from the stock: sizes only
    assert deck_collection(p.knowledge).size == 29
    p.report_discard(0, C("KD"))              # the known card leaves the opponent's hand
    opp = opponent_collection(p.knowledge)
    assert opp.chance_of_card(C("KD")) == 0.0
    assert opp.chance_of_card(C("JS")) == pytest.approx(10 / (29 + 10))  # 10 unseen cards of 39


def test_draw_score_adds_the_document_terms():
    p = keats("7H 8H KC KD QS 2C 4D 6S JC AS")
    p.knowledge.offered(C("9H"))
    # 9H completes 7H-8H-9H (+20), is mid-range (+9), costs 9 points; stock 31: not late
    assert p.draw_score(C("9H")) == 20 + 9 - 9
    assert p.wants_face_up(C("9H"))
    p.knowledge.stock_size = 10                # late game: one point less
    assert p.draw_score(C("9H")) == 20 + 9 - 9 - 1


def test_draw_score_vetoes_a_card_the_discard_rule_would_throw_straight_back():
    p = keats("AC 2C 3C 4H 5H 6H 7S 8S 9S AD")
    p.knowledge.offered(C("KD"))
    assert p.draw_score(C("KD")) == -10 - THROW_BACK_PENALTY
    assert not p.wants_face_up(C("KD"))


def _score(p, hand, card):
    return p.discard_scores(parse_cards(hand))[C(card)]


def test_pair_rules():
    hand = "AC 2C 3C 4H 5H 6H 8D 8S KC QD JS"  # melds stripped: 8D 8S KC QD JS
    p = keats("AC 2C 3C 4H 5H 6H 8D 8S KC QD")
    assert _score(p, hand, "8D") == pytest.approx(8 - 0.5 * 8)          # both other 8s may come
    p.knowledge.unknown &= ~(1 << C("8C"))                               # one 8 is gone
    assert _score(p, hand, "8D") == pytest.approx(8 - 8 / (0.5 * 31))
    p.knowledge.unknown &= ~(1 << C("8H"))                               # both gone
    assert _score(p, hand, "8D") == pytest.approx(8 + 0.5 * 8)


def test_partial_run_rules():
    hand = "AC 2C 3C 4H 5H 6H 5D 6D KC QS JS"  # stripped: 5D 6D KC QS JS
    p = keats("AC 2C 3C 4H 5H 6H 5D 6D KC QS")
    assert _score(p, hand, "5D") == pytest.approx(5 - 5 / 3)            # 4D or 7D may come
    p.knowledge.unknown &= ~parse_cards("4D 7D")
    assert _score(p, hand, "5D") == pytest.approx(5 + 0.75 * 5)          # both dead
    # a king's partial run has only one completing card; QS-KS here counts
    assert _score(p, "AC 2C 3C 4H 5H 6H QS KS 2D 8H 9C", "KS") == pytest.approx(10 - 10 / 3)


def test_opponent_discard_rules_and_the_suit_choice():
    hand = "AC 2C 3C 4H 5H 6H 9D KC QS JD TH"   # stripped: 9D KC QS JD TH (no pairs, no runs)
    p = keats("AC 2C 3C 4H 5H 6H 9D KC QS JD", seat=1, starter=0)
    p.report_draw(0, None)
    p.report_discard(0, C("9S"))                  # opponent just threw a 9 of another suit
    assert _score(p, hand, "9D") == pytest.approx(9 + 0.75 * 9)
    p.report_draw(0, None)
    p.report_discard(0, C("TS"))                  # rank +-1 of 9D, different suit (the document's text)
    assert _score(p, hand, "9D") == pytest.approx(9 + 9)
    assert _score(p, hand, "JD") == pytest.approx(10 + 10)
    same = keats("AC 2C 3C 4H 5H 6H 9D KC QS JD", seat=1, starter=0, opp_adjacent_suit="same")
    same.report_draw(0, None)
    same.report_discard(0, C("TD"))               # same-suit reading: 9D and JD get the bonus
    assert _score(same, hand, "9D") == pytest.approx(9 + 9) and _score(same, hand, "KC") == 10


def test_discard_takes_the_highest_score_and_never_the_card_just_taken():
    p = keats("AC 2C 3C 4H 5H 6H 7S 8S 9S 2D")
    p.knowledge.offered(C("KD"))
    p.face_up = C("KD")
    p.report_draw(0, C("KD"))
    p.drew_face_up = True
    assert p.discard() != C("KD")
    q = keats("AC 2C 3C 4H 5H 6H 7S 8S 9S 2D")
    q.report_draw(0, C("KD"))
    assert q.discard() == C("KD")


def test_keats_plays_hundreds_of_games_without_forfeit():
    for g in range(200):
        res = play_game([KeatsPlayer(seed=g), SimplePlayer(seed=g)][:: 1 if g % 2 else -1], seed=g)
        assert res.forfeit is None and res.winner is not None
