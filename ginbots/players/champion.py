"""The champion: determinized playouts over sampled opponent hands, with an opponent model.

Goes beyond the five documents. At each decision it samples ``samples`` opponent
hands from an opponent-hand estimator (conditioned on every pickup, decline and
discard seen) and a stock order for each, then plays every candidate action out
to the end of the hand with ``ginbots.rollout`` (both seats on Simple's rule).
The same samples serve every candidate (common random numbers), so differences
between candidates are measured on the same deals.

- Discard: the ``discard_candidates`` least-deadwood legal discards are each
  played out; when the hand left can knock, the value is the better of knocking
  now (scored exactly on each sample, layoffs included) and playing on.
- Knock: knocking now against playing on, on the samples of the discard just made.
- Draw: taking the face-up card (then Simple's discard) against the stock.
- The opponent model: the opponent's knock threshold in playouts is inferred from
  what it showed this game: the deadwood of its knocks, and the hands it kept
  without knocking (seen at the end of a hand). A player that waits for gin is
  soon modelled as one, a player that knocks at once as Simple.

Thinking time is metered: past ``game_budget`` seconds in a game it plays
Simple's rule for the rest of that game, so a game never nears the challenge's
limit even on a slow machine.
"""

from __future__ import annotations

from statistics import median
from time import perf_counter

import numpy as np

from ..cards import CARD_POINTS, MAX_DEADWOOD, cards_of, points_of, union
from ..estimators import ESTIMATOR_NAMES, shared_estimator, weight_files_for
from ..estimators.snapshot import masks_of
from ..knowledge import KnowledgePlayer
from ..melds import best_meld_set, discard_outcomes, min_deadwood
from ..player import Hyperparameter, Melds
from ..rollout import joins_meld, knock_points, play_out, simple_discard
from ..tactics import best_defence_melds, knock_melds_min_layoffs


class ChampionPlayer(KnowledgePlayer):
    """Sampling-and-playout search with an inferred opponent knock threshold (module doc)."""

    name = "champion"
    hyperparameters = (
        Hyperparameter("rollout_knock_at", int, 6, 0, 10,
                       doc="our own knock threshold inside playouts (the policy the search improves on)"),
        Hyperparameter("knock_margin", float, 0.0, -10.0, 10.0,
                       doc="knock only when knocking now beats playing on by more than this many points"),
        Hyperparameter("opponent_knock_prior", int, 10, 0, 10,
                       doc="the opponent's knock threshold assumed before it has shown one"),
        Hyperparameter("offer_min_gain", int, 0, 0, 10,
                       doc="search an offer only when the face-up card joins a meld or lowers our deadwood "
                           "by more than this; otherwise draw from the stock"),
        Hyperparameter("samples", int, 96, 2, 1000, tunable=False,
                       doc="opponent hands (each with a stock order) sampled per decision"),
        Hyperparameter("first_round", int, 24, 1, 1000, tunable=False,
                       doc="worlds every discard candidate is played out on before the worse half is dropped"),
        Hyperparameter("discard_candidates", int, 4, 1, 11, tunable=False,
                       doc="least-deadwood discards played out per discard decision"),
        Hyperparameter("game_budget", float, 6.0, 0.5, 9.0, tunable=False,
                       doc="seconds of thinking per game after which it plays Simple's rule"),
        Hyperparameter("estimator", str, "bayes", choices=tuple(n for n in ESTIMATOR_NAMES if n != "omniscient"),
                       tunable=False, doc="opponent-hand estimator the hands are sampled from"),
    )

    def weight_files(self) -> list:
        return weight_files_for(self.params["estimator"])

    # --- the game and the opponent model -------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.np_rng = np.random.default_rng(self.rng.getrandbits(64))
        self.thought = 0.0
        self.opp_knocks: list[int] = []     # deadwood of each opponent knock
        self.opp_declines: list[int] = []   # knockable deadwood the opponent kept without knocking

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.knocker: int | None = None
        self.knocker_melds: tuple[int, ...] = ()
        self.pending: dict[int, tuple[float, float]] = {}
        self.samples_cache: tuple[list[int], list[list[int]]] | None = None

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        super().report_final_melds(seat, melds)
        if self.knocker is None:
            self.knocker = seat
            self.knocker_melds = tuple(melds)

    def report_final_hand(self, seat: int, hand: int) -> None:
        super().report_final_hand(seat, hand)
        if seat == self.seat or hand.bit_count() != 10:
            return
        if self.knocker == seat:
            self.opp_knocks.append(points_of(hand & ~union(self.knocker_melds)))
        elif self.knowledge.opp_turns > 0:
            deadwood = min_deadwood(hand)
            if deadwood <= MAX_DEADWOOD:
                self.opp_declines.append(deadwood)

    def opponent_knock_at(self) -> int:
        """The opponent's knock threshold as its play so far shows it (the prior until then)."""
        low = max(self.opp_knocks, default=0)
        high = min(self.opp_declines, default=MAX_DEADWOOD + 1) - 1
        if not self.opp_knocks and not self.opp_declines:
            return self.params["opponent_knock_prior"]
        if low <= high:
            return min(high, MAX_DEADWOOD) if self.opp_declines else max(low, self.params["opponent_knock_prior"])
        return int(round(median(self.opp_knocks)))  # it knocks and waits by turns: its typical knock

    # --- sampling ------------------------------------------------------------------------------
    def sampled_worlds(self) -> tuple[list[int], list[list[int]]]:
        """Opponent hands from the estimator and, for each, a stock order of the remaining cards."""
        k = self.knowledge
        estimator = shared_estimator(self.params["estimator"])
        n = self.params["samples"]
        opponents = [int(m) for m in masks_of(estimator.sample(k, n, self.np_rng))]
        stocks = []
        for opp in opponents:
            rest = cards_of(k.unknown & ~opp)
            self.rng.shuffle(rest)
            stocks.append(rest[:k.stock_size] if len(rest) > k.stock_size else rest)
        return opponents, stocks

    def _searching(self) -> bool:
        return self.thought < self.params["game_budget"]

    # --- decisions -----------------------------------------------------------------------------
    def wants_face_up(self, card: int) -> bool:
        hand = self.hand
        now = min_deadwood(hand)
        _, after_take = simple_discard(hand | 1 << card, card)
        useful = joins_meld(card, hand) or after_take < now - self.params["offer_min_gain"]
        if not useful:
            return False
        if not self._searching():
            return joins_meld(card, hand)
        start = perf_counter()
        try:
            opponents, stocks = self.sampled_worlds()
            ks = (self.params["rollout_knock_at"], self.opponent_knock_at())
            take = stock = 0.0
            throw, deadwood = simple_discard(hand | 1 << card, card)
            kept = (hand | 1 << card) ^ 1 << throw
            for opp, order in zip(opponents, stocks):
                take += self._after_discard(kept, deadwood, opp, order, 0, throw, ks)
                if len(order) > 2:
                    drawn = order[0]
                    t, dw = simple_discard(hand | 1 << drawn)
                    stock += self._after_discard((hand | 1 << drawn) ^ 1 << t, dw, opp, order, 1, t, ks)
            return take > stock
        finally:
            self.thought += perf_counter() - start

    @staticmethod
    def _after_discard(hand: int, deadwood: int, opp: int, order: list[int], start: int, top: int,
                       ks: tuple[int, int]) -> float:
        if deadwood <= ks[0]:
            return knock_points(hand, opp)
        return play_out(hand, opp, order, start, top, 1, ks)

    def discard(self) -> int:
        hand = self.hand
        legal = self.legal_discards()
        options = sorted(((dw, -CARD_POINTS[c], c) for c, dw, _ in discard_outcomes(hand) if legal >> c & 1))
        if options[0][0] == 0 or not self._searching():
            return options[0][2]  # gin (or out of time): Simple's choice
        start = perf_counter()
        try:
            return self._search_discard(hand, options[:self.params["discard_candidates"]])
        finally:
            self.thought += perf_counter() - start

    def _search_discard(self, hand: int, candidates: list[tuple[int, int, int]]) -> int:
        """Successive halving: every candidate is played out on the first ``first_round`` worlds,
        then the better half goes on to twice as many, until the worlds run out or one is left."""
        opponents, stocks = self.sampled_worlds()
        self.samples_cache = (opponents, stocks)
        ks = (self.params["rollout_knock_at"], self.opponent_knock_at())
        margin = self.params["knock_margin"]
        play_on = {card: 0.0 for _, _, card in candidates}
        knock_now = {card: 0.0 for dw, _, card in candidates if dw <= MAX_DEADWOOD}
        alive = [card for _, _, card in candidates]
        done, step = 0, self.params["first_round"]
        while True:
            batch = range(done, min(done + step, len(opponents)))
            for card in alive:
                kept = hand ^ 1 << card
                play_on[card] += sum(play_out(kept, opponents[i], stocks[i], 0, card, 1, ks) for i in batch)
                if card in knock_now:
                    knock_now[card] += sum(knock_points(kept, opponents[i]) for i in batch)
            done = batch.stop
            value = {c: max(play_on[c], knock_now[c] - margin * done) if c in knock_now else play_on[c]
                     for c in alive}
            alive.sort(key=lambda c: -value[c])
            if done >= len(opponents) or len(alive) == 1:
                break
            alive = alive[:max(1, (len(alive) + 1) // 2)]
            step *= 2
        best = alive[0]
        self.pending = {best: (knock_now[best] / done, play_on[best] / done)} if best in knock_now else {}
        return best

    def knock(self) -> Melds | None:
        hand = self.hand
        deadwood = min_deadwood(hand)
        if deadwood > MAX_DEADWOOD:
            return None
        if deadwood == 0:
            return best_meld_set(hand)
        opponents = self.samples_cache[0] if self.samples_cache else []
        values = self.pending.get(self.knowledge.pile[-1] if self.knowledge.pile else -1)
        if values is None:
            if not self._searching():
                return best_meld_set(hand)
            start = perf_counter()
            opponents, stocks = self.sampled_worlds()
            ks = (self.params["rollout_knock_at"], self.opponent_knock_at())
            top = self.knowledge.pile[-1]
            knock_now = sum(knock_points(hand, opp) for opp in opponents) / len(opponents)
            play_on = sum(play_out(hand, opp, order, 0, top, 1, ks) for opp, order in zip(opponents, stocks))
            values = (knock_now, play_on / len(opponents))
            self.thought += perf_counter() - start
        if values[0] - self.params["knock_margin"] < values[1]:
            return None
        return knock_melds_min_layoffs(hand, opponents[:16])

    def declare_melds(self) -> Melds:
        return best_defence_melds(self.hand, self.knocker_melds)
