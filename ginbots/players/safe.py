"""Document 001's hand-estimation application: Simple with a safe discard rule.

Among the ``top_k`` (3) safest discards, by the discard danger of the
opponent-hand estimate (default: the Shankar CNN), discard the one that leaves
the least deadwood; draw and knock as Simple does. "Safest" is read as the authors' related
code reads it (``danger=meld-sum``, ``habits=authors``, the defaults); the document's text as
written is ``danger=eq5,habits=document``. Not in the document: ``opponent_filter=true`` takes the
risk from the opponent filter (``ginbots.search.opponent_model``) while it trusts its model.  Candidates are the cards
whose discard lowers deadwood (the document's "decreases deadwood"), so a
safe but melded card is never thrown.
"""

from __future__ import annotations

from ginbots.estimators import ESTIMATOR_NAMES, UsesNamedEstimator
from ginbots.estimators.risk import discard_risk, meld_danger
from ginbots.game.cards import RANK_MASK_ACES
from ginbots.game.melds import deadwood_after_discards, lowering_discards

from .base import Hyperparameter
from .baselines import TrackingSimplePlayer
from .filtered import FILTER_HYPERPARAMETERS, FilteringPlayer


class SafeDiscarderPlayer(UsesNamedEstimator, FilteringPlayer, TrackingSimplePlayer):
    """Simple, discarding the least-deadwood card among the ``top_k`` safest (document 001)."""

    name = "safe"
    hyperparameters = (
        Hyperparameter("top_k", int, 3, 1, 11, doc="how many of the safest discards to choose among (document: 3)"),
        Hyperparameter("estimator", str, "shankar-cnn",
                       choices=tuple(n for n in ESTIMATOR_NAMES if n != "omniscient"), tunable=False,
                       doc="opponent-hand estimator behind the risk (document: the Shankar CNN)"),
        Hyperparameter("opponent_filter", bool, False,
                       doc="not in the document: take the risk from the opponent filter (ginbots.search.opponent_model) "
                           "while it trusts its model of the opponent, else from the estimator"),
        # The defaults are the authors' readings: with the same CNN they win 52.2% of 2,000 games against
        # Simple where the document's text as written wins 44.3% (docs/bots/safe.md; issue 40).
        Hyperparameter("danger", str, "meld-sum", choices=("eq5", "meld-sum"), tunable=False,
                       doc="how unsafe a discard is: meld-sum (every meld containing it, any length, as the authors' "
                           "related code; the default) or eq5 (document 000's eq. 5: pairs that make a three-card "
                           "meld with it, the document's text)"),
        Hyperparameter("habits", str, "authors", choices=("document", "authors"), tunable=False,
                       doc="authors (the default): their related code's habits (aces never discarded, ties toward "
                           "the higher card, raw estimator outputs); document: as written"),
        *FILTER_HYPERPARAMETERS,
    )

    def filter_enabled(self) -> bool:
        return self.params["opponent_filter"]

    def discard(self) -> int:
        authors = self.params["habits"] == "authors"
        if self.trusts_filter():
            holds = self.filter_holds()
        elif authors:
            holds = self.estimator().raw_one(self.knowledge)
        else:
            holds = self.estimator().estimate(self.knowledge)
        risk = (meld_danger if self.params["danger"] == "meld-sum" else discard_risk)(holds)
        legal = self.legal_discards()
        if authors and legal & ~RANK_MASK_ACES:
            legal &= ~RANK_MASK_ACES  # their players never throw an ace
        # Only cards whose discard lowers deadwood compete (a melded card is never "safe" to break up);
        # a hand with none (every card melded) chooses among all.
        outcomes = lowering_discards(self.hand, legal) or [
            (c, dw) for c, dw in deadwood_after_discards(self.hand) if legal >> c & 1]
        higher_first = (lambda c: -(c % 13)) if authors else (lambda c: 0)
        safest = sorted(outcomes, key=lambda o: (risk[o[0]], o[1], higher_first(o[0])))[: self.params["top_k"]]
        best = min(dw for _, dw in safest)
        choices = [c for c, dw in safest if dw == best]
        if authors:
            return max(choices, key=lambda c: (c % 13, -c))  # ties toward the higher card
        return choices[0] if len(choices) == 1 else choices[self.rng.randrange(len(choices))]
