"""The OpenSpiel adapter: card names, the information border, legal play for every bundled bot."""

from __future__ import annotations

import random

import pyspiel
import pytest
from conftest import OPENSPIEL_RESULTS
from helpers import Passive

from ginbots.cli import openspiel_summary
from ginbots.connect.openspiel import (
    ACTION_OF_MELD,
    FROM_OPENSPIEL,
    MELD_OF_ACTION,
    TO_OPENSPIEL,
    GinbotsBot,
    meld_actions,
    openspiel_mask,
    play_hands,
    simple_bot,
)
from ginbots.game.cards import CARD_NAMES, parse_cards
from ginbots.players.baselines import SimplePlayer
from ginbots.players.registry import available_players, parse_spec

UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
GR = pyspiel.gin_rummy
PLAY_PHASES = (GR.FIRST_UPCARD, GR.DRAW, GR.DISCARD, GR.WALL)  # later, OpenSpiel removes laid cards


def test_cards_translate_by_name() -> None:
    for c in range(52):
        name = UTILS.card_string(c)  # e.g. "As", "Tc": rank then lower-case suit in s, c, d, h
        assert CARD_NAMES[FROM_OPENSPIEL[c]] == name[0] + name[1].upper()
        assert TO_OPENSPIEL[FROM_OPENSPIEL[c]] == c
    assert CARD_NAMES[FROM_OPENSPIEL[13]] == "AC"  # OpenSpiel's second suit is clubs


def test_meld_actions_cover_every_openspiel_meld_and_cut_long_runs() -> None:
    assert len(MELD_OF_ACTION) == 185
    for action, meld in MELD_OF_ACTION.items():
        assert ACTION_OF_MELD[meld] == action
        assert openspiel_mask(UTILS.int_to_meld[action - pyspiel.gin_rummy.MELD_ACTION_BASE]) == meld
    seven = parse_cards("3H 4H 5H 6H 7H 8H 9H")
    pieces = [MELD_OF_ACTION[a] for a in meld_actions([seven])]
    assert sorted(bin(p).count("1") for p in pieces) == [3, 4]
    assert pieces[0] | pieces[1] == seven and pieces[0] & pieces[1] == 0
    eleven = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS")
    assert sorted(bin(MELD_OF_ACTION[a]).count("1") for a in meld_actions([eleven])) == [3, 4, 4]


class Spy(SimplePlayer):
    """Simple, recording every card the adapter reveals to it."""

    name = "spy"

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.told: list[tuple[str, int, int | None]] = [("deal", seat, c) for c in range(52) if hand >> c & 1]

    def report_draw(self, seat: int, card: int | None) -> None:
        super().report_draw(seat, card)
        self.told.append(("draw", seat, card))

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        self.told.append(("discard", seat, card))


def test_bot_sees_only_its_own_cards_and_public_events() -> None:
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(5)
    spy = Spy(seed=1)
    for hand in range(40):
        me = hand % 2
        ours = GinbotsBot(game, me, spy, seed=3)
        theirs = simple_bot(game, me ^ 1)
        bots = {me: ours, me ^ 1: theirs}
        state = game.new_initial_state()
        public = set()  # every card that has been face up: the first upcard and each discard
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(outcomes[rng.randrange(len(outcomes))])
                continue
            if state.upcard() is not None:
                public.add(FROM_OPENSPIEL[state.upcard()])
            player, phase = state.current_player(), state.current_phase()
            action = bots[player].step(state)
            if player == me and phase in PLAY_PHASES:
                # the player's own view of its hand is exact at every decision
                truth = openspiel_mask(state.hands()[me])
                if action < 52 and phase == pyspiel.gin_rummy.DISCARD:
                    truth &= ~(1 << FROM_OPENSPIEL[action])  # already told it discarded
                elif action == pyspiel.gin_rummy.KNOCK_ACTION:
                    truth &= ~(1 << FROM_OPENSPIEL[ours._plan.actions[0]])
                assert spy.hand == truth, state
                for kind, seat, card in spy.told:
                    if seat != me:
                        assert card is None or card in public, (kind, card)
            state.apply_action_with_legality_check(action)
            if player != me and action < 52:
                public.add(FROM_OPENSPIEL[action])
        assert not ours.fallbacks, ours.fallbacks


class Rogue(SimplePlayer):
    """Discards a card it does not hold on even turns, raises on odd ones."""

    name = "rogue"
    turn = 0

    def discard(self) -> int:
        Rogue.turn += 1
        if Rogue.turn % 2:
            raise RuntimeError("boom")
        return next(c for c in range(52) if not self.hand >> c & 1)


def test_misbehaving_bot_gets_legal_fallbacks() -> None:
    result = play_hands(lambda g, p: GinbotsBot(g, p, Rogue(seed=p)), simple_bot, 20, seed=9)
    assert result.hands == 20
    assert result.fallbacks["exception"] > 0 and result.fallbacks["refused"] > 0


def test_same_seed_same_hands() -> None:
    spec = parse_spec("keats")
    runs = [play_hands(lambda g, p: GinbotsBot(g, p, spec.make(seed=p), seed=4), simple_bot, 30, seed=11).points
            for _ in range(2)]
    assert runs[0] == runs[1]


@pytest.mark.parametrize("name", sorted(n for n in available_players()))
def test_every_bundled_bot_plays_200_openspiel_hands_legally(name: str) -> None:
    spec = parse_spec(name)
    result = play_hands(lambda g, p: GinbotsBot(g, p, spec.make(seed=p), seed=1), simple_bot, 200, seed=2)
    assert result.hands == 200
    assert result.fallbacks["exception"] == 0, result.fallbacks
    assert any(p != 0 for p in result.points)
    OPENSPIEL_RESULTS.append(openspiel_summary(name, result))


def test_wall_phase_ends_a_hand_nobody_knocks() -> None:
    from helpers import Passive

    seen = []

    class Watching(GinbotsBot):
        def step(self, state):  # type: ignore[no-untyped-def]
            seen.append(state.current_phase())
            return super().step(state)

    result = play_hands(lambda g, p: Watching(g, p, Passive(seed=p)), lambda g, p: Watching(g, p, Passive(seed=p + 2)), 4,
                        seed=3)
    assert GR.WALL in seen
    assert result.points == [0.0] * 4 and not result.fallbacks


@pytest.mark.parametrize("params", [{"knock_card": 5}, {"hand_size": 7}, {"oklahoma": True}, {"gin_bonus": 20}])
def test_game_parameters_other_than_the_challenges_are_refused(params) -> None:
    game = pyspiel.load_game("gin_rummy", params)
    key = next(iter(params))
    with pytest.raises(ValueError, match=f"{key}="):
        GinbotsBot(game, 0, Passive(seed=0))


def test_the_old_argument_order_gets_a_clear_error() -> None:
    with pytest.raises(TypeError, match="game first"):
        GinbotsBot(Passive(seed=0), 0, pyspiel.load_game("gin_rummy"))  # type: ignore[arg-type]
