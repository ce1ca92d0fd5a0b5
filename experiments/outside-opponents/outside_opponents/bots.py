"""Three bots of styles the bundle's bots were not built or tuned against, written against the public
player interface only (``from ginbots import ...``), as a third party would write them.

- ``early-knocker``: knocks as soon as it may, and discards carefully: among the discards that keep
  its deadwood near the least, it avoids cards next to what the opponent took face up and prefers
  cards whose melds are already dead in the pile.
- ``gin-waiter``: plays for gin, takes low cards that start a meld, and knocks short of gin only late
  in the hand.
- ``defender``: throws the safest card it can afford (the fewest unseen cards that would meld with
  it) and knocks only with little deadwood.
"""

from __future__ import annotations

from ginbots import (MAX_DEADWOOD, Hyperparameter, KnowledgePlayer, best_meld_set, completes_meld,
                     deadwood_after_discards, min_deadwood, points_of, rank_of, suit_of)

RANKS = 13


def neighbours(card: int, reach: int) -> int:
    """Cards of the same rank, and of the same suit within ``reach`` ranks: the cards that may meld with it."""
    rank, suit = rank_of(card), suit_of(card)
    mask = 0
    for other_suit in range(4):
        if other_suit != suit:
            mask |= 1 << (other_suit * RANKS + rank)
    for step in range(1, reach + 1):
        for other_rank in (rank - step, rank + step):
            if 0 <= other_rank < RANKS:
                mask |= 1 << (suit * RANKS + other_rank)
    return mask


class _Outsider(KnowledgePlayer):
    """What the three share: the discards that keep deadwood within ``slack`` of the least."""

    def affordable_discards(self, slack: int) -> list[tuple[int, int]]:
        legal = self.legal_discards()
        options = [(card, dw) for card, dw in deadwood_after_discards(self.hand) if legal >> card & 1]
        least = min(dw for _, dw in options)
        return [(card, dw) for card, dw in options if dw <= least + slack]

    def unseen_partners(self, card: int) -> int:
        """Cards that could meld with ``card`` and that we have not seen anywhere (the opponent may hold them)."""
        return bin(neighbours(card, 2) & (self.knowledge.unknown | self.knowledge.opp_known)).count("1")

    def declare_melds(self):
        return best_meld_set(self.hand)


class EarlyKnocker(_Outsider):
    """Knocks as soon as it may; throws near-least-deadwood cards away from what the opponent took."""

    name = "early-knocker"
    hyperparameters = (Hyperparameter("slack", int, 2, 0, 10, doc="deadwood it gives up for a safer discard"),)

    def wants_face_up(self, card: int) -> bool:
        return completes_meld(card, self.hand)

    def discard(self) -> int:
        taken = self.knowledge.opp_known

        def risk(option: tuple[int, int]) -> tuple[int, int, int]:
            card, deadwood = option
            feeds = 3 if neighbours(card, 2) & taken else 0  # next to a card the opponent took face up
            return deadwood + feeds + self.unseen_partners(card) // 3, -points_of(1 << card), card

        return min(self.affordable_discards(self.params["slack"]), key=risk)[0]

    def knock(self):
        return best_meld_set(self.hand) if min_deadwood(self.hand) <= MAX_DEADWOOD else None


class GinWaiter(_Outsider):
    """Plays for gin: keeps connected cards, takes low starters, knocks short of gin only late."""

    name = "gin-waiter"
    hyperparameters = (Hyperparameter("late_stock", int, 12, 2, 31, doc="knock short of gin once the stock is this small"),)

    def wants_face_up(self, card: int) -> bool:
        if completes_meld(card, self.hand):
            return True
        starts = neighbours(card, 1) & self.hand  # a pair or a two-card run to build on
        return bool(starts) and points_of(1 << card) <= 3

    def discard(self) -> int:
        def keep_value(option: tuple[int, int]) -> tuple[int, int, int]:
            card, deadwood = option
            connected = bin(neighbours(card, 1) & self.hand).count("1")
            return deadwood + 2 * connected, -points_of(1 << card), card

        return min(self.affordable_discards(3), key=keep_value)[0]

    def knock(self):
        deadwood = min_deadwood(self.hand)
        late = self.knowledge.stock_size <= self.params["late_stock"]
        return best_meld_set(self.hand) if deadwood == 0 or (late and deadwood <= MAX_DEADWOOD) else None


class Defender(_Outsider):
    """Throws the affordable card fewest unseen cards meld with; knocks only with little deadwood."""

    name = "defender"
    hyperparameters = (Hyperparameter("knock_at", int, 5, 0, 10, doc="knock at this deadwood or less"),)

    def wants_face_up(self, card: int) -> bool:
        return completes_meld(card, self.hand) or (
            min_deadwood(self.hand | 1 << card) < MAX_DEADWOOD and points_of(1 << card) <= 2)

    def discard(self) -> int:
        def danger(option: tuple[int, int]) -> tuple[int, int, int]:
            card, deadwood = option
            return 2 * self.unseen_partners(card) + deadwood, -points_of(1 << card), card

        return min(self.affordable_discards(4), key=danger)[0]

    def knock(self):
        return best_meld_set(self.hand) if min_deadwood(self.hand) <= self.params["knock_at"] else None
