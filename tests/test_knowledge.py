"""The knowledge tracker against hand-built deals and against the truth of real games."""

from helpers import Hooked, deck_from

from ginbots.game.cards import parse_card as C
from ginbots.game.engine import GameConfig, play_game
from ginbots.game.knowledge import INITIAL_STOCK
from ginbots.players.baselines import SimplePlayer
from ginbots.players.keats import KeatsPlayer
from ginbots.players.tracking import KnowledgePlayer

ONE_HAND = GameConfig(time_budget=None, max_hands_per_game=1)
DECK = deck_from("AC 2C 3C 4H 5H 6H 7S 8S 9S AD", "KC QH JS TD 8C 6D 4S 2H 9D 7C", "5D", "KD QD JD TC")


class Recorder(KnowledgePlayer):
    """Passive play; snapshots its knowledge at every decision."""

    name = "recorder"

    def __init__(self, take=(), **kw):
        super().__init__(seed=0, **kw)
        self.take = set(take)
        self.snaps = []

    def snap(self, what):
        k = self.knowledge
        self.snaps.append(dict(what=what, pile=list(k.pile), stock=k.stock_size, opp_known=k.opp_known,
                               unknown=k.unknown, declined=list(k.opp_declined), picked=list(k.opp_picked),
                               discards=list(k.opp_discards), opp_turns=k.opp_turns))

    def wants_face_up(self, card):
        self.snap(("offer", card))
        return card in self.take

    def discard(self):
        self.snap("discard")
        return self.drawn if not self.drew_face_up else max(c for c in range(52) if self.legal_discards() >> c & 1)

    def knock(self):
        return None

    def declare_melds(self):
        return []


def test_both_decline_the_upcard_seen_from_each_seat():
    starter, second = Recorder(), Recorder()
    play_game([starter, second], seed=1, config=ONE_HAND, decks=[DECK], first_starter=0)
    # seat 1 is offered the upcard: it infers that the starter declined and skipped
    first = second.snaps[0]
    assert first["what"] == ("offer", C("5D")) and first["declined"] == [(C("5D"), 0)] and first["opp_turns"] == 1
    assert first["pile"] == [C("5D")] and not first["unknown"] >> C("5D") & 1
    # the starter's forced draw: it infers the second player declined too
    assert starter.snaps[1]["what"] == "discard"
    assert starter.snaps[1]["declined"] == [(C("5D"), 0)] and starter.snaps[1]["opp_turns"] == 1
    assert starter.snaps[1]["stock"] == INITIAL_STOCK - 1
    # seat 1's first real offer (the starter's discard KD): the forced draw was no decline
    offer = second.snaps[1]
    assert offer["what"] == ("offer", C("KD")) and offer["declined"] == [(C("5D"), 0)]
    assert offer["discards"] == [(C("KD"), 1)] and offer["stock"] == INITIAL_STOCK - 1


def test_opponent_face_up_pickups_are_known_until_discarded():
    taker = Recorder(take=[C("5D")])
    watcher = Recorder()
    play_game([taker, watcher], seed=1, config=ONE_HAND, decks=[DECK], first_starter=0)
    # seat 1 never saw the upcard offered: it learns it from the starter's draw
    snap = watcher.snaps[0]
    assert snap["picked"] == [(C("5D"), 0)] and snap["opp_known"] == 1 << C("5D")
    assert snap["unknown"].bit_count() == INITIAL_STOCK + 10 - 1
    assert snap["pile"] == [max(c for c in parse_cards_list("AC 2C 3C 4H 5H 6H 7S 8S 9S AD"))]


def parse_cards_list(text):
    return [C(c) for c in text.split()]


class Checked(KeatsPlayer):
    """Keats that checks the tracker's bookkeeping identities at each decision."""

    def wants_face_up(self, card):
        self._check()
        return super().wants_face_up(card)

    def discard(self):
        self._check()
        return super().discard()

    def _check(self):
        k = self.knowledge
        assert k.hand == self.hand
        assert k.stock_size + k.opp_unknown_count == k.unknown.bit_count()
        assert not k.unknown & k.hand and not k.opp_known & k.unknown and not k.opp_known & k.hand
        for c in k.pile:
            assert not (k.unknown | k.hand | k.opp_known) >> c & 1
        self.checks = getattr(self, "checks", 0) + 1


def test_tracker_identities_and_final_stock_size_in_real_games():
    for g in range(6):
        me = Checked(seed=g)
        res = play_game([me, SimplePlayer(seed=g)] if g % 2 else [SimplePlayer(seed=g), me], seed=g, trace=True)
        assert res.forfeit is None and me.checks > 20
        last = res.trace["hands"][-1]["events"]
        draws = [e for e in last if e["e"] == "draw"]
        taken = [e for e in last if e["e"] == "offer" and e["take"]]
        assert me.knowledge.stock_size == INITIAL_STOCK - (len(draws) - len(taken))


def test_hooked_player_sees_a_plain_callback_sequence():
    # Sanity check of the helper used across protocol tests.
    res = play_game([Hooked(), Hooked()], seed=1, config=ONE_HAND, decks=[DECK], first_starter=0)
    assert res.hands[0].result == "cancelled"
