"""A player mix-in that keeps the opponent filter (``ginbots.search.opponent_model``) fed from its callbacks.

Put it before the player's base class (``class Bot(FilteringPlayer, Base)``); the
bot declares ``FILTER_HYPERPARAMETERS`` among its own and reads ``trusts_filter()``,
``filter_holds()`` and ``filter_sample()``. The mixture weight ``rho`` is carried
from hand to hand within a game, so the opponent's type is learned once per game.
"""

from __future__ import annotations

import numpy as np

from ginbots.search.opponent_model import OpponentFilter

from .base import Hyperparameter
from .tracking import KnowledgePlayer

FILTER_HYPERPARAMETERS = (
    Hyperparameter("filter_trust", float, 0.5, 0.0, 1.0,
                   doc="use the opponent filter's hands once its policy weight rho reaches this"),
    Hyperparameter("filter_particles", int, 4000, 100, 100000, tunable=False,
                   doc="opponent hands the filter carries"),
    Hyperparameter("filter_sweeps", int, 2, 0, 8, tunable=False,
                   doc="Metropolis move sweeps over the filter's hands after each resampling (more: hands spread "
                       "further from the few a resampling copies, at more thinking)"),
    Hyperparameter("filter_near_ratio", float, 0.0, 0.0, 1.0, tunable=False,
                   doc="the filter's other model of the opponent: 0, uninformative play (every legal answer "
                       "equally likely); r > 0, discards near the least deadwood, one leaving g points more "
                       "being r ** g times as likely (a player that mostly throws cheap cards but weighs "
                       "other things too keeps informing the hands while rho falls; the public entry java-tonic's "
                       "discards fit r = 0.6 best. The champion with r = 0.6 and filter_trust=0 against it: -1.1 +- "
                       "1.2 points of wins paired over 900 deals, its moves in numpy: "
                       "experiments/champion-tonic-screen)"),
)


class FilteringPlayer(KnowledgePlayer):
    """Feeds an ``OpponentFilter`` every opponent action; bots enable it with ``filter_enabled``."""

    def filter_enabled(self) -> bool:
        return True

    def filter_knock_at(self) -> int:
        """The opponent's knock threshold the filter assumes (Simple's by default)."""
        return 10

    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.rho = 0.5

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        # The filter's stream is drawn only when it runs, so a bot with it off plays its old games.
        rng = np.random.default_rng(self.rng.getrandbits(64) if self.filter_enabled() else 0)
        self.filter = OpponentFilter(self.params["filter_particles"], rng, self.rho, self.filter_knock_at(),
                                     sweeps=self.params["filter_sweeps"],
                                     near_ratio=self.params["filter_near_ratio"])
        self.declines_seen = 0

    def _start_filter(self, exclude: int) -> None:
        if self.filter_enabled() and not self.filter.started:
            self.filter.start(self.knowledge, exclude)

    def _sync_declines(self) -> None:
        """Feed the filter the opponent's declined face-up cards the tracker has recorded since."""
        declined = self.knowledge.opp_declined
        while self.declines_seen < len(declined):
            if self.filter_enabled():
                self.filter.declined(declined[self.declines_seen][0], self.knowledge)
            self.declines_seen += 1

    def will_draw_face_up(self, card: int) -> bool:
        self._start_filter(1 << card)
        return super().will_draw_face_up(card)

    def report_draw(self, seat: int, card: int | None) -> None:
        self._start_filter(0 if card is None else 1 << card)
        super().report_draw(seat, card)
        self._sync_declines()
        if seat != self.seat and self.filter_enabled():
            if card is None:
                self.filter.drew_stock(self.knowledge)
            else:
                self.filter.took(card, self.knowledge)

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        if seat != self.seat and self.filter_enabled():
            self.filter.discarded(card, self.knowledge)
            self.rho = self.filter.rho

    def trusts_filter(self) -> bool:
        self._sync_declines()
        return self.filter_enabled() and self.filter.started and self.filter.rho >= self.params["filter_trust"]

    def filter_holds(self) -> np.ndarray:
        """(52,) the filter's chance that the opponent holds each card."""
        return self.filter.holds(self.knowledge)

    def filter_sample(self, count: int) -> list[int]:
        return self.filter.sample(count, self.knowledge)
