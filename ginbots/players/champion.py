"""The champion: document 002's hand building, with knocks, draws and discards searched by playouts.

Goes beyond the five documents. Hand building is the eight-hyperparameter
heuristic's (document 002) with weights tuned inside the champion
(``CHAMPION_HAND_WEIGHTS``), taking the face-up card on the document's own reading of its first
draw rule (a card that lowers the deadwood, that is one that melds); on top of it:

- **Sampled worlds.** Each decision samples opponent hands and, for each, a stock
  order of the remaining cards. The hands come from a particle filter that weighs them
  by how well minimum-deadwood play explains the opponent's actions
  (``ginbots.search.opponent_model``, ``opponent_filter``) while the filter trusts that model,
  else from the opponent-hand estimator; the heuristic's own view of the opponent (its chance of
  holding each card, its sampled hands) comes from the same source.
- **Which estimator.** ``mlp8`` (fitted on Simple's games) or ``gbt`` (trees fitted on a pool of
  bundle players'): the opponent filter runs alongside to weigh how well minimum-deadwood
  play explains the opponent, and a game whose mean end-of-hand weight falls below
  ``switch_rho`` gets the second (``second_estimator``, ``switch_by=filter``).
- **Playouts.** A candidate action is played out to the end of the hand on every
  world with ``ginbots.search.rollout`` (both seats on Simple's rule with their own knock
  thresholds); the same worlds serve every candidate (common random numbers) and
  the weaker half of the candidates is dropped after each round (successive halving).
- **Knock** (the decision that moves most points): knocking now, scored exactly on
  each world with layoffs, against playing on. While the filter's hands are not trusted, the value
  of knocking now is a network's instead (``knock_net``): trained on the champion's own knock
  decisions, each labelled with what knocking would have paid against the opponent's true hand,
  it predicts those points far better than worlds drawn from an estimator fitted on other players.
- **Draw** (and, as an option, discard): the heuristic's choice is played out against
  the alternative; the search overrides the heuristic only when it finds more than
  ``override_margin`` points.
- **Opponent model.** The opponent's knock threshold in playouts is inferred from
  this game: the deadwood of its knocks and the knockable hands it kept (seen at the
  end of a hand). A player that waits for gin is soon modelled as one, a player that
  knocks at once as Simple; no threshold is fixed for one opponent.
- **The worlds' deadwood learned from the opponent** (``tilt_learning``). The estimator draws
  hands card by card, with fewer melds than players keep; after each searched knock the champion
  compares the worlds' mean opponent deadwood with what the opponent showed, and while the filter
  is not trusted it resamples the worlds toward lower deadwood by the shrunk mean of those gaps.
- **Learning from its own knocks** (``knock_learning``). The worlds come from an
  estimator fitted on other players, so against an opponent that keeps low hands
  they overrate knocking; each searched knock's predicted points are compared with
  what the hand paid, and later knocks in the game are marked down by the shrunk
  mean error. Against gin-waiting play this cut the undercuts it suffered by a quarter.
- **Memory of the opponent** (``memory_hands``, 30). A runner keeps one player for a whole match,
  so what this opponent showed in earlier games (its knocks, the hands it kept, how well
  minimum-deadwood play explains it, how our knocks fared) starts the next game's model.
- **A learned discard term** (``afterstate_weight``, 0.6). A network trained on the champion's
  own games (``ginbots.players.afterstate_value``) values the position each candidate discard
  leaves; W times its value is added to the heuristic's discard values.

Search is metered in work, not seconds: past ``game_playouts`` playouts in a game it stops
searching and plays the heuristic alone, so the same seed gives the same games on any machine, at
any load, in process or isolated. A clock is only a safety net: where a host says how much of its
thinking time is left (``time_left``, from the bridge or the Java shim), the search also stops
below ``host_reserve`` seconds; each decision that happens in is counted (``clock_stops``) and
reported on stderr at the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from statistics import median
import sys
from typing import Any

import numpy as np

from ginbots.estimators import shared_estimator, weight_files_for
from ginbots.estimators.base import Estimator
from ginbots.estimators.metrics import revealed_log_score
from ginbots.estimators.weights import card_path, find_weights
from ginbots.game.cards import GOAL_SCORE, MAX_DEADWOOD, points_of, union
from ginbots.game.melds import best_meld_set, min_deadwood
from ginbots.search.equity import HAND_POINTS, equity_table, hand_utility, points_per_equity, with_edge
from ginbots.search.playouts import resolve_code, use_numpy, warm_up
from ginbots.search.rollout import simple_discard

from .afterstate_value import (
    AFTERSTATE_NET,
    KNOCK_NET,
    PLAY_ON_NET,
    afterstate_values,
    draw_values,
    knock_now_value,
    play_on_value,
    shared_afterstate_value,
)
from .base import Melds
from .champion_hyperparameters import CHAMPION_HYPERPARAMETERS
from .champion_discards import DiscardSearch, one_draw_deadwoods
from .champion_search import RESULT_BOUND, World, WorldSearch, shrunk_mean
from .filtered import FilteringPlayer
from .hand_utility import in_opponent_meld_probability
from .heuristic import HeuristicUtilityPlayer
from .learned_discard import learned_offence, learned_weight_files, prepare_learned

__all__ = ["ChampionPlayer", "RESULT_BOUND"]

#: The second estimator of the champion whose games the shipped networks learned from (their model cards).
NETS_SECOND_ESTIMATOR = "mlp8-heuristic"


class ChampionPlayer(DiscardSearch, WorldSearch, FilteringPlayer, HeuristicUtilityPlayer):
    """Heuristic hand building, playout search over sampled worlds, an inferred opponent (module doc)."""

    name = "champion"
    hyperparameters = CHAMPION_HYPERPARAMETERS

    # --- the game and the opponent model -------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.thought = 0.0  # CPU seconds of this game's thinking, measured for reports only
        self.playouts = 0  # this game's search work: what the budget counts
        self.clock_stops = 0  # decisions whose search the host's clock stopped
        self.time_left = None  # the host's clock restarts with the game; its next message says how much
        self.opp_knocks: list[int] = self._carried("opp_knocks")  # deadwood of each opponent knock
        # knockable deadwood the opponent kept without knocking
        self.opp_declines: list[int] = self._carried("opp_declines")
        # predicted minus realised points of our searched knocks
        self.knock_errors: list[float] = self._carried("knock_errors")
        self.knock_deadwoods: list[int] = self._carried("knock_deadwoods")  # our deadwood at each of them
        # the worlds' mean opponent deadwood at our searched knocks minus what the opponent then showed
        self.world_gaps: list[float] = self._carried("world_gaps")
        self.world_mean = self.pending_gap = None  # the last decision's worlds' mean; at our knock
        # predicted (mean over the hand's searched play-ons) minus realised points, a hand at a time
        self.play_on_errors: list[float] = self._carried("play_on_errors")
        self.last_scores = (0, 0)
        self.hands_scored = 0
        self.hands_won = self.hands_decided = 0  # hands this game: won, and won or lost (score_edge)
        self.pending_knock: float | None = None
        self.second_lead = 0.0  # log score of the second estimator minus the first's, revealed hands so far
        self.hand_rhos: list[float] = self._carried("hand_rhos")  # the filter's rho at the end of each hand

    def _carried(self, name: str) -> list:
        """The last ``memory_hands`` entries of an evidence list from the games before (none when 0):
        the same opponent sits across the table for a whole match, so what it showed still holds."""
        keep = self.params["memory_hands"]
        return list(getattr(self, name, [])[-keep:]) if keep else []

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.knocker: int | None = None
        self.worlds: list[World] = []
        self.pending_knock = self.pending_gap = None
        self.pending_deadwood = 0  # our deadwood at this hand's searched knock
        self.hand_play_ons: list[float] = []  # this hand's predicted points of playing on, where it did
        self.model_check: tuple[int, np.ndarray, np.ndarray] | None = None
        self.utility: list[float] | None = None
        if self.params["score_aware"] and self._score_aware_now():
            table = equity_table(self._hand_points())
            ours, theirs = self.last_scores[self.seat], self.last_scores[1 - self.seat]
            self.utility = hand_utility(table, ours, theirs, points_per_equity(table), -RESULT_BOUND, RESULT_BOUND)

    def _hand_points(self) -> tuple[tuple[int, float], ...]:
        """The hand-points table for this game's equity: equal players' (``HAND_POINTS``), or with
        ``score_edge`` the share of hands this game shows we win (shrunk toward a half, in steps of 0.05)."""
        prior = self.params["score_edge"]
        if prior <= 0:
            return HAND_POINTS
        share = (self.hands_won + prior / 2) / (self.hands_decided + prior)
        return with_edge(min(max(round(share * 20) / 20, 0.05), 0.95))

    def _score_aware_now(self) -> bool:
        """Whether this hand's playouts are scored by game equity (``score_aware_against``)."""
        against = self.params["score_aware_against"]
        return against == "any" or self._simple_like(shown=against == "shown-simple-like")

    def _simple_like(self, shown: bool) -> bool:
        """Whether the estimator switch still takes the opponent for Simple-like; with ``shown``, only once
        a finished hand (this game's or, with memory, an earlier game's) has shown it so."""
        return (not shown or self.hands_scored > 0 or bool(self.hand_rhos)) and not self._switched()

    # --- the opponent filter (FilteringPlayer) ---------------------------------------------------
    def filter_enabled(self) -> bool:
        return self.params["opponent_filter"] or self._switch_by_filter()

    def _switch_by_filter(self) -> bool:
        return self.params["second_estimator"] != "none" and self.params["switch_by"] == "filter"

    def trusts_filter(self) -> bool:
        if not (self.params["opponent_filter"] and super().trusts_filter()):
            return False
        when = self.params["filter_trust_when"]
        # rho swings within a hand against a heuristic player (a first hand at 0.7-0.98 is common);
        # the mean over finished hands, which picks the estimator, tells the two kinds apart.
        return when == "rho" or self._simple_like(shown=when == "shown-simple-like")

    def filter_knock_at(self) -> int:
        return self.opponent_knock_at()

    def _read_filter(self, read: Callable[[], object]) -> object:
        """A metered read of the filter; out of time, it keeps weighing hands but stops moving them."""
        if not self._searching():
            self.filter.sweeps = 0
        return self._timed(read)

    def filter_holds(self) -> np.ndarray:
        return self._read_filter(super().filter_holds)

    def filter_sample(self, count: int) -> list[int]:
        return self._read_filter(lambda: super(ChampionPlayer, self).filter_sample(count))

    def opponent_view(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.trusts_filter():
            return super().opponent_view()
        holds = self.filter_holds()
        return holds, in_opponent_meld_probability(holds)

    def sampled_opponents(self, holds: np.ndarray | None = None) -> np.ndarray:
        if not self.trusts_filter():
            tilt = self.params["gain_tilt"]
            learned = self.learned_drop() if self.params["gain_learning"] else 0.0
            if tilt > 0 or learned > 0:
                hands = self._tilted_hands(self.params["samples"], tilt, holds, learned=learned)
                return np.array(hands, dtype=np.uint64)
            return super().sampled_opponents(holds)
        return np.array(self.filter_sample(self.params["samples"]), dtype=np.uint64)

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        if seat != self.seat and self._switch_by_filter() and self._refresh_on_discard():
            # Nothing reads the filter's hands now, so move them here: collapsed hands explain
            # minimum-deadwood play badly and would drag rho down against Simple itself.
            self._read_filter(lambda: self.filter.refresh(self.knowledge))

    def _refresh_on_discard(self) -> bool:
        """Whether an opponent discard must move the filter's hands itself: the decisions read (and
        so move) them only while they trust it. ``filter_trust_when=rho`` (the default, as measured)
        leaves the moves to the decisions even while untrusted, unless ``filter_move_untrusted``."""
        if not self.params["opponent_filter"]:
            return True
        moved = self.params["filter_trust_when"] != "rho" or self.params["filter_move_untrusted"]
        return moved and not self.trusts_filter()

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        super().report_final_melds(seat, melds)
        if self.knocker is None:
            self.knocker = seat
            self.knocker_melds = tuple(melds)

    def report_final_hand(self, seat: int, hand: int) -> None:
        super().report_final_hand(seat, hand)
        if seat == self.seat or hand.bit_count() != 10:
            return
        if self.model_check is not None:
            unknown, first, second = self.model_check
            self.second_lead += revealed_log_score(second, hand, unknown) - revealed_log_score(first, hand, unknown)
        if self.knocker == self.seat and self.pending_gap is not None:
            self.world_gaps.append(self.pending_gap - min_deadwood(hand))
        if self.knocker == seat:
            self.opp_knocks.append(points_of(hand & ~union(self.knocker_melds)))
        elif self.knowledge.opp_turns > 0:
            deadwood = min_deadwood(hand)
            if deadwood <= MAX_DEADWOOD:
                self.opp_declines.append(deadwood)

    def report_scores(self, scores: tuple[int, int]) -> None:
        super().report_scores(scores)
        ours = scores[self.seat] - self.last_scores[self.seat]
        theirs = scores[1 - self.seat] - self.last_scores[1 - self.seat]
        self.last_scores = tuple(scores)
        self.hands_scored += 1
        if ours != theirs:
            self.hands_decided += 1
            self.hands_won += ours > theirs
        if self._switch_by_filter() and self.filter.started:
            self.hand_rhos.append(self.filter.rho)
        if self.pending_knock is not None:
            self.knock_errors.append(self.pending_knock - (ours - theirs))
            self.knock_deadwoods.append(self.pending_deadwood)
            self.pending_knock = None
        if self.hand_play_ons:
            self.play_on_errors.append(sum(self.hand_play_ons) / len(self.hand_play_ons) - (ours - theirs))
            self.hand_play_ons = []
        if max(scores) >= GOAL_SCORE and self.clock_stops:
            # Never silent: the host's clock, not the work budget, cut this game's search short.
            print(f"champion: the host's clock stopped the search in {self.clock_stops} decision(s) of this game "
                  f"(time_left under host_reserve={self.params['host_reserve']:g} s; {self.playouts:,} playouts "
                  f"of {self.params['game_playouts']:,})", file=sys.stderr)

    # --- which opponent model ------------------------------------------------------------------
    def estimator(self) -> Estimator:
        """The second estimator once this game shows an opponent it fits better (``switch_by``: the filter's
        mean end-of-hand rho below ``switch_rho``, or the revealed hands' log score ahead by ``switch_margin``),
        else the first: estimators are fitted on some players' games, and the opponent shows which fits it."""
        second = self.params["second_estimator"]
        return shared_estimator(second) if self._switched() else super().estimator()

    def _switched(self) -> bool:
        """Whether this game has shown an opponent the second estimator fits better (never without one)."""
        if self.params["second_estimator"] == "none":
            return False
        if self.params["switch_by"] == "filter":
            return bool(self.hand_rhos) and sum(self.hand_rhos) / len(self.hand_rhos) < self.params["switch_rho"]
        return self.second_lead > self.params["switch_margin"]

    def weight_files(self) -> list:
        second = self.params["second_estimator"]
        learned = learned_weight_files(self.params["learned_net"]) if self.params["learned_discard"] else []
        for name in self._learned_nets():
            path = find_weights(name)
            learned += [path, card_path(path)]
        # net_holds=recorded reads the networks' own second model, whatever second_estimator names: package it too
        recorded = (weight_files_for(NETS_SECOND_ESTIMATOR)
                    if self.params["net_holds"] == "recorded" and second != NETS_SECOND_ESTIMATOR else [])
        return super().weight_files() + ([] if second == "none" else weight_files_for(second)) + recorded + learned

    def prepare(self) -> None:
        super().prepare()
        if self.params["second_estimator"] != "none":
            shared_estimator(self.params["second_estimator"])
        if self.params["learned_discard"]:
            prepare_learned(self.params["learned_net"])
        for name in self._learned_nets():
            shared_afterstate_value(name)
        if self.playout_code() == "compiled":
            warm_up()  # compile (or load) the kernels before the first decision, not during it
        else:  # playouts=python: every hot loop in numpy and Python in this process, the same numbers
            use_numpy()

    def _learned_nets(self) -> list[str]:
        """The afterstate networks this configuration reads."""
        return (([AFTERSTATE_NET] if self.params["afterstate_weight"] else [])
                + ([PLAY_ON_NET] if self.params["knock_leaf"] == "learned" else [])
                + ([KNOCK_NET] if self.params["knock_net"] else []))

    def compiled_kernels(self) -> bool:
        return self.playout_code() == "compiled"

    def _check_models(self) -> None:
        """Both estimators' view at our discard, scored when the opponent's hand is revealed."""
        second = self.params["second_estimator"]
        if second == "none" or self.params["switch_by"] != "revealed":
            return
        k = self.knowledge
        self.model_check = (k.unknown & ~k.opp_known, super().estimator().estimate(k),
                            shared_estimator(second).estimate(k))

    def knock_correction(self, deadwood: int | None = None) -> float:
        """How many points this game's searched knocks have overrated knocking, shrunk toward 0:
        the worlds are drawn from an estimator fitted on other players, and an opponent that
        keeps low hands (and undercuts) shows itself here first. With ``knock_learning_by=deadwood``
        and a ``deadwood`` to knock with, that many times the errors' points per point of the deadwood
        knocked with (an undercut is likelier the more we keep). With ``play_on_learning``, less what
        its play-ons have overrated playing on: the same worlds bias both branches."""
        shrink = self.params["knock_learning"]
        if deadwood is not None and self.params["knock_learning_by"] == "deadwood":
            overrated = (sum(self.knock_errors) / (sum(self.knock_deadwoods) + shrink * deadwood) * deadwood
                         if shrink > 0 and self.knock_errors else 0.0)
        else:
            overrated = shrunk_mean(self.knock_errors, shrink)
        return overrated - shrunk_mean(self.play_on_errors, self.params["play_on_learning"])

    def knock_margin(self) -> float:
        """Points by which knocking now must beat playing on: ``knock_margin``, plus ``early_knocker_margin``
        once the opponent has shown a knock threshold of ``early_knocker_at`` or more (against players that
        knock early, the searched knocks just above the line paid less than the play-ons just below it;
        experiments/champion-knock-margin)."""
        margin, extra = self.params["knock_margin"], self.params["early_knocker_margin"]
        return margin + extra if extra and self.shown_early_knocker() else margin

    def draw_override_margin(self) -> float:
        """Points by which a searched draw must beat the heuristic's: ``override_margin``, or
        ``early_knocker_override`` once the opponent has shown a knock threshold of ``early_knocker_at`` or more
        (measured: a margin of 1 gained against Simple and lost against the gin-waiting Simple)."""
        early = self.params["early_knocker_override"]
        return early if early >= 0 and self.shown_early_knocker() else self.params["override_margin"]

    def shown_early_knocker(self) -> bool:
        """Whether the opponent's play (its knocks and kept knockable hands; the prior alone never counts) shows a
        knock threshold of ``early_knocker_at`` or more."""
        shown = bool(self.opp_knocks or self.opp_declines)
        return shown and self.opponent_knock_at() >= self.params["early_knocker_at"]

    def opponent_knock_at(self) -> int:
        """The opponent's knock threshold as its play so far shows it (the prior until then)."""
        if not self.opp_knocks and not self.opp_declines:
            return self.params["opponent_knock_prior"]
        low = max(self.opp_knocks, default=0)
        high = min(self.opp_declines, default=MAX_DEADWOOD + 1) - 1
        if low <= high:  # consistent with one threshold: the most aggressive one it allows
            return min(high, MAX_DEADWOOD) if self.opp_declines else max(low, self.params["opponent_knock_prior"])
        return round(median(self.opp_knocks))  # it knocks and waits by turns: its typical knock

    # --- what runners and `ginbots list` are told ------------------------------------------------
    @classmethod
    def runtime_for(cls, params: Mapping[str, Any]) -> dict[str, str]:
        code = resolve_code(params.get("playouts", "auto"))
        return {"playouts": "compiled (numba)" if code == "compiled" else "pure Python (install ginbots[fast] "
                                                                          "for compiled playouts)"}

    @classmethod
    def remembers_for(cls, params: Mapping[str, Any]) -> bool:
        return params["memory_hands"] > 0

    # --- decisions -----------------------------------------------------------------------------
    def wants_face_up(self, card: int) -> bool:
        choice = super().wants_face_up(card)
        if not self.params["search_draws"] or not self._searching():
            return choice
        throw, after = simple_discard(self.hand | 1 << card, card)
        if not choice and after >= min_deadwood(self.hand):
            return False  # the card helps neither the heuristic nor our deadwood: no search
        return bool(self._timed(lambda: self._search_draw(card, choice, throw, after)))

    def _search_draw(self, card: int, choice: bool, throw: int, after: int) -> bool:
        """Taking ``card`` (then Simple's discard ``throw``, leaving ``after`` deadwood) against the stock."""
        hand = self.hand
        kept = (hand | 1 << card) ^ 1 << throw
        plays = self.playouts_over(self.sampled_worlds())
        values = self._race({1: lambda lo, hi: plays.after_discard(kept, after, throw, lo, hi),
                             0: lambda lo, hi: plays.after_stock_draw(hand, lo, hi)}, len(plays.worlds))
        searched = values[1] > values[0]
        if searched != choice and abs(values[1] - values[0]) > self.draw_override_margin():
            return searched
        return choice

    def discard(self) -> int:
        self.worlds = []
        self._timed(self._check_models)
        choice = super().discard()
        mode = self.params["search_discards"]
        if mode == "off" or (mode == "trusted" and not self.trusts_filter()) or not self._searching():
            return choice
        if mode == "knockable":
            if not 0 < min_deadwood(self.hand ^ 1 << choice) <= MAX_DEADWOOD:
                return choice
            return int(self._timed(lambda: self._search_knockable_discard(choice)))
        return int(self._timed(lambda: self._search_discard(choice)))

    def discard_values(self, candidates: list[int], opponents: np.ndarray,
                       holds: np.ndarray | None = None, prune: bool = True) -> dict[int, float]:
        """The heuristic's values, plus ``learned_discard`` x the learned score of the hand each discard
        leaves and ``afterstate_weight`` x the afterstate value of the position it leaves (their
        differences between candidates, in points)."""
        learned, afterstate = self.params["learned_discard"], self.params["afterstate_weight"]
        lookahead = self.params["lookahead_weight"]
        if not (learned or afterstate or lookahead) or len(candidates) < 2:
            return super().discard_values(candidates, opponents, holds, prune)
        terms = []
        if learned:
            offence = learned_offence(self.hand, candidates, self.knowledge, self.params["learned_net"])
            terms.append({c: learned * float(o) for c, o in zip(candidates, offence)})
        if afterstate:
            if holds is None:
                holds = self.opponent_view()[0]
            net_holds = self.net_holds(holds)
            points = afterstate_values(self.knowledge, candidates, net_holds, self.params["afterstate_suits"])
            terms.append({c: afterstate * float(p) for c, p in zip(candidates, points)})
        if lookahead:
            if holds is None:
                holds = self.opponent_view()[0]
            reach = one_draw_deadwoods(self.hand, candidates, self.knowledge.unknown, holds)
            terms.append({c: -lookahead * reach[c] for c in candidates})
        # Pruned values are upper bounds: fine for the heuristic's best discard, not for the discard
        # search, which ranks the best few.
        exact = self.params["search_discards"] != "off"
        return super().discard_values(candidates, opponents, holds, prune=prune and not exact, terms=terms)

    def draw_term(self, card: int, stock_cards: list[int], in_stock: np.ndarray, holds: np.ndarray) -> float:
        weight = self.params["afterstate_draw"]
        if not weight:
            return 0.0
        return weight * draw_values(self.knowledge, card, stock_cards, in_stock, self.net_holds(holds))

    def knock(self) -> Melds | None:
        hand = self.hand
        deadwood = min_deadwood(hand)
        if deadwood > MAX_DEADWOOD:
            return None
        if deadwood == 0:
            if self.params["gin_gaps"] and self.params["tilt_learning"] > 0:
                self._note_gin_gap()
            return best_meld_set(hand)
        if not self._searching():  # out of budget: the heuristic's knock rule (document 002's modification 1)
            return super().knock()
        knock_now, play_on, melds, points = self._timed(lambda: self._knock_values(hand))
        knock_now, play_on, points = self._timed(lambda: self._learned_knock_values(knock_now, play_on, points))
        if knock_now - self.knock_correction(deadwood) - self.knock_margin() <= play_on:
            if self.utility is None:  # errors are learned in points (not with score_aware's equity)
                self.hand_play_ons.append(play_on)
            return None
        self.pending_knock, self.pending_deadwood = points, deadwood
        self.pending_gap = self.world_mean
        return melds

    def _learned_knock_values(self, knock_now: float, play_on: float, points: float) -> tuple[float, float, float]:
        """The knock decision's values with the learned networks this configuration reads: ``knock_net`` blends
        the network's points of knocking now into the worlds' (both the value and its points), and
        ``knock_leaf=learned`` replaces the value of playing on."""
        blend = self.params["knock_net"]
        if blend and self.utility is None and (self.params["knock_net_when"] == "always" or not self.trusts_filter()):
            learned = knock_now_value(self.knowledge, self.net_holds(self.opponent_view()[0]))
            knock_now, points = (1 - blend) * knock_now + blend * learned, (1 - blend) * points + blend * learned
        if self.params["knock_leaf"] == "learned":
            play_on = play_on_value(self.knowledge, self.net_holds(self.opponent_view()[0]))
        return knock_now, play_on, points

    def net_holds(self, holds: np.ndarray) -> np.ndarray:
        """The opponent's holding chances the learned networks read: ``holds`` (this decision's model), or with
        ``net_holds=recorded`` the chances of the model their training games read where they differ (after the
        estimator switch, ``NETS_SECOND_ESTIMATOR``'s): a network learns the scale of the model it was fed."""
        if self.params["net_holds"] != "recorded" or not self._switched() or self.trusts_filter():
            return holds
        return shared_estimator(NETS_SECOND_ESTIMATOR).estimate(self.knowledge)

    def _note_gin_gap(self) -> None:
        """Keep this turn's worlds' mean opponent deadwood at our gin, as at a searched knock, so the
        hand the opponent reveals teaches tilt learning too (about as many gins as knocks against a
        player that keeps its hand low); nothing while the filter's hands are trusted."""
        if not self.worlds:
            self.worlds = self.sampled_worlds()
        self.pending_gap = self.world_mean

    def _knock_values(self, hand: int) -> tuple[float, float, Melds, float]:
        """Mean values (points, or equity with ``score_aware``) of knocking now and of playing on over
        this decision's worlds, the meld set to knock with (the one leaving the sampled opponents
        fewest layoffs) and the mean points of knocking now."""
        if not self.worlds:
            self.worlds = self.sampled_worlds(self.params["knock_worlds"])
        worlds = self.worlds
        melds = self.knock_melds(hand, worlds)
        top = self.knowledge.pile[-1]
        plays = self.playouts_over(worlds)
        knocked: list[float] = []

        def knock_now(lo: int, hi: int) -> list[float]:
            knocked.extend(plays.knock(hand, melds, lo, hi))
            return knocked[len(knocked) - (hi - lo):]

        values = self._race({1: knock_now, 0: lambda lo, hi: plays.play(hand, top, lo, hi)}, len(worlds))
        return values[1], values[0], melds, sum(knocked) / len(knocked)
