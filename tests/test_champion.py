"""The champion and its playouts: exact helpers, the opponent model, time metering, reproducibility."""

import random

import numpy as np

from ginbots.game.cards import (CARD_POINTS, MAX_DEADWOOD, completes_meld, mask_of, parse_card, parse_cards, points_of,
                                 union)
from ginbots.game.engine import GameConfig, play_game
from ginbots.game.melds import best_meld_set, discard_outcomes, min_deadwood
from ginbots.game.rules import lay_off, score_knock
from ginbots.players.baselines import SimplePlayer
from ginbots.players.champion import ChampionPlayer
from ginbots.search.rollout import guarded_discard, knock_points, play_out, simple_discard


def test_simple_discard_is_the_least_deadwood_costliest_card():
    rng = random.Random(1)
    for i in range(5000):
        hand = mask_of(rng.sample(range(52), 11))
        banned = rng.choice([c for c in range(52) if hand >> c & 1]) if i % 2 else -1
        best = min((dw, -CARD_POINTS[c]) for c, dw, _ in discard_outcomes(hand) if c != banned)
        card, deadwood = simple_discard(hand, banned)
        assert card != banned and (deadwood, -CARD_POINTS[card]) == best
        assert min_deadwood(hand ^ 1 << card) == deadwood


def test_guarded_discard_holds_back_what_the_other_hand_melds():
    hand = parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KS QD")  # Simple throws the king of spades
    other = parse_cards("KH KD 2D 5D 8D TD JC 3C 6C 9H")  # which completes the other hand's kings
    assert simple_discard(hand)[0] == parse_card("KS")
    assert guarded_discard(hand, -1, other, 0) == (parse_card("QD"), 10)  # as cheap and safe
    assert guarded_discard(hand, -1, other, -1) == simple_discard(hand)
    # every safe card costs more deadwood than the slack allows: Simple's after all
    tight = parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KS QH")
    assert guarded_discard(tight, -1, other | parse_cards("QS QC"), 0) == simple_discard(tight)
    rng = random.Random(4)
    for _ in range(2000):
        cards = rng.sample(range(52), 21)
        hand, other = mask_of(cards[:11]), mask_of(cards[11:])
        slack = rng.choice((0, 4, 30))
        card, deadwood = guarded_discard(hand, -1, other, slack)
        assert min_deadwood(hand ^ 1 << card) == deadwood <= simple_discard(hand)[1] + slack
        if completes_meld(card, other):  # a card it gives away: nothing safe was affordable
            assert (card, deadwood) == simple_discard(hand)


def test_knock_points_score_as_the_engine_does():
    rng = random.Random(2)
    checked = 0
    while checked < 300:
        cards = rng.sample(range(52), 20)
        knocker, defender = mask_of(cards[:10]), mask_of(cards[10:])
        if min_deadwood(knocker) > MAX_DEADWOOD:
            continue
        melds = best_meld_set(knocker)
        knocker_dw = points_of(knocker & ~union(melds))
        unmelded = defender & ~union(best_meld_set(defender))
        if knocker_dw:
            for card, _, _ in lay_off(unmelded, list(melds)):
                unmelded ^= 1 << card
        _, wins, points = score_knock(knocker_dw, points_of(unmelded))
        assert knock_points(knocker, defender) == (points if wins else -points)
        checked += 1


def test_play_out_ends_and_respects_the_stock_end():
    rng = random.Random(3)
    for _ in range(200):
        deck = rng.sample(range(52), 52)
        us, them = mask_of(deck[:10]), mask_of(deck[10:20])
        result = play_out(us, them, deck[21:], 0, deck[20], 1, (10, 10))
        assert -150 < result < 150
    # two cards of stock left: nobody may draw, the hand is cancelled
    deck = list(range(52))
    assert play_out(mask_of(deck[:10]), mask_of(deck[10:20]), deck[49:51], 0, deck[48], 0, (10, 10)) == 0


def test_opponent_model_reads_knocks_and_kept_hands():
    bot = ChampionPlayer(seed=0)
    bot.new_game(0)
    assert bot.opponent_knock_at() == 10  # the prior
    bot.opp_declines = [4, 7]
    assert bot.opponent_knock_at() == 3   # it kept 4 points without knocking
    bot.opp_knocks = [0, 0]
    assert bot.opponent_knock_at() == 3
    bot.opp_declines, bot.opp_knocks = [], [8, 6]
    assert bot.opponent_knock_at() == 10  # knocks at 8 and 6, never waited: Simple-like
    bot.opp_declines, bot.opp_knocks = [2], [9, 8, 7]
    assert bot.opponent_knock_at() == 8   # inconsistent: its typical knock


def test_knock_learning_marks_knocks_down_by_this_games_errors():
    bot = ChampionPlayer(seed=0, knock_learning=2.0, memory_hands=0)
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))  # we sit in seat 1
    assert bot.knock_correction() == 0.0
    bot.report_scores((0, 0))
    bot.pending_knock = 18.0           # we knocked expecting +18 ...
    bot.report_scores((27, 0))         # ... and the opponent scored 27 (an undercut)
    assert bot.knock_errors == [45.0] and bot.pending_knock is None
    assert bot.knock_correction() == 15.0  # 45 over 1 knock + 2 pseudo-knocks
    bot.report_scores((27, 9))         # a hand we did not knock: nothing learned
    assert bot.knock_errors == [45.0]
    bot.new_game(1)
    assert bot.knock_correction() == 0.0 and bot.last_scores == (0, 0)
    remembering = ChampionPlayer(seed=0, knock_learning=2.0)  # memory_hands=30, the default
    remembering.new_game(0)
    remembering.start_hand(1, 0, mask_of(range(10)))
    remembering.pending_knock = 18.0
    remembering.report_scores((27, 0))
    remembering.new_game(1)
    assert remembering.knock_errors == [45.0] and remembering.knock_correction() == 15.0


def test_knock_learning_by_deadwood_scales_the_errors_by_the_deadwood_knocked_with():
    bot = ChampionPlayer(seed=0, knock_learning=2.0, knock_learning_by="deadwood")
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))
    assert bot.knock_correction(4) == 0.0
    bot.pending_knock, bot.pending_deadwood = 18.0, 8
    bot.report_scores((27, 0))         # an undercut of our 8 points: erred by 45
    bot.start_hand(1, 0, mask_of(range(10)))
    bot.pending_knock, bot.pending_deadwood = 10.0, 2
    bot.report_scores((27, 25))        # a knock with 2 points that paid 25: erred by -15
    assert bot.knock_deadwoods == [8, 2] and bot.knock_errors == [45.0, -15.0]
    # 30 points of error over 10 points knocked with, plus 2 pseudo-knocks at the deadwood asked about
    assert bot.knock_correction(2) == 30 / (10 + 4) * 2
    assert bot.knock_correction(9) == 30 / (10 + 18) * 9
    assert bot.knock_correction() == 30 / 4  # no deadwood given: the mean, as knock_learning_by=mean
    flat = ChampionPlayer(seed=0, knock_learning=2.0)  # knock_learning_by=mean, the default
    flat.new_game(0)
    flat.knock_errors, flat.knock_deadwoods = [45.0, -15.0], [8, 2]
    assert flat.knock_correction(2) == flat.knock_correction(9) == 30 / 4
    bot.new_game(1)                    # remembered together (memory_hands=30)
    assert bot.knock_deadwoods == [8, 2] and bot.knock_errors == [45.0, -15.0]


def test_play_on_learning_takes_the_play_ons_bias_off_the_knocks():
    """Play-ons are learned a hand at a time, the mean prediction of the hand against its points,
    and what they overrate is taken off the knock correction (the same worlds bias both branches)."""
    bot = ChampionPlayer(seed=0, knock_learning=2.0, play_on_learning=1.0)
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))
    bot.hand_play_ons = [20.0, 30.0]   # we played on twice, expecting +25 on average ...
    bot.report_scores((0, 5))          # ... and won 5
    assert bot.play_on_errors == [20.0] and bot.hand_play_ons == []
    assert bot.knock_correction() == -10.0  # 20 over 1 hand + 1 pseudo-hand, taken off the knocks'
    bot.pending_knock = 18.0
    bot.report_scores((27, 5))         # an undercut: the knock erred by 45
    assert bot.knock_correction() == 15.0 - 10.0
    off = ChampionPlayer(seed=0, knock_learning=2.0)  # play_on_learning=0 (the default): knocks alone
    off.new_game(0)
    off.start_hand(1, 0, mask_of(range(10)))
    off.hand_play_ons = [25.0]
    off.report_scores((0, 5))
    assert off.knock_correction() == 0.0



def test_second_estimator_takes_over_once_revealed_hands_favour_it():
    """The opponent model switches only when the revealed hands favour the second estimator by the
    margin, and each game starts again from the first."""
    import numpy as np

    from ginbots.estimators import shared_estimator

    bot = ChampionPlayer(seed=0, second_estimator="mlp8-heuristic", switch_by="revealed", switch_margin=3.0)
    bot.new_game(0)
    bot.start_hand(1, 0, mask_of(range(10)))
    assert bot.estimator() is shared_estimator("mlp8")
    revealed = mask_of(range(20, 30))
    unknown = mask_of(range(10, 52))
    sharp = np.where([20 <= c < 30 for c in range(52)], 0.9, 0.05)  # the second model saw it coming
    flat = np.full(52, 10 / 42)
    bot.model_check = (unknown, flat, sharp)
    bot.report_final_hand(0, revealed)
    assert bot.second_lead > 3.0 and bot.estimator() is shared_estimator("mlp8-heuristic")
    bot.new_game(1)
    assert bot.estimator() is shared_estimator("mlp8")
    bot.start_hand(1, 0, mask_of(range(10)))
    bot.model_check = (unknown, sharp, flat)  # now the first model is the sharp one
    bot.report_final_hand(0, revealed)
    assert bot.second_lead < 0 and bot.estimator() is shared_estimator("mlp8")
    off = ChampionPlayer(seed=0, second_estimator="none")
    off.new_game(0)
    off.second_lead = 100.0
    assert off.estimator() is shared_estimator("mlp8")


def test_champion_plays_gin_waiters_and_simple_reproducibly_within_its_budget():
    config = GameConfig(time_budget=30.0)
    for knock_at in (10, 0):
        results = [play_game([ChampionPlayer(seed=7, worlds=12), SimplePlayer(seed=5, knock_at=knock_at)], seed=11,
                             config=config) for _ in range(2)]
        assert results[0].forfeit is None and max(results[0].scores) >= 100
        assert results[0].scores == results[1].scores
    cheap = ChampionPlayer(seed=1, game_playouts=1000, worlds=200)
    result = play_game([cheap, SimplePlayer(seed=2)], seed=3, config=config)
    assert result.forfeit is None
    # The budget is checked before each search; one search (at most 4 candidates on 200 worlds) may pass it.
    assert 1000 <= cheap.playouts <= 1000 + 4 * 200


def _budgeted_traces(games: int) -> list:
    """Games whose search budget runs out mid-game (a small budget, so the cut-off point matters)."""
    traces = []
    for game in range(games):
        champion = ChampionPlayer(seed=game, worlds=8, game_playouts=100)
        result = play_game([champion, SimplePlayer(seed=100 + game)], seed=200 + game, trace=True,
                           config=GameConfig(time_budget=None, max_hands_per_game=3))
        assert champion.playouts >= 100  # the budget did bind
        traces.append((result.trace["hands"], result.scores, champion.playouts))
    return traces


def _hog(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def test_the_same_seed_gives_the_same_games_under_a_cpu_hog():
    """The budget counts work, not seconds: a machine made busy by other processes plays the same games."""
    import multiprocessing

    quiet = _budgeted_traces(4)
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    hogs = [ctx.Process(target=_hog, args=(stop,), daemon=True) for _ in range(4)]
    for hog in hogs:
        hog.start()
    try:
        busy = _budgeted_traces(4)
    finally:
        stop.set()
        for hog in hogs:
            hog.join(5)
    assert busy == quiet


def test_the_hosts_clock_stops_the_search_and_says_so(capsys):
    """time_left under host_reserve: the heuristic alone, counted and reported at the game's end."""
    short = ChampionPlayer(seed=3, worlds=8, host_reserve=5.0)
    original = short._searching

    def with_clock():
        short.time_left = 1.0  # the host says one second is left
        return original()

    short._searching = with_clock
    result = play_game([short, SimplePlayer(seed=9)], seed=21, config=GameConfig(time_budget=None))
    assert result.forfeit is None and short.playouts == 0 and short.clock_stops > 0
    assert "host's clock stopped the search" in capsys.readouterr().err


def test_champion_with_the_opponent_filter_plays_reproducibly():
    def play():
        bot = ChampionPlayer(seed=4, worlds=12, opponent_filter=True, filter_particles=300)
        result = play_game([bot, SimplePlayer(seed=6)], seed=13,
                           config=GameConfig(time_budget=30.0, max_hands_per_game=2))
        return result, bot

    (first, bot), (second, _) = play(), play()
    assert first.forfeit is None and first.scores == second.scores
    assert bot.filter.started and 0.0 < bot.rho < 1.0


def test_the_filter_can_pick_the_second_estimator_without_its_hands_being_used():
    """switch_by=filter with opponent_filter=false: the filter runs (and keeps its hands spread) only to
    weigh minimum-deadwood play; the mean of its end-of-hand rho picks the model, and its hands are never
    trusted."""
    from ginbots.estimators import shared_estimator

    bot = ChampionPlayer(seed=4, worlds=12, second_estimator="mlp8-heuristic", switch_by="filter",
                         switch_rho=0.6, filter_particles=300, memory_hands=0, opponent_filter=False)
    trusted = []
    original = bot.trusts_filter
    bot.trusts_filter = lambda: trusted.append(original()) or trusted[-1]
    result = play_game([bot, SimplePlayer(seed=6)], seed=13, config=GameConfig(time_budget=30.0, max_hands_per_game=3))
    assert result.forfeit is None and bot.filter.started and bot.filter.moves > 0
    assert len(bot.hand_rhos) == len(result.hands) and not any(trusted)
    bot.hand_rhos = [0.9, 0.5]  # mean 0.7: Simple-like, the first model
    assert bot.estimator() is shared_estimator("mlp8")
    bot.hand_rhos = [0.9, 0.2]  # mean 0.55: not minimum-deadwood play, the second
    assert bot.estimator() is shared_estimator("mlp8-heuristic")
    bot.new_game(1)
    assert bot.hand_rhos == [] and bot.estimator() is shared_estimator("mlp8")


def test_filter_trust_when_can_also_ask_the_estimator_switch():
    """filter_trust_when: rho alone (the default), or also the mean of finished hands' rho
    (the switch's reading, which rho within one hand against a heuristic player is not); the gated
    modes move the filter's hands themselves while the decisions do not read them."""
    bots = {when: ChampionPlayer(seed=4, worlds=12, opponent_filter=True, filter_trust_when=when,
                                 filter_particles=300, memory_hands=0)
            for when in ("rho", "simple-like", "shown-simple-like")}
    for bot in bots.values():
        bot.new_game(1)
        bot.start_hand(0, 0, mask_of(range(10)))
        bot._start_filter(0)
        bot.filter.rho = 0.9  # the filter explains this hand's play well
    assert [bot.trusts_filter() for bot in bots.values()] == [True, True, False]  # nothing shown yet
    for bot in bots.values():
        bot.hand_rhos = [0.3, 0.2]  # but the finished hands did not: the switch took the second model
    assert [bot.trusts_filter() for bot in bots.values()] == [True, False, False]
    for bot in bots.values():
        bot.hand_rhos = [0.9, 0.8]
    assert all(bot.trusts_filter() for bot in bots.values())
    bots["shown-simple-like"].filter.rho = 0.4  # under filter_trust: never trusted
    assert not bots["shown-simple-like"].trusts_filter()
    assert not bots["rho"]._refresh_on_discard() and bots["shown-simple-like"]._refresh_on_discard()
    bots["rho"].filter.rho = 0.4
    assert not bots["rho"]._refresh_on_discard()  # untrusted: left to the reads, as measured
    bots["rho"].params["filter_move_untrusted"] = True
    assert bots["rho"]._refresh_on_discard()
    result = play_game([ChampionPlayer(seed=4, worlds=12, opponent_filter=True, filter_particles=300,
                                       filter_trust_when="shown-simple-like"), SimplePlayer(seed=6)],
                       seed=13, config=GameConfig(time_budget=30.0, max_hands_per_game=2))
    assert result.forfeit is None


def test_memory_carries_the_opponents_evidence_into_later_games():
    """memory_hands=N: a new game starts from the last N entries of what earlier games showed (so the
    second estimator can serve a game's first hand); 0 starts each game afresh."""
    from ginbots.estimators import shared_estimator

    bot = ChampionPlayer(seed=4, worlds=12, memory_hands=3, filter_particles=300)
    result = play_game([bot, SimplePlayer(seed=6)], seed=13, config=GameConfig(time_budget=30.0, max_hands_per_game=4))
    assert result.forfeit is None and len(bot.hand_rhos) == len(result.hands) >= 2
    bot.hand_rhos, bot.opp_knocks, bot.knock_errors = [0.9, 0.1, 0.2, 0.3], [8, 9], [4.0, 5.0, 6.0, 7.0]
    bot.opp_declines = [3]
    bot.new_game(1)
    assert bot.hand_rhos == [0.1, 0.2, 0.3] and bot.opp_knocks == [8, 9] and bot.opp_declines == [3]
    assert bot.knock_errors == [5.0, 6.0, 7.0] and bot.last_scores == (0, 0)
    bot.start_hand(1, 0, mask_of(range(10)))
    assert bot.estimator() is shared_estimator("gbt")  # the second model (the default), before this game's first hand ends
    assert bot.knock_correction() == 18.0 / 5 and bot.opponent_knock_at() == 8  # the carried knocks
    fresh = ChampionPlayer(seed=4, memory_hands=0)
    fresh.new_game(0)
    fresh.hand_rhos = [0.1]
    fresh.new_game(1)
    assert fresh.hand_rhos == [] and fresh.estimator() is shared_estimator("mlp8")


def test_champion_stops_searching_when_the_hosts_clock_runs_short(monkeypatch):
    searched = []
    real_race = ChampionPlayer._race

    def counting_race(self, options, worlds):
        searched.append(self.time_left)
        return real_race(self, options, worlds)

    monkeypatch.setattr(ChampionPlayer, "_race", counting_race)

    class OnHostClock(ChampionPlayer):
        """As behind the bridge: the host's time_left arrives with the hand's messages."""

        left = 30.0

        def start_hand(self, seat, starter, hand):
            super().start_hand(seat, starter, hand)
            self.time_left = self.left

    def play(left):
        searched.clear()
        bot = OnHostClock(seed=7, worlds=12)
        bot.left = left
        result = play_game([bot, SimplePlayer(seed=5)], seed=11, config=GameConfig(time_budget=30.0))
        assert result.forfeit is None
        return len(searched)

    assert play(30.0) > 0  # plenty on the host's clock: it searches
    assert play(1.0) == 0  # under host_reserve (1.5 s): the heuristic alone
    bot = ChampionPlayer(seed=0)
    bot.time_left = 0.3
    bot.new_game(1)
    assert bot.time_left is None  # a new game's clock is the host's to report again


def paired_discard_values(deal_seed: int, knob: str, weight: float):
    """The same first decision (a shuffled deal's ten cards and one draw) seen by a champion with ``knob=0``
    and one with ``knob=weight``: the second player, the candidates, the first's discard values (the base), the
    second's, and the second's opponent holdings."""
    rng = random.Random(deal_seed)
    deck = list(range(52))
    rng.shuffle(deck)
    players = {w: ChampionPlayer(seed=4, afterstate_weight=0.0, **{knob: w}) for w in (0.0, weight)}
    for player in players.values():
        player.prepare()
        player.new_game(4)
        player.start_hand(0, 1, mask_of(deck[:10]))
        player.report_draw(0, deck[10])
    plain, other = players[0.0], players[weight]
    candidates = [c for c in range(52) if plain.hand >> c & 1]
    holds = plain.estimator().estimate(plain.knowledge)
    base = plain.discard_values(candidates, plain.sampled_opponents(holds), holds, prune=False)
    holds = other.estimator().estimate(other.knowledge)
    values = other.discard_values(candidates, other.sampled_opponents(holds), holds, prune=False)
    return other, candidates, base, values, holds


def test_learned_discard_adds_the_networks_centred_score_to_every_candidate():
    """``learned_discard=w``: each discard's value is the heuristic's full value plus w x the learned score
    of the hand it leaves, centred over the candidates; w = 0 leaves the heuristic's values alone."""
    from ginbots.players.learned_discard import learned_offence

    learned, candidates, base, values, _ = paired_discard_values(11, "learned_discard", 0.5)
    offence = learned_offence(learned.hand, candidates, learned.knowledge, "random-256-worst")
    assert abs(float(offence.sum())) < 1e-6 and float(offence.std()) > 0.1
    for card, score in zip(candidates, offence):
        assert abs(values[card] - (base[card] + 0.5 * float(score))) < 1e-6


def test_world_tilt_samples_structured_opponent_hands_consistent_with_what_we_know():
    """world_tilt keeps the estimator's hands in proportion to exp(-tilt x deadwood): the worlds' mean
    deadwood falls, every hand stays one the opponent may hold, and the same seed gives the same hands."""
    from statistics import mean

    from ginbots.game.melds import min_deadwood as dw

    def worlds(tilt: float) -> tuple[list[int], int]:
        bot = ChampionPlayer(seed=3, world_tilt=tilt, worlds=200)
        bot.new_game(3)
        bot.start_hand(0, 0, mask_of([0, 13, 26, 1, 14, 27, 40, 5, 18, 31]))
        return [w[0] for w in bot.sampled_worlds()], bot.knowledge.unknown

    plain, unknown = worlds(0.0)
    tilted, _ = worlds(0.1)
    assert tilted == worlds(0.1)[0]
    assert all(h.bit_count() == 10 and h & ~unknown == 0 for h in plain + tilted)
    assert mean(map(dw, tilted)) < mean(map(dw, plain)) - 5


def test_tilt_for_drop_lowers_the_weighted_mean_by_the_drop_asked():
    import numpy as np

    from ginbots.search.playouts import tilt_for_drop

    deadwood = np.random.default_rng(0).integers(0, 60, 400)
    for drop in (4.0, 12.0):
        weights = np.exp(-tilt_for_drop(deadwood, drop) * deadwood)
        assert abs((weights * deadwood).sum() / weights.sum() - (deadwood.mean() - drop)) < 0.01
    assert tilt_for_drop(deadwood, 0.0) == 0.0 and tilt_for_drop(deadwood, 100.0) == 1.0


def _learned_bot(gaps: list[float], **params) -> ChampionPlayer:
    """A champion (tilt_learning=2, filter off) at the start of a hand, with these gaps already learned."""
    bot = ChampionPlayer(seed=3, tilt_learning=2.0, opponent_filter=False, **params)
    bot.new_game(3)
    bot.world_gaps = list(gaps)
    bot.start_hand(0, 0, mask_of([0, 13, 26, 1, 14, 27, 40, 5, 18, 31]))
    return bot


def _gaps_after_three_games(**params) -> list[float]:
    """The gaps a champion (tilt_learning=2, filter off, 96 worlds, the plain draw margin) learns in three games
    against Simple.

    96 worlds, no early-knocker draw margin, a draw margin of 2 and no learned knock value pin the scenario these
    seeds give: three searched knocks before the champion's first gin."""
    bot = ChampionPlayer(seed=5, tilt_learning=2.0, opponent_filter=False, worlds=96, early_knocker_override=-1.0,
                         override_margin=2.0, knock_net=0.0, **params)
    for g in range(3):
        other = SimplePlayer(seed=g)
        play_game((bot, other) if g % 2 == 0 else (other, bot), seed=40 + g)
    return bot.world_gaps


def test_tilt_learning_lowers_the_worlds_deadwood_by_the_gaps_the_opponent_showed():
    """tilt_learning: the gaps between the worlds' and the revealed deadwood after our searched knocks,
    shrunk, set how far the next worlds' mean deadwood falls; none learned, the worlds are the plain ones."""
    from statistics import mean

    from ginbots.game.melds import min_deadwood as dw

    def worlds(gaps: list[float]) -> list[int]:
        return [w[0] for w in _learned_bot(gaps, worlds=200).sampled_worlds()]

    plain = mean(map(dw, worlds([])))
    assert mean(map(dw, worlds([12.0] * 8))) < plain - 6  # 12 x 8 / (8 + 2) = 9.6 points asked
    assert abs(mean(map(dw, worlds([-5.0] * 8))) - plain) < 3  # worlds that were too low are not raised


def test_gin_gaps_learns_a_gap_at_our_gins_as_well_as_at_our_searched_knocks():
    knocks_only, with_gins = _gaps_after_three_games(gin_gaps=False), _gaps_after_three_games(gin_gaps=True)
    assert len(with_gins) > len(knocks_only)
    assert with_gins[:2] == knocks_only[:2]  # the same games until its first gin, after two searched knocks


def test_gain_learning_lowers_the_heuristics_sampled_hands_by_the_same_learned_drop():
    """gain_learning: the heuristic's own sampled opponent hands fall by the drop tilt_learning learned;
    without it (or with no gap known yet) they are the estimator's plain draws."""
    from statistics import mean

    from ginbots.game.melds import min_deadwood as dw

    def sampled(gaps: list[float], gain_learning: bool) -> list[int]:
        bot = _learned_bot(gaps, gain_learning=gain_learning, samples=200)
        return [int(h) for h in bot.sampled_opponents()]

    plain = sampled([12.0] * 8, False)
    assert sampled([], True) == sampled([], False)  # nothing learned: the same draws
    assert mean(map(dw, sampled([12.0] * 8, True))) < mean(map(dw, plain)) - 6


def test_tilt_learning_records_the_gap_after_its_searched_knocks():
    gaps = _gaps_after_three_games()
    assert gaps and all(-100 < gap < 100 for gap in gaps)  # deadwood minus deadwood


def test_knock_worlds_sets_the_knock_decisions_worlds_apart_from_the_draws():
    """knock_worlds: the searched knocks sample that many worlds, the draws keep `worlds`; 0 is `worlds` for both."""

    class Counting(ChampionPlayer):
        def sampled_worlds(self, count: int = 0):
            worlds = super().sampled_worlds(count)
            self.sizes.setdefault(self.decision, set()).add(len(worlds))
            return worlds

        def _knock_values(self, hand: int):
            self.decision = "knock"
            return super()._knock_values(hand)

        def _search_draw(self, *args):
            self.decision = "draw"
            return super()._search_draw(*args)

    def sizes(**params) -> dict[str, set[int]]:
        bot = Counting(seed=2, worlds=8, opponent_filter=False, **params)
        bot.sizes = {}
        for g in range(2):
            other = SimplePlayer(seed=g)
            play_game((bot, other) if g % 2 == 0 else (other, bot), seed=60 + g)
        return bot.sizes

    assert sizes(knock_worlds=24) == {"knock": {24}, "draw": {8}}
    assert sizes() == {"knock": {8}, "draw": {8}}


def test_early_knocker_margin_applies_only_once_the_opponent_has_shown_an_early_threshold():
    bot = ChampionPlayer(seed=0, early_knocker_margin=6.0, knock_margin=1.0, memory_hands=0)
    bot.new_game(0)
    assert bot.knock_margin() == 1.0                 # nothing shown yet: the prior alone does not set it
    bot.opp_knocks = [9]                              # it knocked with 9 points of deadwood
    assert bot.opponent_knock_at() == 10 and bot.knock_margin() == 7.0
    bot.opp_knocks, bot.opp_declines = [0], [1]       # gin, and a hand of 1 kept: a gin-waiter
    assert bot.opponent_knock_at() == 0 and bot.knock_margin() == 1.0
    bot.opp_knocks, bot.opp_declines = [3, 4], [6]    # knocks at 4, keeps 6: a threshold of 5
    assert bot.opponent_knock_at() == 5 and bot.knock_margin() == 7.0
    assert ChampionPlayer(seed=0, knock_margin=1.0).knock_margin() == 1.0  # off by default


def test_early_knocker_override_sets_the_draws_margin_only_once_the_opponent_has_shown_an_early_threshold():
    bot = ChampionPlayer(seed=0, early_knocker_override=1.0, override_margin=2.0, memory_hands=0)
    bot.new_game(0)
    assert bot.draw_override_margin() == 2.0          # nothing shown yet: the prior alone does not set it
    bot.opp_knocks = [9]
    assert bot.draw_override_margin() == 1.0
    bot.opp_knocks, bot.opp_declines = [0], [1]       # a gin-waiter keeps the plain margin
    assert bot.draw_override_margin() == 2.0
    off = ChampionPlayer(seed=0, early_knocker_override=-1.0, memory_hands=0)
    off.new_game(0)
    off.opp_knocks = [9]
    assert off.draw_override_margin() == off.params["override_margin"]  # off: the plain margin always
    assert ChampionPlayer(seed=0).params["early_knocker_override"] == 1.0  # on by default


class _KnockableDiscards(ChampionPlayer):
    """Records each knockable-discard search (the hand, the heuristic's choice, the raced option keys and
    the card played); ``means`` (if set) scripts the race's results from the keys and the choice."""

    searches: list
    means = None
    racing = False

    def _search_knockable_discard(self, choice: int) -> int:
        self.racing, self.choice = True, choice
        card = super()._search_knockable_discard(choice)
        self.racing = False
        self.searches.append((self.hand, choice, self.keys, card))
        return card

    def _search_discard(self, choice: int) -> int:
        raise AssertionError("search_discards=knockable searched an unknockable discard")

    def _race(self, options, count):
        if not self.racing:
            return super()._race(options, count)
        self.keys = sorted(options)
        return super()._race(options, count) if self.means is None else self.means(self.keys, self.choice)


def _knockable_searches(means=None, **params) -> list:
    bot = _KnockableDiscards(seed=4, worlds=8, search_discards="knockable", memory_hands=0, **params)
    bot.searches, bot.means = [], means
    for g in range(3):
        other = SimplePlayer(seed=g)
        play_game((bot, other) if g % 2 == 0 else (other, bot), seed=70 + g)
    return bot.searches


def test_knockable_discard_search_runs_only_where_the_heuristics_discard_leaves_a_knockable_hand():
    searches = _knockable_searches()
    assert searches
    for hand, choice, keys, card in searches:
        assert 0 < min_deadwood(hand ^ 1 << choice) <= MAX_DEADWOOD
        assert hand >> card & 1 and choice in {key >> 1 for key in keys}
        for key in keys:  # a knock option only for a discard that leaves the hand knockable
            knockable = 0 < min_deadwood(hand ^ 1 << (key >> 1)) <= MAX_DEADWOOD
            assert not key & 1 or knockable
            assert key & 1 or ((key | 1) in keys) == knockable


def test_knockable_discard_search_values_a_card_by_the_better_of_its_mean_knock_and_play():
    def scripted(play_choice: float, knock_choice: float, play_other: float):
        def means(keys, choice):
            values = {}
            for key in keys:
                card, knock = key >> 1, key & 1
                if card == choice:
                    values[key] = knock_choice if knock else play_choice
                else:
                    values[key] = play_other if not knock else -100.0
            return values
        return means

    # The choice's knock (3) is its value, not its poor play-on (-50): another card 3 better stays under the margin.
    searches = _knockable_searches(scripted(-50.0, 3.0, 6.0), override_margin=5.0)
    assert searches and all(card == choice for _, choice, _, card in searches)
    # 10 points better than the choice's best option: the other card is thrown.
    searches = _knockable_searches(scripted(-50.0, 3.0, 13.0), override_margin=5.0)
    assert searches and all(card != choice for _, choice, _, card in searches)


def test_playout_defence_guards_the_opponents_playout_discards_always_or_once_switched():
    bots = {when: ChampionPlayer(seed=4, worlds=12, playout_defence=6, playout_defence_when=when, memory_hands=0)
            for when in ("always", "switched")}
    for bot in bots.values():
        bot.new_game(1)
    assert [bot.playout_defence() for bot in bots.values()] == [6, -1]  # nothing shown: Simple's discard
    for bot in bots.values():
        bot.hand_rhos = [0.3, 0.2]  # finished hands that minimum-deadwood play did not explain
    assert [bot.playout_defence() for bot in bots.values()] == [6, 6]
    worlds = [(mask_of(range(13, 23)), list(range(30, 50)))]
    assert bots["switched"].playouts_over(worlds).defence == 6
    assert ChampionPlayer(seed=4).playout_defence() == -1  # off by default


def test_net_holds_recorded_feeds_the_networks_the_model_they_learned_from_once_switched():
    """net_holds=recorded: after the switch the learned networks read mlp8-heuristic's chances (the model of
    their training games) whatever second_estimator is; before it, and with net_holds=model, the decision's own."""
    from ginbots.estimators import shared_estimator

    bots = {mode: ChampionPlayer(seed=4, second_estimator="gbt", net_holds=mode, memory_hands=0)
            for mode in ("model", "recorded")}
    own = np.full(52, 0.25)
    for bot in bots.values():
        bot.new_game(1)
        bot.start_hand(0, 0, mask_of(range(10)))
        assert bot.net_holds(own) is own  # nothing shown yet: the first model, which the networks also read
        bot.hand_rhos = [0.3, 0.2]  # finished hands that minimum-deadwood play did not explain: switched
    assert bots["model"].estimator() is shared_estimator("gbt") and bots["model"].net_holds(own) is own
    recorded = bots["recorded"].net_holds(own)
    expected = shared_estimator("mlp8-heuristic").estimate(bots["recorded"].knowledge)
    assert np.array_equal(recorded, expected) and not np.allclose(recorded, own)
    # a packaged bot carries the model it reads
    names = lambda bot: {path.name for path in bot.weight_files()}  # noqa: E731
    assert "mlp8_heuristic.onnx" in names(bots["recorded"]) and "mlp8_heuristic.onnx" not in names(bots["model"])


def test_one_draw_deadwoods_is_the_stock_weighted_least_deadwood_after_one_more_card():
    """``lookahead_weight``'s reach, checked by brute force: every 10-card subset of each kept hand plus
    each unseen card, weighed by its chance to be in the stock."""
    from itertools import combinations

    from ginbots.players.champion_discards import one_draw_deadwoods

    rng = random.Random(23)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = sum(1 << c for c in deck[:11])
    unknown = sum(1 << c for c in deck[11:40])
    holds = np.array([rng.random() * 0.5 for _ in range(52)])
    candidates = deck[:11:2]
    reach = one_draw_deadwoods(hand, candidates, unknown, holds)
    for card in candidates:
        total = weights = 0.0
        for drawn in deck[11:40]:
            cards = [c for c in deck[:11] if c != card] + [drawn]
            least = min(min_deadwood(sum(1 << c for c in keep)) for keep in combinations(cards, 10))
            total += least * (1 - holds[drawn])
            weights += 1 - holds[drawn]
        assert abs(reach[card] - total / weights) < 1e-9


def test_lookahead_weight_subtracts_the_weighted_reach_from_every_candidate():
    """``lookahead_weight=w``: each discard's value is the heuristic's full value minus w x its reach."""
    from ginbots.players.champion_discards import one_draw_deadwoods

    ahead, candidates, base, values, holds = paired_discard_values(12, "lookahead_weight", 0.5)
    reach = one_draw_deadwoods(ahead.hand, candidates, ahead.knowledge.unknown, holds)
    assert max(reach.values()) - min(reach.values()) > 1
    for card in candidates:
        assert abs(values[card] - (base[card] - 0.5 * reach[card])) < 1e-6
