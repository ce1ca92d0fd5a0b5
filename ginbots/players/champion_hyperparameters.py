"""The champion's hyperparameters: document 002's eight with its tuned weights, and the search's own.

Declared apart from ``champion.py`` (the player) so that each option, its default and what was measured
for it read as one table; ``ChampionPlayer.hyperparameters`` is this tuple.
"""

from __future__ import annotations

from dataclasses import replace

from ginbots.estimators import ESTIMATOR_NAMES
from ginbots.search.playouts import PLAYOUT_CODES

from .base import Hyperparameter
from .filtered import FILTER_HYPERPARAMETERS
from .heuristic import HeuristicUtilityPlayer
from .learned_discard import LEARNED_NETS

#: The heuristic's weights as its tuning found them (``tuning/best/heuristic.json``, study
#: heuristic-vs-simple, trial 24): the champion built its hands with them until 2026-11-28.
TUNED_HEURISTIC = {
    "meld_bonus": 1.050670490617736, "combination_bonus": 6.998884060300127, "deadwood_bonus": 2.554255607525298,
    "knock_bonus": 38.577624408594815, "gin_bonus": 44.86564098755637, "opp_util_importance": 0.4884430995982074,
    "low_card_bonus": 2.249784214415546, "emergency_booster": 3.814744207302213,
    "draw_rule": "after-best-discard",  # the rule the study ran with
}

#: The champion's own hand-building weights: document 002's eight tuned inside the champion against
#: heuristic:tuned and simple (experiments/champion-hand-tuning, study champion-vs-heuristic:tuned+simple,
#: trial 28), rounded as they were measured. Hands built more for gin than TUNED_HEURISTIC's: on the
#: target deals +0.9 +- 0.7 points of wins by chunk against heuristic:tuned, +2.9 +- 0.6 against
#: simple:knock_at=0, level against simple (the default before 2026-11-28 was TUNED_HEURISTIC).
CHAMPION_HAND_WEIGHTS = {
    "meld_bonus": 0.977, "combination_bonus": 3.471, "deadwood_bonus": 1.257, "knock_bonus": 23.7,
    "gin_bonus": 55.78, "opp_util_importance": 0.5616, "low_card_bonus": 2.388, "emergency_booster": 3.335,
    # The document's own reading of its first draw rule (take a card that melds), since 2026-11-29: the
    # tuned heuristic's reading (TUNED_HEURISTIC, the study's) also takes any card lower than the hand's
    # worst deadwood card. Against Gin Rummy and Tonic +1.9 +- 1.0 points of wins paired by deal over
    # 3,000 games, level against the bundle (experiments/champion-tonic-screen).
    "draw_rule": "deadwood-decreases",
}

#: The default search budget of a game, in playouts. At about 0.22 ms of CPU a playout (the game's
#: thinking over its playouts, this project's machines) it is about 5.4 s, near where the wall-clock
#: budget it replaces stopped (6 s); 100 games against simple, simple:knock_at=0 and heuristic:tuned
#: used at most 16,896 (experiments/champion-budget), so it binds only in unusually long games.
GAME_PLAYOUTS = 25_000

#: The champion's opponent filter differs from the other bots' in two defaults. 1,000 hands suffice
#: to weigh the opponent's play for the switch (4,000 were measured for opponent_filter=true, whose
#: hands feed the search). Eight Metropolis sweeps after each resampling (the filters' own default
#: is 2) were ahead or level on every target of issue 37, paired on the same deals: +0.5 +- 0.4
#: points of wins against simple and +0.9 +- 0.6 against heuristic:tuned over 10,000 games each,
#: +2.4 +- 1.3 against simple:knock_at=0, at about a fifth more CPU
#: (experiments/champion-sweeps/README.md).
CHAMPION_FILTER_DEFAULTS = {"filter_particles": 1000, "filter_sweeps": 8}

#: Every hyperparameter of ``champion`` (``ChampionPlayer.hyperparameters``).
CHAMPION_HYPERPARAMETERS = tuple(replace(h, default=CHAMPION_HAND_WEIGHTS.get(h.name, h.default))
                                 for h in HeuristicUtilityPlayer.hyperparameters) + (
    Hyperparameter("rollout_knock_at", int, 0, 0, 10,
                   doc="our knock threshold inside playouts: how we play on after declining to knock (against the "
                       "public entry java-tonic 3 and 6: -0.5 +- 1.8 and -3.8 +- 2.1 points of wins paired over 600 "
                       "deals)"),
    Hyperparameter("knock_margin", float, 0.0, -10.0, 10.0,
                   doc="knock only when knocking now beats playing on by more than this many points (3 against the "
                       "public entry java-tonic: -0.8 +- 1.0 points of wins paired over 1,200 deals)"),
    Hyperparameter("early_knocker_margin", float, 0.0, 0.0, 20.0,
                   doc="points added to knock_margin once the opponent has shown a knock threshold of "
                       "early_knocker_at or more (its knocks and the knockable hands it kept; a gin-waiting "
                       "opponent never gets it); 0: off (measured at 6 on the target deals: +0.2 +- 0.2 points "
                       "by chunk against simple, -0.3 +- 0.7 against heuristic:tuned; -0.6 +- 0.7 against the outside "
                       "defender and early knocker)"),
    Hyperparameter("early_knocker_at", int, 5, 1, 10, tunable=False,
                   doc="with early_knocker_margin or early_knocker_override: the inferred opponent knock threshold "
                       "from which it applies"),
    Hyperparameter("early_knocker_override", float, 1.0, -1.0, 20.0,
                   doc="override_margin for the searched draws once the opponent has shown a knock threshold of "
                       "early_knocker_at or more (a gin-waiting opponent never gets it); -1: off, override_margin "
                       "always (the default before 2026-11-27, latest: on the target deals 1 won 79.9% of 10,000 "
                       "games against simple where -1 won 79.4%, +0.5 +- 0.4 points by chunk, +0.7 +- 0.3 over "
                       "15,000; level against heuristic:tuned, simple:knock_at=0 and the outside gin waiter and "
                       "defender; 0 was -0.4 +- 0.4 below 1 against simple)"),
    Hyperparameter("knock_learning", float, 2.0, 0.0, 20.0,
                   doc="learn from this game's own knocks: knocking now is marked down by the mean of "
                       "(predicted - realised points) of our earlier searched knocks, shrunk toward 0 as if "
                       "this many knocks had erred by 0; 0: off (1 against java-tonic: -0.7 +- 1.1 points of wins "
                       "paired over 600 deals)"),
    Hyperparameter("knock_learning_by", str, "mean", choices=("mean", "deadwood"), tunable=False,
                   doc="with knock_learning: mark a knock down by the knocks' mean error (mean), or by their error "
                       "per point of the deadwood knocked with, times the deadwood to knock with now (deadwood: "
                       "against heuristic:tuned the searched knocks with 1-3 points erred by +1.9 points, those "
                       "with 4-10 by +6 to +7.5, so one mean held back low knocks and let high ones through; measured level "
                       "on the target deals: -0.5 +- 0.8 points by chunk against heuristic:tuned, +0.0 +- 0.1 against simple)"),
    Hyperparameter("play_on_learning", float, 0.0, 0.0, 20.0,
                   doc="learn from this game's play-ons as knock_learning does from its knocks: playing on is "
                       "marked down by the mean, over hands with a searched decision to play on, of (the mean "
                       "predicted value of playing on - the hand's realised points), shrunk toward 0 as if this "
                       "many hands had erred by 0, so that only the two branches' difference in bias moves the "
                       "knock; 0: off (2 against java-tonic: -6.8 +- 1.9 points of wins paired over 600 deals)"),
    Hyperparameter("second_estimator", str, "gbt",
                   choices=("none",) + tuple(n for n in ESTIMATOR_NAMES if n != "omniscient"), tunable=False,
                   doc="a second opponent model, used once this game shows an opponent it fits better "
                       "(`switch_by`); none: `estimator` throughout. gbt (the default since 2026-12-06; was "
                       "mlp8-heuristic) describes every opponent's hand best (experiments/champion-estimator); in "
                       "play: +0.8 +- 0.6 points of wins against java-tonic over 7,800 paired games (60.3%) and "
                       "+1.4 +- 1.4 over 1,200 on fresh seeds (60.0%), +0.3 +- 0.4 by chunk against heuristic:tuned "
                       "over 10,000, level (-0.0 +- 0.1) against simple over 10,000"),
    Hyperparameter("switch_by", str, "filter", choices=("revealed", "filter"), tunable=False,
                   doc="what picks the second estimator: revealed (the log score of the opponent's revealed "
                       "hands, `switch_margin`) or filter (the opponent filter's weight of minimum-deadwood play, "
                       "`switch_rho`; the filter then runs for this alone unless `opponent_filter`)"),
    Hyperparameter("switch_margin", float, 3.0, 0.0, 100.0,
                   doc="log score (nats, summed over this game's revealed opponent hands) by which the second "
                       "estimator must lead before it is used"),
    Hyperparameter("switch_rho", float, 0.6, 0.0, 1.0,
                   doc="with switch_by=filter: the second estimator once the mean of the filter's rho at the "
                       "end of each hand so far falls below this (a Simple-like opponent keeps it near 1)"),
    Hyperparameter("memory_hands", int, 30, 0, 1000, tunable=False,
                   doc="evidence about the opponent carried into this player's later games (runners keep a "
                       "player for a whole match): the last this many of each kind (end-of-hand rho, its "
                       "knocks and kept knockable hands, our searched knocks' errors); 0: each game afresh "
                       "(the default before 2026-11-26). A game then depends on the games this player played "
                       "before it: this package's runners play a remembering bot's games in fixed blocks "
                       "(ginbots.arena.match.MEMORY_BLOCK), so a seed still gives the same games (100 against "
                       "java-tonic: -0.8 +- 0.4 points of wins paired over 600 deals)"),
    Hyperparameter("opponent_knock_prior", int, 10, 0, 10,
                   doc="the opponent's knock threshold assumed before it has shown one"),
    Hyperparameter("override_margin", float, 5.0, 0.0, 20.0,
                   doc="points by which a searched discard or draw must beat the heuristic's choice (a draw: "
                       "until the opponent has shown early knocks, early_knocker_override). 5 since 2026-11-29: "
                       "against the public entry java-tonic it won 60.2% of 3,000 games where 2 (the default "
                       "before) won 58.2%, +1.9 +- 0.9 points of wins paired by deal; +1.4 +- 0.5 by chunk against "
                       "simple:knock_at=0, level against simple, heuristic:tuned and the outside opponents "
                       "(experiments/champion-tonic-screen)"),
    Hyperparameter("search_discards", str, "off", choices=("off", "trusted", "always", "knockable"),
                   doc="play out the heuristic's best discards: never, only while the opponent filter is trusted, "
                       "or always (both measured weaker than the heuristic's own discard); knockable: only where "
                       "the heuristic's discard leaves the hand knockable, each candidate worth the better of its "
                       "mean knock now and its mean play on, so a discard the champion would not knock after can "
                       "give way to a safer one (against java-tonic -0.8 +- 1.3 points of wins paired over 1,200 "
                       "deals)"),
    Hyperparameter("playout_defence", int, -1, -1, 30,
                   doc="in the playouts the opponent holds back a discard that would join one of our melds, "
                       "throwing the least-deadwood card that joins none if it costs at most this many more "
                       "points of deadwood (ginbots.search.rollout.guarded_discard); -1: it throws Simple's "
                       "discard (the default), as our seat always does (against java-tonic 10: -3.7 +- 1.4 points of "
                       "wins paired over 1,200 deals; 3: -4.0 +- 1.9 over 600)"),
    Hyperparameter("playout_defence_when", str, "always", choices=("always", "switched"), tunable=False,
                   doc="with playout_defence >= 0: in every hand, or only once this game (or, with memory, an "
                       "earlier one) shows an opponent that does not play like Simple (the estimator switch, "
                       "`switch_rho`)"),
    Hyperparameter("opponent_filter", bool, True,
                   doc="the hands of a particle filter that weighs them by how well minimum-deadwood play "
                       "explains the opponent's actions (ginbots.search.opponent_model), while it trusts that "
                       "model (filter_trust, filter_trust_when), for the worlds and the heuristic's view of the "
                       "opponent; off: the estimator alone (the default before 2026-11-27: on won 78.6% of "
                       "10,000 games against simple where off won 77.0% of the same deals)"),
    Hyperparameter("filter_trust_when", str, "rho", choices=("rho", "simple-like", "shown-simple-like"),
                   tunable=False,
                   doc="with opponent_filter: trust the filter's hands whenever its rho reaches filter_trust "
                       "(rho), or also only while the estimator switch still takes the opponent for "
                       "Simple-like (`switch_rho`; simple-like, measured against java-tonic: -0.1 +- 1.2 points of "
                       "wins over 1,800 paired games), or only once a finished hand (this game's "
                       "or, with memory, an earlier game's) has shown it so (shown-simple-like; measured: "
                       "-1.9 points against simple:knock_at=0, level elsewhere, below rho against the "
                       "outside defender and gin waiter)"),
    Hyperparameter("filter_move_untrusted", bool, False, tunable=False,
                   doc="with opponent_filter and filter_trust_when=rho: move the filter's hands after each "
                       "opponent discard while the decisions do not read them (rho under filter_trust), as "
                       "the gated modes and the switch alone do; off: they are moved only when read "
                       "(measured on 2,000 games each: -0.1 points against simple, -0.9 +- 1.1 against simple:knock_at=0)"),
    *(replace(h, default=CHAMPION_FILTER_DEFAULTS[h.name]) if h.name in CHAMPION_FILTER_DEFAULTS else h
      for h in FILTER_HYPERPARAMETERS),
    Hyperparameter("score_aware", bool, False,
                   doc="score playouts by the chance of winning the game from the scores after the hand "
                       "(ginbots.search.equity), in points at the game's start, rather than by the hand's points "
                       "(against java-tonic: -2.0 +- 2.1 points of wins paired over 600 deals)"),
    Hyperparameter("score_aware_against", str, "any", choices=("any", "simple-like", "shown-simple-like"),
                   tunable=False,
                   doc="with score_aware: every opponent; only one the estimator switch still takes for "
                       "Simple-like (`switch_by`); or only once a finished hand has shown it so (the game's "
                       "first hand scored in points). Measured: +1.0 and +1.6 against simple, still -0.6 and "
                       "-1.0 against heuristic:tuned"),
    Hyperparameter("score_edge", float, 0.0, 0.0, 100.0,
                   doc="with score_aware: the game's equity from hand odds inferred in this game (hands won "
                       "over hands decided, shrunk toward even as if this many more had split evenly, in "
                       "steps of 0.05) instead of two equal players; 0: equal players"),
    Hyperparameter("search_draws", bool, True, doc="play out taking the face-up card against the stock"),
    Hyperparameter("learned_discard", float, 0.0, 0.0, 5.0,
                   doc="weight (heuristic utility per point) of a learned offensive score of the hand each "
                       "discard leaves (learned_net), added to the heuristic's discard values; 0: off"),
    Hyperparameter("learned_net", str, "random-256-worst", choices=LEARNED_NETS, tunable=False,
                   doc="the Dual Inception network learned_discard reads (its dataset name)"),
    Hyperparameter("afterstate_weight", float, 0.6, 0.0, 5.0,
                   doc="weight (heuristic utility per point) of the afterstate value, a network trained on the "
                       "champion's own games that predicts the points of the position each discard leaves "
                       "(ginbots.players.afterstate_value, weights/afterstate_value.onnx), added to the "
                       "heuristic's discard values; 0: off. 0.6 since 2026-11-28, with CHAMPION_HAND_WEIGHTS, "
                       "whose smaller bonuses spread the heuristic's values less: on the target deals 0.6 won "
                       "80.7% of 25,000 games against simple where 1 (the default before) won 79.6%, +1.1 +- 0.3 "
                       "points by chunk, level against heuristic:tuned; 0.3 and 1.5 lost to 0.6. 1 was chosen "
                       "with TUNED_HEURISTIC (76.3% of 10,000 against simple where 0 won 74.7%)"),
    Hyperparameter("afterstate_suits", int, 1, 1, 24, tunable=False,
                   doc="with afterstate_weight: the afterstate value of each discard averaged over this many orders "
                       "of the four suits (the identity first; 24: all), which the rules treat alike; 1: the "
                       "network's value as it reads the position (measured at 24: -0.7 +- 0.6 points by chunk against "
                       "simple, +0.0 +- 1.0 against heuristic:tuned; with afterstate_weight=0.75, which restores the "
                       "values' spread, -1.4 +- 0.6 and +0.5 +- 0.8)"),
    Hyperparameter("afterstate_draw", float, 0.0, 0.0, 5.0,
                   doc="weight (heuristic utility per point) of the afterstate network's value of taking the "
                       "face-up card over a stock draw (the position after the discard it values most, either "
                       "way), added to the heuristic's draw rule; 0: off (measured: level at 0.5, 1 and 3)"),
    Hyperparameter("lookahead_weight", float, 0.0, 0.0, 5.0,
                   doc="weight (heuristic utility per point) of a one-draw lookahead: minus the expected least "
                       "deadwood of the hand each discard leaves after one more stock card and its best discard "
                       "(each unseen card weighed by its chance to be in the stock), added to the heuristic's "
                       "discard values; the deadwood a hand can reach, as a gin race rewards, where the "
                       "heuristic counts meld chances card by card; 0: off (0.5 against the public entry java-tonic: "
                       "-3.3 +- 1.3 points of wins paired over 1,800 games; experiments/champion-tonic-screen)"),
    Hyperparameter("knock_leaf", str, "playouts", choices=("playouts", "learned"), tunable=False,
                   doc="the value of playing on at a knock decision: playouts (both seats on Simple's rule) or "
                       "learned (the afterstate network trained on the positions the champion played on from, "
                       "weights/afterstate_play_on.onnx)"),
    Hyperparameter("knock_net", float, 0.75, 0.0, 1.0,
                   doc="weight of a learned value of knocking now (the afterstate network trained on the points "
                       "knocking would have paid against the opponent's true hand at the champion's searched knock "
                       "decisions, weights/afterstate_knock.onnx) in the value of knocking now: (1 - w) x the "
                       "worlds' exact scoring + w x the network's (points only: not with score_aware); 0: off (the "
                       "default before 2026-11-28, latest: on the target deals 1 won 66.6% of 10,000 games against "
                       "heuristic:tuned where 0 won 64.6%, +2.0 +- 0.6 points by chunk; experiments/champion-knock-net). "
                       "0.75 since 2026-11-28, later: the blend predicts knocks better against opponents outside the "
                       "network's pool, and against the public entry java-tonic it won 56.4% of 3,000 games where 1 "
                       "won 53.6%, +2.8 +- 1.2 points paired by deal, and on 600 fresh deals 1 -0.8 +- 1.3; "
                       "level on the target deals and the outside opponents"),
    Hyperparameter("knock_net_when", str, "untrusted", choices=("always", "untrusted"), tunable=False,
                   doc="with knock_net: at every searched knock, or only while the opponent filter's hands are not "
                       "trusted (its worlds, drawn from hands that explain a Simple-like opponent's play, already "
                       "predict knocks well there: on held-out rows against simple the worlds erred by 95 points "
                       "squared, the network by 106). Measured on the target deals, chunks 1-16: untrusted +0.4 +- 0.3 "
                       "points by chunk over always against simple, -0.4 +- 0.7 against heuristic:tuned; against java-tonic "
                       "always lost 1.3 +- 1.2 points of wins paired by deal (1,200 games)"),
    Hyperparameter("net_holds", str, "model", choices=("model", "recorded"), tunable=False,
                   doc="the opponent's holding chances the learned networks (afterstate, knock, play-on) read: model "
                       "(those of the opponent model the decision uses) or recorded (after the estimator switch, those "
                       "of mlp8-heuristic, the second estimator of the games they learned from, whatever "
                       "second_estimator says): a network learns the scale of the model it was fed; the same games "
                       "unless second_estimator is changed (measured with second_estimator=gbt against java-tonic, "
                       "2026-11-29: -1.0 +- 1.0 points of wins paired over 1,200 games; experiments/champion-estimator)"),
    Hyperparameter("world_tilt", float, 0.0, 0.0, 1.0,
                   doc="structure in the sampled opponent hands: draw tilt_pool times as many from the "
                       "estimator and keep them in proportion to exp(-world_tilt x deadwood), since hands drawn "
                       "card by card from its chances hold fewer melds than players keep; 0: off"),
    Hyperparameter("gain_tilt", float, 0.0, 0.0, 1.0,
                   doc="world_tilt's structure for the heuristic's own sampled opponent hands (its opponent-gain "
                       "and close-opponent tests) while the filter is not trusted; 0: off (measured: -0.30 to "
                       "-0.56 points a hand against simple, level against heuristic:tuned; 0.3 against the public "
                       "entry java-tonic, 2026-12-07: -1.8 +- 1.2 points of wins paired over 1,800 games)"),
    Hyperparameter("tilt_pool", int, 4, 1, 64, tunable=False,
                   doc="with world_tilt or tilt_learning: opponent hands drawn per world before the weighted "
                       "resampling"),
    Hyperparameter("tilt_learning", float, 2.0, 0.0, 20.0,
                   doc="learn the worlds' structure from the opponent's revealed hands: after each searched knock "
                       "we took, the worlds' mean opponent deadwood minus the deadwood the opponent showed; "
                       "while the filter is not trusted, the worlds are resampled (as world_tilt does) so their "
                       "mean deadwood falls by the mean of those gaps, shrunk toward 0 as if this many more had "
                       "been 0; 0: off (the default before 2026-11-27: on the target deals 2 won 62.8% of 3,000 "
                       "games against heuristic:tuned where 0 won 60.9%, +1.9 +- 1.1 points by chunk, and was "
                       "level against simple and simple:knock_at=0; against the public entry java-tonic level: "
                       "-1.5 +- 2.2 points paired on 600 fresh deals, 53.8% of 1,800 games on three seeds where "
                       "0 won 52.3% of 2,200; 4 against it, 2026-11-29: -1.2 +- 1.3 points paired over 600 deals)"),
    Hyperparameter("gin_gaps", bool, False,
                   doc="with tilt_learning: learn a gap at our gins too (the worlds sampled there though gin is "
                       "not searched), not only at our searched knocks; off: knocks only (measured on the target deals: "
                       "-0.9 +- 1.1 points by chunk against heuristic:tuned, -1.6 +- 1.3 against simple:knock_at=0; "
                       "+0.2 +- 1.9 points of wins against java-tonic paired over 600 deals)"),
    Hyperparameter("gain_learning", bool, False,
                   doc="with tilt_learning: the heuristic's own sampled opponent hands (its opponent-gain and "
                       "close-opponent tests) resampled by the same learned drop as the search's worlds while the "
                       "filter is not trusted; off: drawn from the estimator as they are (measured on the target deals: "
                       "-0.9 +- 1.1 points by chunk against heuristic:tuned, -0.6 +- 0.4 against simple:knock_at=0; "
                       "against java-tonic, 2026-12-07: -1.0 +- 0.9 points of wins paired over 1,800 games)"),
    Hyperparameter("worlds", int, 192, 2, 1000, tunable=False,
                   doc="sampled worlds (an opponent hand and a stock order) per searched decision (192: +0.9 "
                       "+- 0.3 points of wins by chunk over 96 against simple on 15,000 games, level against "
                       "heuristic:tuned, simple:knock_at=0 and the outside opponents; 96 was +1.9 points a hand "
                       "over 48)"),
    Hyperparameter("knock_worlds", int, 0, 0, 1000, tunable=False,
                   doc="worlds per searched knock decision (with search_discards, a knock after a searched discard "
                       "reuses that search's worlds); 0: `worlds`, as for draws (measured: 192 at the knocks "
                       "+0.0 +- 0.4 points by chunk against simple, 192 at the draws only +0.3 +- 0.4)"),
    Hyperparameter("discard_candidates", int, 3, 2, 11, tunable=False,
                   doc="the heuristic's best discards played out (with search_discards only)"),
    Hyperparameter("first_round", int, 16, 1, 1000, tunable=False,
                   doc="worlds every candidate is played out on before the weaker half is dropped (only a race of "
                       "three or more options halves: a searched discard; a draw or knock has two, and both play "
                       "every world)"),
    Hyperparameter("game_playouts", int, GAME_PLAYOUTS, 0, 100_000_000, tunable=False,
                   doc="playouts per game (every candidate on every world, summed over the game's searched "
                       "decisions) after which it plays the heuristic alone: a budget of work, so games do "
                       "not depend on the machine's speed or load"),
    Hyperparameter("playouts", str, "auto", choices=PLAYOUT_CODES, tunable=False,
                   doc="code that plays the playouts: compiled (numba, extra fast; about 30x less CPU a "
                       "playout), python, or auto (compiled where numba is installed); the same games "
                       "either way"),
    Hyperparameter("host_reserve", float, 1.5, 0.0, 10.0, tunable=False,
                   doc="it also plays the heuristic alone once the host's clock (time_left, as the "
                       "Java shim sends it) has fewer seconds left than this"),
)
