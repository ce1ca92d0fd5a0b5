"""Player bases that keep what a seat knows: the knowledge tracker and the shared end-of-hand behaviour.

``KnowledgePlayer`` keeps ``ginbots.game.knowledge.Knowledge`` up to date from the callbacks;
``LayoffAwarePlayer`` adds the knock and defence meld choices of ``ginbots.game.tactics``.
"""

from __future__ import annotations

from ginbots.game.cards import MAX_DEADWOOD
from ginbots.game.knowledge import Knowledge
from ginbots.game.melds import min_deadwood
from ginbots.game.tactics import best_defence_melds, knock_melds_min_layoffs

from .base import HandTrackingPlayer, Hyperparameter


class KnowledgePlayer(HandTrackingPlayer):
    """A ``HandTrackingPlayer`` that also keeps ``self.knowledge`` for the current hand.

    Subclasses answer offers in ``wants_face_up`` and call ``super()`` first
    in any report they override.
    """

    knowledge: Knowledge

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.knowledge = Knowledge(seat, starter, hand)

    def will_draw_face_up(self, card: int) -> bool:
        self.face_up = card
        self.knowledge.offered(card)
        take = bool(self.wants_face_up(card))
        self.knowledge.answered(card, take)
        return take

    def report_draw(self, seat: int, card: int | None) -> None:
        super().report_draw(seat, card)
        self.knowledge.drew(seat, card)

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        self.knowledge.discarded(seat, card)


#: Hyperparameters of the shared end-of-hand behaviour; bots list them in their own tuple.
KNOCK_THRESHOLD = Hyperparameter(
    "knock_threshold", int, 10, 0, 10,
    doc="knock when deadwood is at or below this (10: as soon as legal; 0: wait for gin)")
LAYOFF_SAMPLES = Hyperparameter(
    "layoff_samples", int, 30, 0, 500, tunable=False,
    doc="sampled opponent hands used to pick the knocking meld set and order (0: first optimal set)")


class LayoffAwarePlayer(KnowledgePlayer):
    """Knocks at ``knock_threshold`` with the optimal meld set and order that
    minimises the opponent's expected layoffs; defends with ``best_defence_melds``."""

    knocker_melds: tuple[int, ...] = ()

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.knocker_melds = ()

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        super().report_final_melds(seat, melds)
        if seat != self.seat:
            self.knocker_melds = melds

    def knock(self) -> tuple[int, ...] | None:
        if min_deadwood(self.hand) > min(self.params["knock_threshold"], MAX_DEADWOOD):
            return None
        samples = self.knowledge.sample_opponent_hands(self.params["layoff_samples"], self.rng)
        return knock_melds_min_layoffs(self.hand, samples)

    def declare_melds(self) -> tuple[int, ...]:
        return best_defence_melds(self.hand, self.knocker_melds)
