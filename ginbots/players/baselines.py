"""Baseline players: the challenge's Simple player, a random player, document 003's greedy agent.

They are the yardsticks every published win rate is quoted against, so they
follow their definitions exactly and run fast (Simple is the benchmark player).
"""

from __future__ import annotations

from ginbots.game.cards import MAX_DEADWOOD, RANK_POINTS, cards_of, completes_meld
from ginbots.game.melds import (
    best_meld_set,
    best_meld_sets,
    deadwood_after_discards,
    least_deadwood_discards,
    lowering_discards,
    min_deadwood,
)

from .base import HandTrackingPlayer, Hyperparameter, Melds
from .tracking import KnowledgePlayer


class SimplePlayer(HandTrackingPlayer):
    """``SimpleGinRummyPlayer`` of the EAAI challenge.

    Takes the face-up card iff it joins a meld of hand + card; discards a card
    leaving minimum deadwood (random among ties), never the face-up card just
    taken nor one that repeats a {drawn, discarded} pair of this hand; knocks as
    soon as deadwood <= ``knock_at`` (10: the challenge's Simple; 0: waits for
    gin); declares a uniformly random optimal meld set.
    """

    name = "simple"
    hyperparameters = (
        Hyperparameter("knock_at", int, MAX_DEADWOOD, 0, MAX_DEADWOOD,
                       doc="knocks as soon as its deadwood is at or below this (10: the challenge's Simple; "
                           "0: only on gin), a baseline for bots tuned against the knock-at-once Simple"),
    )

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.used_pairs: set[int] = set()
        self._kept = (-1, 0)  # (hand after our last discard, its deadwood): what knock() reuses

    def will_draw_face_up(self, card: int) -> bool:
        self.face_up = card
        return completes_meld(card, self.hand)

    def report_draw(self, seat: int, card: int | None) -> None:
        if seat == self.seat:
            self.hand |= 1 << card  # type: ignore[operator]
            self.drawn = card  # type: ignore[assignment]
            self.drew_face_up = card == self.face_up

    def report_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.hand ^= 1 << card

    def discard(self) -> int:
        drawn = self.drawn
        drawn_bit = 1 << drawn
        # Never the face-up card just taken, nor a card that repeats a {drawn, discarded} pair of this hand.
        banned = drawn_bit if drawn == self.face_up else 0
        used = self.used_pairs
        for pair in used:
            if pair & drawn_bit:
                banned |= pair if pair == drawn_bit else pair ^ drawn_bit
        best, candidates = least_deadwood_discards(self.hand, banned)
        choice = candidates[0] if len(candidates) == 1 else candidates[self.rng.randrange(len(candidates))]
        used.add(drawn_bit | 1 << choice)
        self._kept = (self.hand ^ 1 << choice, best)  # the knock that follows needs this deadwood
        return choice

    def knock(self) -> Melds | None:
        kept = self._kept
        deadwood = kept[1] if kept[0] == self.hand else min_deadwood(self.hand)
        if deadwood > self.params.get("knock_at", MAX_DEADWOOD):
            return None
        return self._random_best_melds()

    def declare_melds(self) -> Melds:
        return self._random_best_melds()

    def _random_best_melds(self) -> Melds:
        options = best_meld_sets(self.hand)
        return options[0] if len(options) == 1 else options[self.rng.randrange(len(options))]


class RandomDiscardPlayer(SimplePlayer):
    """The document's RP: Simple, except that it discards a uniformly random unmelded card."""

    name = "random-discard"

    def discard(self) -> int:
        # The document's RP: its random choice is not guarded (Simple's fallback below is).
        unmelded = [c for c, _ in lowering_discards(self.hand, self.legal_discards(avoid_cycles=False))]
        if not unmelded:
            return super().discard()
        return unmelded[self.rng.randrange(len(unmelded))]


class TrackingSimplePlayer(KnowledgePlayer, SimplePlayer):
    """Simple's play with a ``knowledge`` tracker kept current: the base of bots that change one of its rules."""

    def wants_face_up(self, card: int) -> bool:
        return SimplePlayer.will_draw_face_up(self, card)

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        if seat == self.seat:  # Simple's own report skips this; these bots discard by legal_discards
            self.used_pairs.add(1 << self.drawn | 1 << card)


class KnocksWhenLegal(HandTrackingPlayer):
    """Knocks as soon as deadwood <= 10 and declares the first optimal meld set."""

    def knock(self) -> Melds | None:
        if min_deadwood(self.hand) > MAX_DEADWOOD:
            return None
        return best_meld_set(self.hand)

    def declare_melds(self) -> Melds:
        return best_meld_set(self.hand)


class RandomPlayer(KnocksWhenLegal):
    """Uniformly random legal actions; knocks (with an optimal meld set) whenever legal."""

    name = "random"
    hyperparameters = (
        Hyperparameter("take_probability", float, 0.5, 0.0, 1.0,
                       doc="chance of taking an offered face-up card"),
    )

    def wants_face_up(self, card: int) -> bool:
        return self.rng.random() < self.params["take_probability"]

    def discard(self) -> int:
        return self.rng.choice(cards_of(self.legal_discards()))



class GreedyPlayer(KnocksWhenLegal):
    """The greedy agent of document 003 (Vento and Rahman), under the challenge's rules.

    Takes the face-up card if that lowers its deadwood (after its best legal
    discard); discards its highest-ranked deadwood card (ties: higher id);
    knocks as soon as legal with an optimal meld set.
    """

    name = "greedy"

    def wants_face_up(self, card: int) -> bool:
        now = min_deadwood(self.hand)
        after = min(dw for c, dw in deadwood_after_discards(self.hand | 1 << card) if c != card)
        return after < now

    def discard(self) -> int:
        legal = self.legal_discards()
        melded = 0
        for m in best_meld_set(self.hand):
            melded |= m
        deadwood_cards = cards_of(legal & ~melded)
        if deadwood_cards:
            return max(deadwood_cards, key=lambda c: (c % 13, c))
        # Every legal card is melded: give up the one that costs least.
        options = [(dw, -RANK_POINTS[c % 13], -c, c) for c, dw in deadwood_after_discards(self.hand)
                   if legal >> c & 1]
        return min(options)[3]
