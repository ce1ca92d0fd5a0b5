"""What one seat knows in the current hand, kept up to date from its callbacks.

Bots that reason about the opponent's hand or the stock share this tracker
rather than each re-deriving it: own hand, the discard pile in order, the
opponent's face-up pickups, declined face-up cards and discards (each with the
opponent turn it happened on), dead cards, unknown cards and the stock size.
"""

from __future__ import annotations

import random

from .cards import ALL_CARDS_MASK, HAND_SIZE, cards_of

#: Cards in the stock right after the deal and the first upcard.
INITIAL_STOCK = 52 - 2 * HAND_SIZE - 1


class Knowledge:
    """One seat's view of a hand. ``unknown`` holds every card that may be in the
    stock or in the opponent's hand; ``opp_known`` the cards the opponent surely holds."""

    __slots__ = ("seat", "opponent", "starter", "hand", "pile", "stock_size", "unknown", "opp_known",
                 "opp_picked", "opp_declined", "opp_discards", "opp_turns", "offered_this_turn",
                 "skipped_first_offer", "draws_seen")

    def __init__(self, seat: int, starter: int, hand: int) -> None:
        self.seat = seat
        self.opponent = seat ^ 1
        self.starter = starter
        self.hand = hand
        self.pile: list[int] = []
        self.stock_size = INITIAL_STOCK
        self.unknown = ALL_CARDS_MASK & ~hand
        self.opp_known = 0
        self.opp_picked: list[tuple[int, int]] = []
        self.opp_declined: list[tuple[int, int]] = []
        self.opp_discards: list[tuple[int, int]] = []
        self.opp_turns = 0
        self.offered_this_turn = False
        self.skipped_first_offer = False
        self.draws_seen = 0

    # --- updates ---------------------------------------------------------
    def offered(self, card: int) -> None:
        """We are offered the face-up ``card`` (before answering)."""
        if not self.pile or self.pile[-1] != card:
            self.pile.append(card)  # first sight of the upcard
            self.unknown &= ~(1 << card)
        if self.seat != self.starter and self.draws_seen == 0 and self.opp_turns == 0:
            # Offered the upcard as second player: the starter declined it and skipped.
            self.opp_declined.append((card, 0))
            self.opp_turns = 1
        self.offered_this_turn = True

    def answered(self, card: int, take: bool) -> None:
        """Our answer to the offer; declining the first upcard skips our turn."""
        if not take and self.draws_seen == 0:
            self.skipped_first_offer = True
            self.offered_this_turn = False

    def drew(self, seat: int, card: int | None) -> None:
        self.draws_seen += 1
        top = self.pile[-1] if self.pile else None
        if seat == self.seat:
            assert card is not None
            self.hand |= 1 << card
            if card == top and self.offered_this_turn:
                self.pile.pop()
            else:
                self.stock_size -= 1
                self.unknown &= ~(1 << card)
                if not self.offered_this_turn and self.skipped_first_offer and top is not None:
                    # Forced third-turn draw: the opponent declined the upcard too.
                    self.opp_declined.append((top, self.opp_turns))
                    self.opp_turns += 1
            self.offered_this_turn = False
        elif card is not None:
            if top == card:
                self.pile.pop()
            self.unknown &= ~(1 << card)
            self.opp_known |= 1 << card
            self.opp_picked.append((card, self.opp_turns))
        else:
            self.stock_size -= 1
            forced = self.opponent == self.starter and self.skipped_first_offer and self.opp_turns == 1 \
                and self.draws_seen == 1
            if top is not None and not forced:
                self.opp_declined.append((top, self.opp_turns))

    def discarded(self, seat: int, card: int) -> None:
        bit = 1 << card
        self.pile.append(card)
        if seat == self.seat:
            self.hand &= ~bit
        else:
            self.opp_known &= ~bit
            self.unknown &= ~bit
            self.opp_discards.append((card, self.opp_turns))
            self.opp_turns += 1

    # --- queries ---------------------------------------------------------
    @property
    def top(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def dead(self) -> int:
        """Cards buried in the discard pile: out of play for the rest of the hand."""
        mask = 0
        for c in self.pile[:-1]:
            mask |= 1 << c
        return mask

    @property
    def opp_unknown_count(self) -> int:
        """How many of the opponent's 10 cards we cannot name."""
        return HAND_SIZE - self.opp_known.bit_count()

    @property
    def last_opp_discard(self) -> int | None:
        return self.opp_discards[-1][0] if self.opp_discards else None

    def opp_probability(self, card: int) -> float:
        """Uniform chance that the opponent holds ``card``: 1 known, 0 seen elsewhere."""
        if self.opp_known >> card & 1:
            return 1.0
        if not self.unknown >> card & 1:
            return 0.0
        return self.opp_unknown_count / max(1, self.unknown.bit_count())

    def sample_opponent_hands(self, count: int, rng: random.Random) -> list[int]:
        """``count`` complete opponent hands, uniform over the unknown cards."""
        pool = cards_of(self.unknown)
        need = min(self.opp_unknown_count, len(pool))
        out = []
        for _ in range(count):
            hand = self.opp_known
            for c in rng.sample(pool, need):
                hand |= 1 << c
            out.append(hand)
        return out
