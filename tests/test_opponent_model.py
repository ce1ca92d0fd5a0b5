"""The opponent filter: it never rules out the true hand of a minimum-deadwood player, it tells such a
player from a random one, its moves keep the history's likelihood, and it is reproducible."""

import numpy as np
import pytest

from ginbots.game.cards import completes_meld, mask_of
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import RandomPlayer, SimplePlayer
from ginbots.players.tracking import KnowledgePlayer
from ginbots.game.melds import discard_deadwoods
from ginbots.search.opponent_model import OpponentFilter, _near_discard_likelihood, _powers, completes_meld_batch


class Watcher(KnowledgePlayer):
    """Simple's play, plus a filter fed from the callbacks; it checks the filter against the
    opponent's true hand (read from the opponent object: a test-only peek)."""

    def __init__(self, opponent, seed=0, rng_seed=0, track_truth=False, particles=300, near_ratio=0.0):
        super().__init__(seed=seed)
        self.opponent, self.rng_seed, self.track_truth, self.particles = opponent, rng_seed, track_truth, particles
        self.near_ratio = near_ratio
        self.simple = SimplePlayer(seed=seed)
        self.rhos: list[float] = []
        self.truth_ok: list[bool] = []
        self.sizes: list[tuple[int, set[int]]] = []  # (cards held, live hands' card counts) after its actions

    def new_game(self, seed=None):
        super().new_game(seed)
        self.simple.new_game(seed)

    def start_hand(self, seat, starter, hand):
        super().start_hand(seat, starter, hand)
        self.simple.start_hand(seat, starter, hand)
        rho = self.filter.rho if hasattr(self, "filter") else 0.5  # carried from hand to hand
        self.filter = OpponentFilter(self.particles, np.random.default_rng(self.rng_seed), rho=rho, sweeps=1,
                                     near_ratio=self.near_ratio)
        self.declines = 0

    def _sync(self):
        declined = self.knowledge.opp_declined
        while self.declines < len(declined):
            self.filter.declined(declined[self.declines][0], self.knowledge)
            self.declines += 1

    def will_draw_face_up(self, card):
        if not self.filter.started:
            self.filter.start(self.knowledge, 1 << card)
        take = super().will_draw_face_up(card)
        self._sync()
        return take

    def wants_face_up(self, card):
        return self.simple.will_draw_face_up(card)

    def report_draw(self, seat, card):
        if not self.filter.started:
            self.filter.start(self.knowledge, 0 if card is None else 1 << card)
        super().report_draw(seat, card)
        self.simple.report_draw(seat, card)
        self._sync()
        if seat != self.seat:
            if card is None:
                self.filter.drew_stock(self.knowledge)
            else:
                self.filter.took(card, self.knowledge)
                self._record_sizes(11)  # (a stock draw joins the particles at the discard)

    def report_discard(self, seat, card):
        super().report_discard(seat, card)
        self.simple.report_discard(seat, card)
        if seat != self.seat:
            self.filter.discarded(card, self.knowledge)
            self.rhos.append(self.filter.rho)
            self._record_sizes(10)
            if self.track_truth:
                # The true hand never holds a card the filter's hard facts exclude.
                allowed = self.knowledge.unknown | self.knowledge.opp_known
                self.truth_ok.append(self.opponent.hand & ~(1 << card) & ~allowed == 0)

    def _record_sizes(self, held):
        live = self.filter.hands[self.filter.weights > 0]
        self.sizes.append((held, {int(h).bit_count() for h in live}))

    def discard(self):
        return self.simple.discard()

    def knock(self):
        return self.simple.knock()

    def declare_melds(self):
        return self.simple.declare_melds()


def test_near_discard_likelihood_weighs_every_legal_discard():
    """The near-minimum chances are those of weighing every legal discard by ratio ** (its deadwood gap)."""
    rng = np.random.default_rng(7)
    powers = _powers(0.6)
    for _ in range(200):
        cards = rng.choice(52, 11, replace=False).tolist()
        hand = mask_of(cards)
        banned = int(cards[0]) if rng.random() < 0.5 else -1
        options = {c: d for c, d in discard_deadwoods(hand) if c != banned}
        best = min(options.values())
        total = sum(0.6 ** (d - best) for d in options.values())
        for card in cards:
            got = _near_discard_likelihood(np.array([hand], dtype=np.uint64), card, banned, powers)[0]
            want = 0.0 if card == banned else 0.6 ** (options[card] - best) / total
            assert got == pytest.approx(want, rel=1e-12, abs=1e-300)


def test_completes_meld_batch_matches_the_scalar_rule():
    rng = np.random.default_rng(1)
    hands = np.array([mask_of(rng.choice(52, 10, replace=False).tolist()) for _ in range(300)], dtype=np.uint64)
    for card in (0, 12, 25, 38, 51):
        free = hands & ~np.uint64(1 << card)
        assert completes_meld_batch(card, free).tolist() == [completes_meld(card, int(h)) for h in free]


def test_discard_likelihood_is_positive_for_what_simple_throws():
    rng = np.random.default_rng(2)
    checked = 0
    while checked < 300:
        cards = rng.choice(52, 11, replace=False).tolist()
        hand = mask_of(cards)
        simple = SimplePlayer(seed=int(rng.integers(1 << 30)))
        simple.start_hand(0, 0, hand)
        simple.drawn, simple.face_up = cards[0], -2  # drew cards[0] from the stock
        card = simple.discard()
        policy, _ = OpponentFilter._discard_likelihood(np.array([hand], dtype=np.uint64), card, -1)
        assert policy[0] > 0
        checked += 1


def test_rho_tells_minimum_deadwood_play_from_random_play():
    def mean_rho(opponent_cls, seed):
        opponent = opponent_cls(seed=seed + 10)
        watcher = Watcher(opponent, seed=seed, rng_seed=seed, track_truth=True)
        result = play_game([watcher, opponent], seed=seed, config=GameConfig(time_budget=None, max_hands_per_game=3))
        assert result.forfeit is None, result.forfeit
        assert all(watcher.truth_ok)
        return sum(watcher.rhos) / len(watcher.rhos)

    # One hand can mislead (a low card thrown from a rare hand looks random under a uniform prior);
    # a few hands do not.
    assert mean_rho(SimplePlayer, 1) > 0.7
    assert mean_rho(RandomPlayer, 1) < 0.3


@pytest.mark.parametrize("near_ratio", [0.0, 0.5])
def test_filter_is_reproducible_and_rejuvenation_keeps_every_hand_possible(near_ratio):
    """With either other model (uninformative, near-minimum discards)."""
    def run():
        opponent = SimplePlayer(seed=4)
        watcher = Watcher(opponent, seed=3, rng_seed=5, near_ratio=near_ratio)
        play_game([watcher, opponent], seed=8, config=GameConfig(time_budget=None, max_hands_per_game=1))
        return watcher

    a, b = run(), run()
    assert a.rhos == b.rhos and np.array_equal(a.filter.hands, b.filter.hands)
    f = a.filter
    allowed = np.uint64(a.knowledge.unknown | a.knowledge.opp_known)
    f.hands[1:] = f.hands[0]  # as after a resampling that copied one hand
    f.history[:] = f.history[:, :1]  # every event's rows (views of the history) copied from hand 0
    f.logmix[:] = f.logmix[:, :1]
    f.weights[:] = 1.0
    before = f.hands.copy()
    f.rejuvenate(a.knowledge, sweeps=3)
    live = f.weights > 0
    assert ((f.hands[live] & ~allowed) == 0).all()
    assert all(int(h).bit_count() == 10 for h in f.hands)
    assert f.moves > 0 and not np.array_equal(before, f.hands)
    # Each live hand's recorded log-likelihoods are those of its (possibly moved) history.
    for (kind, card, banned, rho), hands, logmix in zip(f.events, f.history, f.logmix):
        policy, plain = f._policy(kind, card, banned, hands[live])
        assert np.allclose(np.log(rho * policy + (1 - rho) * plain), logmix[live])


def test_every_live_hand_has_as_many_cards_as_the_opponent():
    """Live particles hold exactly the opponent's card count after each of its actions; a card we drew
    and threw in one turn, then taken by the opponent, once left particles that already held it a
    card short (the champion's heuristic then failed on them)."""
    for seed in range(4):
        opponent = SimplePlayer(seed=seed + 20)
        watcher = Watcher(opponent, seed=seed, rng_seed=seed)
        result = play_game([watcher, opponent], seed=seed + 40,
                           config=GameConfig(time_budget=None, max_hands_per_game=3))
        assert result.forfeit is None, result.forfeit
        assert watcher.sizes
        for held, sizes in watcher.sizes:
            assert sizes == {held}, (held, sizes)


def test_moves_stop_on_very_long_hands():
    """A hostile opponent can stretch a hand for hundreds of turns; moves rescore the whole history,
    so past MAX_MOVE_EVENTS the filter stops moving hands instead of slowing every decision."""
    from ginbots.game.knowledge import Knowledge
    from ginbots.search.opponent_model import MAX_MOVE_EVENTS

    knowledge = Knowledge(0, 0, mask_of(range(10)))
    f = OpponentFilter(200, np.random.default_rng(0))
    f.start(knowledge)
    for _ in range(MAX_MOVE_EVENTS + 1):
        f.declined(51, knowledge)  # cheap events, enough of them
    f.stale = True
    before = f.hands.copy()
    f.rejuvenate(knowledge, sweeps=2)
    assert np.array_equal(before, f.hands) and f.moves == 0 and not f.stale


def test_event_rows_grow_and_reorder_like_a_list_of_rows() -> None:
    """The filter's history array: 40 appended rows (two growths), one resampling, and a restart with
    another population size; a row of another size mid-hand is refused."""
    from ginbots.search.opponent_model import _EventRows

    rng = np.random.default_rng(9)
    rows, kept = _EventRows(np.uint64), []
    for _ in range(40):
        row = rng.integers(0, 1 << 52, size=7, dtype=np.uint64)
        rows.append(row)
        kept.append(row.copy())
        row[:] = 0  # the history holds a copy
    index = rng.integers(0, 7, size=7)
    rows.reorder(index)
    assert np.array_equal(rows.rows(), np.stack([r[index] for r in kept]))
    with pytest.raises(ValueError, match="after rows of 7"):
        rows.append(np.zeros(5, dtype=np.uint64))
    rows.clear()
    rows.append(np.ones(5, dtype=np.uint64))
    assert rows.rows().tolist() == [[1] * 5]


def test_filter_sweeps_reach_the_filter() -> None:
    """``filter_sweeps`` and ``filter_near_ratio`` reach the filter; ``filter_sweeps`` sets the Metropolis sweeps the bots' filters run after a resampling."""
    from ginbots.players.champion import ChampionPlayer

    for sweeps in (0, 4):
        bot = ChampionPlayer(seed=1, filter_sweeps=sweeps, filter_near_ratio=0.5 if sweeps else 0.0)
        bot.new_game(1)
        bot.start_hand(0, 0, 0b1111111111)
        assert bot.filter.sweeps == sweeps
        assert (bot.filter.near_powers is None) == (sweeps == 0)
