"""ginbots.game.state: random legal play keeps every invariant; illegal actions change nothing."""

import random

import pytest

from ginbots.game.cards import ALL_CARDS_MASK, MAX_DEADWOOD
from ginbots.game.melds import min_deadwood
from ginbots.game.state import (
    CONTINUE,
    DECLARE,
    DECLARE_BEST,
    DISCARD,
    DRAW_STOCK,
    GAME_OVER,
    HAND_OVER,
    KNOCK,
    KNOCK_BEST,
    OFFER,
    TAKE_FACE_UP,
    GinState,
    IllegalAction,
)


def snapshot(state: GinState) -> tuple:
    return (state.phase, state.current, tuple(state.hands), tuple(state.pile), state.top, state.turns,
            state.draws, tuple(state.scores), len(state.hands_played), state.starter)


def check_invariants(state: GinState) -> None:
    if state.phase >= HAND_OVER and not state.hands_played:
        return
    stock = 0
    for c in state.stock():
        stock |= 1 << c
    pile = 0
    for c in state.pile:
        pile |= 1 << c
    parts = [state.hands[0], state.hands[1], pile, stock]
    assert sum(p.bit_count() for p in parts) == 52, "every card is in exactly one place"
    assert parts[0] | parts[1] | parts[2] | parts[3] == ALL_CARDS_MASK
    assert len(state.pile) == pile.bit_count()
    sizes = sorted(h.bit_count() for h in state.hands)
    if state.phase in (DISCARD,):
        assert state.hands[state.current].bit_count() == 11 and state.hands[state.current ^ 1].bit_count() == 10
    else:
        assert sizes == [10, 10]
    assert 52 - state.top >= 2
    assert state.scores[0] >= 0 and state.scores[1] >= 0
    assert sum(h.points for h in state.hands_played) == sum(state.scores)


def random_game(seed: int, rng: random.Random, **kwargs) -> GinState:
    state = GinState(seed, **kwargs)
    steps = 0
    while not state.is_over:
        check_invariants(state)
        if state.phase == HAND_OVER:
            state.next_hand()
            continue
        legal = state.legal_actions()
        assert legal
        # Knock when legal most of the time, so that hands end by knocks as well as by the stock.
        action = KNOCK_BEST if KNOCK_BEST in legal and rng.random() < 0.8 else rng.choice(legal)
        state.apply(action)
        steps += 1
        assert steps < 200_000
    check_invariants(state)
    return state


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_play_keeps_every_invariant(seed):
    rng = random.Random(seed)
    state = random_game(seed, rng)
    assert state.phase == GAME_OVER
    assert max(state.scores) >= 100 or state.note
    assert state.winner() in (0, 1)
    results = {h.result for h in state.hands_played}
    assert results <= {"knock", "gin", "undercut", "cancelled"}


def test_same_seed_same_game_and_clone_is_independent():
    a = random_game(5, random.Random(1))
    b = random_game(5, random.Random(1))
    assert a.scores == b.scores and [h.result for h in a.hands_played] == [h.result for h in b.hands_played]

    state = GinState(9)
    for action in (DRAW_STOCK, DRAW_STOCK):
        state.apply(action)
    copy = state.clone()
    before = snapshot(state)
    rng = random.Random(0)
    while not copy.is_over:
        if copy.phase == HAND_OVER:
            copy.next_hand()
        else:
            copy.apply(rng.choice(copy.legal_actions()))
    assert snapshot(state) == before


def test_illegal_actions_name_the_action_phase_and_legal_moves_and_change_nothing():
    state = GinState(3)
    assert state.phase == OFFER
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(CONTINUE)
    assert "continue" in str(info.value) and "phase offer" in str(info.value) and "take, stock" in str(info.value)
    assert snapshot(state) == before

    state.apply(TAKE_FACE_UP)
    assert state.phase == DISCARD
    taken = state.pile_top_taken()
    before = snapshot(state)
    with pytest.raises(IllegalAction) as info:
        state.apply(taken)
    assert info.value.rule == "discard-face-up"
    not_mine = next(c for c in range(52) if not state.hands[state.current] >> c & 1)
    with pytest.raises(IllegalAction) as info:
        state.apply(not_mine)
    assert info.value.rule == "discard-not-in-hand"
    with pytest.raises(IllegalAction):
        state.apply_discard("7C")
    with pytest.raises(IllegalAction):
        state.apply(99)
    assert snapshot(state) == before
    state.apply(state.legal_actions()[0])
    assert state.phase == KNOCK
    if min_deadwood(state.hands[state.current]) > MAX_DEADWOOD:
        before = snapshot(state)
        with pytest.raises(IllegalAction) as info:
            state.apply(KNOCK_BEST)
        assert info.value.rule == "knock-over-10"
        with pytest.raises(IllegalAction) as info:
            state.apply_knock([[0, 1]])
        assert info.value.rule == "illegal-meld"
        assert snapshot(state) == before


def test_first_upcard_passes_then_forced_stock_draw():
    state = GinState(11)
    starter = state.starter
    assert state.is_first_upcard_offer()
    state.apply(DRAW_STOCK)  # the starter passes: no draw, the other seat is offered the same card
    assert state.phase == OFFER and state.current == starter ^ 1 and state.draws == 0
    state.apply(DRAW_STOCK)  # both passed: the starter draws from the stock without an offer
    assert state.phase == DISCARD and state.current == starter and state.draws == 1 and not state.taken


def test_single_hand_ends_after_one_hand_and_declare_scores():
    rng = random.Random(2)
    for seed in range(30):
        state = GinState(seed, single_hand=True)
        while not state.is_over:
            legal = state.legal_actions()
            state.apply(KNOCK_BEST if KNOCK_BEST in legal else rng.choice(legal))
            if state.phase == DECLARE:
                assert state.legal_actions() == [DECLARE_BEST]
                assert state.observation(state.current).knocker_melds
        assert len(state.hands_played) == 1 and state.phase == GAME_OVER


def test_observation_shows_only_the_seat_view():
    state = GinState(4)
    state.apply(TAKE_FACE_UP)
    taker = state.current
    card = state.pile_top_taken()
    state.apply(next(c for c in state.legal_actions()))
    mine = state.observation(taker)
    theirs = state.observation(taker ^ 1)
    assert mine.hand == state.hands[taker] and theirs.hand == state.hands[taker ^ 1]
    assert theirs.opponent_known == 1 << card  # the only card of the taker it may know
    assert mine.opponent_known == 0
    assert theirs.stock_left == mine.stock_left == 31


def test_rule_hooks_let_an_experiment_play_a_variant_without_touching_the_default():
    class NoProtocol(GinState):
        FIRST_UPCARD_PROTOCOL = False
        STOCK_END = 51

        @staticmethod
        def score_knock(knocker_deadwood, opponent_deadwood):
            return ("knock", True, 0) if knocker_deadwood <= opponent_deadwood else ("undercut", False, 1)

    state = NoProtocol(11)
    assert not state.is_first_upcard_offer()
    state.apply(DRAW_STOCK)  # declining the first upcard draws from the stock at once
    assert state.phase == DISCARD and state.draws == 1
    assert GinState(11).is_first_upcard_offer()
    assert GinState.score_knock(5, 5) == ("undercut", False, 25)
