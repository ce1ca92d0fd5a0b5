"""The Keats fuzzy-collection bot (seed document 004, James Keats, 2017).

Fuzzy card collections (known and possible cards) for the stock and the
opponent's hand, a discard-pile view, and two utility scores: one for taking
the face-up card, one per card for discarding. Every constant of the document
is a hyperparameter whose default is the document's value.
"""

from __future__ import annotations

from dataclasses import dataclass

from ginbots.game.cards import CARD_POINTS, NUM_RANKS, completes_meld, union
from ginbots.game.knowledge import Knowledge
from ginbots.game.melds import best_meld_set, discard_outcomes

from .base import Hyperparameter
from .tracking import KNOCK_THRESHOLD, LAYOFF_SAMPLES, LayoffAwarePlayer

#: The document's veto: "if we'd immediately get rid of this card, subtract 1000 points".
THROW_BACK_PENALTY = 1000.0
#: The document's "mid-range card (6-9, considered valuable)", as rank indices.
MID_RANGE_RANKS = range(5, 9)


@dataclass(frozen=True)
class FuzzyCardCollection:
    """A hidden collection: cards ``known`` to be in it, cards ``possible`` in it, and its size.

    The document's ``canHaveCard`` and ``chanceOfCard``: a known card is
    certain; the unknown remainder is spread evenly over the possible cards.
    """

    known: int
    possible: int
    size: int

    def can_have_card(self, card: int) -> bool:
        return bool((self.known | self.possible) >> card & 1)

    def chance_of_card(self, card: int) -> float:
        if self.known >> card & 1:
            return 1.0
        free = self.possible & ~self.known
        if not free >> card & 1:
            return 0.0
        return max(0, self.size - self.known.bit_count()) / free.bit_count()


def deck_collection(k: Knowledge) -> FuzzyCardCollection:
    """The stock: nothing known, every unseen card possible.

    Cards leave the possible list only when discarded or picked up by us (or
    seen taken by the opponent), as the document says.
    """
    return FuzzyCardCollection(known=0, possible=k.unknown, size=k.stock_size)


def opponent_collection(k: Knowledge) -> FuzzyCardCollection:
    """The opponent's hand: its face-up pickups are known, every unseen card possible."""
    return FuzzyCardCollection(known=k.opp_known, possible=k.unknown, size=10)


class KeatsPlayer(LayoffAwarePlayer):
    """Utility-scoring player with fuzzy card collections (Keats, document 004).

    The document was written for a game with several opponents and scores
    cards against "the next opponent" (the player after us); in two-player Gin
    that is simply the opponent, and its most recent discard is what rules 4
    and 5 of the discard score look at.

    Choices the document leaves open, exposed as hyperparameters: "late game"
    means the stock holds at most ``late_game_stock`` cards (default 15, about
    half the 31-card stock drawn); the face-up card is taken when its score is
    above ``take_threshold`` (default 0, the document's "positive"). A partial
    run or pair counts as dead when its completing cards cannot be in the
    stock (discarded, or known to be in the opponent's hand). Knocking and the
    meld declaration are not in the document: see ``LayoffAwarePlayer``.
    """

    name = "keats"
    hyperparameters = (
        Hyperparameter("complete_meld_bonus", float, 20.0, 0.0, 50.0,
                       doc="draw score added when the face-up card completes a meld"),
        Hyperparameter("mid_range_bonus", float, 9.0, 0.0, 20.0,
                       doc="draw score added for a 6-9 face-up card"),
        Hyperparameter("late_game_penalty", float, 1.0, 0.0, 10.0,
                       doc="draw score subtracted in the late game"),
        Hyperparameter("late_game_stock", int, 15, 2, 31,
                       doc="late game: stock at or below this many cards (not in the document)"),
        Hyperparameter("take_threshold", float, 0.0, -10.0, 20.0,
                       doc="take the face-up card when its score is above this (document: positive)"),
        Hyperparameter("pair_live_fraction", float, 0.5, 0.0, 2.0,
                       doc="pair, both missing cards may be in the stock: subtract this x deadwood"),
        Hyperparameter("pair_one_live_deck_fraction", float, 0.5, 0.05, 2.0,
                       doc="pair, one may be in the stock: subtract deadwood / (this x stock size)"),
        Hyperparameter("pair_dead_fraction", float, 0.5, 0.0, 2.0,
                       doc="pair, neither can be drawn: add this x deadwood"),
        Hyperparameter("run_live_fraction", float, 1 / 3, 0.0, 2.0,
                       doc="partial run, a completing card may be in the stock: subtract this x deadwood"),
        Hyperparameter("run_dead_fraction", float, 0.75, 0.0, 2.0,
                       doc="partial run, neither completing card can be drawn: add this x deadwood"),
        Hyperparameter("opp_same_rank_fraction", float, 0.75, 0.0, 2.0,
                       doc="opponent just discarded this rank in another suit: add this x deadwood"),
        Hyperparameter("opp_adjacent_rank_fraction", float, 1.0, 0.0, 2.0,
                       doc="opponent just discarded rank +-1 (suit per opp_adjacent_suit): add this x deadwood"),
        Hyperparameter("opp_adjacent_suit", str, "different", choices=("different", "same"),
                       doc="rule 5 reads 'a different suit'; 'same' tests the run-safety reading"),
        KNOCK_THRESHOLD,
        LAYOFF_SAMPLES,
    )

    # --- draw ------------------------------------------------------------
    def draw_score(self, card: int) -> float:
        """The document's score for taking face-up ``card`` (take when above ``take_threshold``)."""
        p = self.params
        score = 0.0
        if completes_meld(card, self.hand):
            score += p["complete_meld_bonus"]
        if card % NUM_RANKS in MID_RANGE_RANKS:
            score += p["mid_range_bonus"]
        score -= CARD_POINTS[card]
        if self.knowledge.stock_size <= p["late_game_stock"]:
            score -= p["late_game_penalty"]
        if self.choose_discard(self.hand | 1 << card, forbidden=-1) == card:
            score -= THROW_BACK_PENALTY
        return score

    def wants_face_up(self, card: int) -> bool:
        return self.draw_score(card) > self.params["take_threshold"]

    # --- discard ---------------------------------------------------------
    def discard_scores(self, hand: int) -> dict[int, float]:
        """The document's score for every card left once melds are stripped (highest is thrown)."""
        p = self.params
        k = self.knowledge
        stripped = hand & ~union(best_meld_set(hand))
        deck = deck_collection(k)
        last = k.last_opp_discard
        adjacent_same_suit = p["opp_adjacent_suit"] == "same"
        scores = {}
        rest = stripped
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            rank, suit = card % NUM_RANKS, card // NUM_RANKS
            dw = CARD_POINTS[card]
            score = float(dw)
            same_rank = [suit2 * NUM_RANKS + rank for suit2 in range(4) if suit2 != suit]
            if any(stripped >> c & 1 for c in same_rank):  # a pair
                missing = [c for c in same_rank if not hand >> c & 1]
                live = sum(deck.can_have_card(c) for c in missing)
                if live >= 2:
                    score -= p["pair_live_fraction"] * dw
                elif live == 1:
                    score -= dw / max(1.0, p["pair_one_live_deck_fraction"] * k.stock_size)
                else:
                    score += p["pair_dead_fraction"] * dw
            completing = _run_completions(card, stripped)
            if completing is not None:  # a partial run
                if any(c is not None and deck.can_have_card(c) for c in completing):
                    score -= p["run_live_fraction"] * dw
                else:
                    score += p["run_dead_fraction"] * dw
            if last is not None:
                same_suit = last // NUM_RANKS == suit
                if not same_suit and last % NUM_RANKS == rank:
                    score += p["opp_same_rank_fraction"] * dw
                elif abs(last % NUM_RANKS - rank) == 1 and same_suit == adjacent_same_suit:
                    score += p["opp_adjacent_rank_fraction"] * dw
            scores[card] = score
        return scores

    def choose_discard(self, hand: int, forbidden: int, allowed: int = -1) -> int:
        """Highest-scoring stripped card other than ``forbidden`` and among ``allowed`` (a card set; -1: any)
        (ties: more points, higher id)."""
        scores = {c: v for c, v in self.discard_scores(hand).items() if c != forbidden and allowed >> c & 1}
        if scores:
            return max(scores, key=lambda c: (scores[c], CARD_POINTS[c], c))
        # Everything legal is melded: give up the card that costs least deadwood.
        options = [(dw, -CARD_POINTS[c], -c) for c, dw, _ in discard_outcomes(hand)
                   if c != forbidden and allowed >> c & 1]
        return -min(options)[2]

    def discard(self) -> int:
        return self.choose_discard(self.hand, self.drawn if self.drew_face_up else -1, self.legal_discards())


def _run_completions(card: int, stripped: int) -> tuple[int | None, int | None] | None:
    """The two cards that would complete ``card``'s partial run (None off the board), or None."""
    rank = card % NUM_RANKS
    for low, high in ((rank - 1, rank), (rank, rank + 1)):
        if 0 <= low and high < NUM_RANKS:
            partner = card - rank + (low if low != rank else high)
            if stripped >> partner & 1:
                below = card - rank + low - 1 if low >= 1 else None
                above = card - rank + high + 1 if high + 1 < NUM_RANKS else None
                return below, above
    return None
