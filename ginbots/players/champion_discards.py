"""The champion's searched discards (``search_discards``, off by default): the heuristic's best few
discards played out over one decision's worlds, the heuristic's choice kept unless another beats it by
``override_margin``.

A mixin of ``ChampionPlayer`` (``champion.py``), kept apart from its decisions and opponent model as
``champion_search.py`` keeps the machinery: reads the player's hand, ``params``, its heuristic's
``discard_values``, the search's worlds and race, and the knock decision's ``knock_correction`` and
``knock_margin``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ginbots.game.cards import MAX_DEADWOOD, cards_of
from ginbots.game.melds import discard_deadwoods, min_deadwood

from .champion_search import Values


def one_draw_deadwoods(hand: int, candidates: Sequence[int], unknown: int, holds: np.ndarray) -> dict[int, float]:
    """``lookahead_weight``'s reach: for each candidate discard of the 11-card ``hand``, the expected least
    deadwood of the 10 cards it keeps plus one card drawn from the stock, after that hand's best discard.

    Each ``unknown`` card is weighed by its chance to be in the stock (1 - ``holds``, the opponent model's
    chance that the opponent holds it), as the heuristic weighs its own stock draw. Exact deadwood (every
    discard of the 11 cards tried), not an estimate.
    """
    stock = cards_of(unknown)
    weights = np.array([1.0 - float(holds[c]) for c in stock])
    total = float(weights.sum())
    reach: dict[int, float] = {}
    for card in candidates:
        kept = hand & ~(1 << card)
        if not stock or total <= 0:
            reach[card] = float(min_deadwood(kept))
            continue
        least = np.array([min(dw for _, dw in discard_deadwoods(kept | 1 << c)) for c in stock], dtype=float)
        reach[card] = float(least @ weights) / total
    return reach


class DiscardSearch:
    """The two discard searches of ``search_discards`` (module doc)."""

    def _outcomes(self) -> dict[int, int]:
        """Each legal discard and the deadwood the hand keeps after it."""
        legal = self.legal_discards()
        return {c: dw for c, dw in discard_deadwoods(self.hand) if legal >> c & 1}

    def _ranked(self, outcomes: dict[int, int], choice: int) -> list[int]:
        """The heuristic's ``discard_candidates`` best discards by its own values, its ``choice`` among them."""
        holds, _ = self.opponent_view()
        values = self.discard_values(list(outcomes), self.sampled_opponents(holds), holds)
        ranked = sorted(values, key=lambda c: (-values[c], c))[:self.params["discard_candidates"]]
        if choice not in ranked:
            ranked[-1] = choice
        return ranked

    def _kept_unless_beaten(self, means: dict[int, float], choice: int) -> int:
        """The best card by ``means``, unless it beats the heuristic's ``choice`` by ``override_margin`` or less."""
        best = max(means, key=lambda c: (means[c], c == choice))
        if best != choice and means[best] - means.get(choice, -1e9) <= self.params["override_margin"]:
            return choice
        return best

    def _search_discard(self, choice: int) -> int:
        """``search_discards=always`` or ``trusted``: each candidate worth its playouts, world by world the
        better of knocking at once (when it can) and playing on."""
        hand = self.hand
        outcomes = self._outcomes()
        if outcomes.get(choice, 1) == 0:
            return choice  # the heuristic keeps gin
        ranked = self._ranked(outcomes, choice)
        margin = self.params["knock_margin"]
        worlds = self.sampled_worlds()
        self.worlds = worlds
        plays = self.playouts_over(worlds)

        def option(card: int) -> Values:
            kept = hand ^ 1 << card
            if outcomes[card] > MAX_DEADWOOD:
                return lambda lo, hi: plays.play(kept, card, lo, hi)
            return lambda lo, hi: plays.play_or_knock(kept, card, margin, lo, hi)

        return self._kept_unless_beaten(self._race({card: option(card) for card in ranked}, len(worlds)), choice)

    def _search_knockable_discard(self, choice: int) -> int:
        """``search_discards=knockable``: the heuristic's best discards, each worth the better of knocking
        at once (less the knock decision's correction and margin) and playing on, means over the same worlds.
        Per-world maxima (``play_or_knock``) would credit a knock the champion cannot time by world."""
        hand = self.hand
        outcomes = self._outcomes()
        ranked = self._ranked(outcomes, choice)
        worlds = self.sampled_worlds()
        self.worlds = worlds
        plays = self.playouts_over(worlds)
        options: dict[int, Values] = {}
        for card in ranked:
            kept = hand ^ 1 << card
            options[card << 1] = lambda lo, hi, kept=kept, card=card: plays.play(kept, card, lo, hi)
            if 0 < outcomes[card] <= MAX_DEADWOOD:
                melds = self.knock_melds(kept, worlds)
                cost = self.knock_correction(outcomes[card]) + self.knock_margin()
                options[card << 1 | 1] = lambda lo, hi, kept=kept, melds=melds, cost=cost: [
                    v - cost for v in plays.knock(kept, melds, lo, hi)]
        cards: dict[int, float] = {}
        for key, mean in self._race(options, len(worlds)).items():
            cards[key >> 1] = max(mean, cards.get(key >> 1, -1e9))
        return self._kept_unless_beaten(cards, choice)
