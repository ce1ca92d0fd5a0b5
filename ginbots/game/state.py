"""The EAAI rules as a state machine, one decision at a time.

``GinState`` holds a whole game to 100 (or one hand): the deal from the
challenge's ``java.util.Random``, whose turn it is, the legal actions, and
``apply``. It knows nothing of players, clocks or forfeits: ``engine.play_game``
drives callback players over it, ``ginbots.connect.env`` exposes it to learning code,
and search code may ``clone()`` it. Rules live here once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Sequence

from .cards import CARD_NAMES, GOAL_SCORE, MAX_DEADWOOD, NUM_CARDS, cards_of, points_of, union
from .javarandom import DealOrder, JavaRandom
from .melds import best_meld_set, melded_and_rest, min_deadwood
from .rules import (
    BadAnswer,
    as_bool,
    as_card,
    as_meld_masks,
    check_melds,
    lay_off,
    meld_names,
    names_of,
    score_knock,
)

# Phases: who must decide what. HAND_OVER waits for ``next_hand()`` (the deal is a chance step).
OFFER, DISCARD, KNOCK, DECLARE, HAND_OVER, GAME_OVER = range(6)
PHASE_NAMES = ("offer", "discard", "knock", "declare", "hand-over", "game-over")

# Integer actions (``legal_actions``/``apply``): 0-51 discard that card; the rest below.
TAKE_FACE_UP = 52  # offer: take the face-up card
DRAW_STOCK = 53    # offer: decline it (draw from the stock, or pass the first upcard)
CONTINUE = 54      # knock phase: do not knock
KNOCK_BEST = 55    # knock phase: knock declaring an optimal (least-deadwood) meld set
DECLARE_BEST = 56  # declare phase: declare an optimal meld set
NUM_ACTIONS = 57
ACTION_NAMES = tuple(CARD_NAMES) + ("take", "stock", "continue", "knock", "declare")
_CARD_BITS = tuple(1 << c for c in range(NUM_CARDS))


class IllegalAction(ValueError):
    """An action the rules do not allow here; the state is unchanged.

    ``rule`` is a key of ``rules.RULES`` (or ``not-legal-now`` / ``wrong-phase``).
    """

    def __init__(self, rule: str, detail: str, *, phase: int = -1, legal: Sequence[int] = ()) -> None:
        self.rule = rule
        self.detail = detail
        self.phase = phase
        text = f"{detail} [rule {rule}]"
        if phase >= 0:
            legal_names = ", ".join(ACTION_NAMES[a] for a in legal) or "none"
            text = f"{text} in phase {PHASE_NAMES[phase]}; legal: {legal_names}"
        super().__init__(text)


@dataclass(slots=True)
class HandResult:
    """One hand: ``result`` is knock, gin, undercut, cancelled, forfeit (or playing)."""

    starter: int
    result: str
    shuffle_seed: int | None = None
    knocker: int | None = None
    knocker_deadwood: int | None = None
    opponent_deadwood: int | None = None
    winner: int | None = None
    points: int = 0
    scores_after: tuple[int, int] = (0, 0)
    draws: int = 0
    turns: int = 0
    note: str = ""


@dataclass(frozen=True)
class Observation:
    """What one seat may know: its hand, the public table, and the opponent's known cards."""

    seat: int
    phase: int
    to_act: int
    hand: int
    face_up: int | None
    discard_pile: tuple[int, ...]
    opponent_known: int      # cards the opponent took face up and still holds
    opponent_size: int
    stock_left: int
    scores: tuple[int, int]
    hand_number: int
    starter: int
    turns: int
    knocker_melds: tuple[int, ...] | None  # set while the opponent of a knocker declares
    first_upcard_offer: bool  # declining passes the turn instead of drawing


class GinState:
    """One game of EAAI Gin Rummy as a steppable state (see the module docstring).

    ``seed`` seeds the challenge's ``java.util.Random``: one ``nextInt(2)`` for the
    first starter, one ``nextInt()`` shuffle seed per hand. ``decks`` and
    ``first_starter`` rig deals for tests; ``single_hand`` ends the game after one hand.
    """

    #: Rule hooks a variant may override (an experiment's other rules, never the engine's default):
    #: the stock index at which a hand ends (50: two cards left), and whether the first upcard
    #: is offered by the challenge's protocol (declining it passes the turn on the first two turns).
    STOCK_END = 50
    FIRST_UPCARD_PROTOCOL = True
    #: Cards a shuffle fixes at the deal: the 21 dealt and the stock's first 11 (half of Simple's
    #: hands end within them); more are shuffled six at a time as drawn. Speed only: same cards.
    _FIRST_DEALT = 32

    __slots__ = ("rng", "decks", "goal_score", "max_turns", "max_hands", "single_hand", "scores", "starter",
                 "hands_played", "phase", "current", "hands", "deck", "pile", "top", "first_up", "turns",
                 "draws", "taken", "taken_face_up", "knocker_melds", "declared_melds", "layoffs", "note",
                 "shuffle_seed", "last_drawn", "dealer")

    def __init__(self, seed: int, *, decks: Sequence[Sequence[int]] | None = None, first_starter: int | None = None,
                 goal_score: int = GOAL_SCORE, max_turns_per_hand: int = 1000, max_hands_per_game: int = 1000,
                 single_hand: bool = False, deal: bool = True) -> None:
        self.rng = JavaRandom(seed)
        starter = self.rng.next_int(2)
        self.starter = starter if first_starter is None else first_starter
        self.decks = decks
        self.goal_score = goal_score
        self.max_turns = max_turns_per_hand
        self.max_hands = max_hands_per_game
        self.single_hand = single_hand
        self.scores = [0, 0]
        self.hands_played: list[HandResult] = []
        self.phase = HAND_OVER
        self.current = self.starter
        self.hands = [0, 0]
        self.deck: list[int] = []  # cards in the order they are taken (a shuffled deck: so far as dealt)
        self.dealer: DealOrder | None = None
        self.pile: list[int] = []
        self.top = 0
        self.first_up = -1
        self.turns = 0
        self.draws = 0
        self.taken = False
        self.taken_face_up = [0, 0]
        self.knocker_melds: tuple[int, ...] = ()
        self.declared_melds: tuple[int, ...] = ()
        self.layoffs: list[tuple[int, int, int]] = []
        self.note = ""
        self.shuffle_seed: int | None = None
        self.last_drawn = -1
        if deal:
            self.next_hand()

    # --- chance: the deal -------------------------------------------------------------------
    def next_hand(self) -> None:
        """Deal the next hand (phase HAND_OVER -> OFFER), or end the game (GAME_OVER)."""
        if self.phase != HAND_OVER:
            raise IllegalAction("wrong-phase", "next_hand() is for the end of a hand", phase=self.phase,
                                legal=self.legal_actions())
        if self.scores[0] >= self.goal_score or self.scores[1] >= self.goal_score or (
                self.single_hand and self.hands_played):
            self.phase = GAME_OVER
            return
        if len(self.hands_played) >= self.max_hands:
            self.note = f"unfinished: {self.max_hands} hands played (max_hands_per_game)"
            self.phase = GAME_OVER
            return
        shuffle_seed = self.rng.next_int()
        if self.decks is not None:
            index = len(self.hands_played)
            if index >= len(self.decks):
                raise ValueError(f"decks holds {len(self.decks)} deals; hand {index + 1} needs another")
            deck = list(self.decks[index])
            if sorted(deck) != list(range(NUM_CARDS)):
                raise ValueError(f"deck for hand {index + 1} is not a permutation of 0-51")
            self.shuffle_seed = None
            self.dealer = None
        else:
            # The deal and the first stock cards; the rest is shuffled only if a hand gets that far.
            self.dealer = DealOrder(shuffle_seed, self._FIRST_DEALT)
            deck = self.dealer.cards
            self.shuffle_seed = shuffle_seed
        bits = _CARD_BITS.__getitem__  # the cards are distinct: a sum of their bits is their union
        self.deck = deck
        self.hands = [sum(map(bits, deck[0:20:2])), sum(map(bits, deck[1:20:2]))]
        self.first_up = deck[20]
        self.pile = [deck[20]]
        self.top = 21
        self.turns = 0
        self.draws = 0
        self.taken_face_up = [0, 0]
        self.knocker_melds = ()
        self.declared_melds = ()
        self.layoffs = []
        self.hands_played.append(HandResult(starter=self.starter, result="playing", shuffle_seed=self.shuffle_seed))
        self.current = self.starter
        self.phase = OFFER  # the first upcard is always offered

    # --- queries ----------------------------------------------------------------------------
    @property
    def hand(self) -> HandResult:
        return self.hands_played[-1]

    @property
    def face_up(self) -> int | None:
        return self.pile[-1] if self.pile else None

    @property
    def is_over(self) -> bool:
        return self.phase == GAME_OVER

    def is_first_upcard_offer(self) -> bool:
        """Declining this offer passes the turn (the first upcard, first two turns)."""
        return (self.FIRST_UPCARD_PROTOCOL and self.phase == OFFER and self.turns < 2
                and self.pile[-1] == self.first_up)

    def legal_actions(self) -> list[int]:
        """Integer actions allowed now (empty between hands and at the end)."""
        phase = self.phase
        if phase == OFFER:
            return [TAKE_FACE_UP, DRAW_STOCK]
        if phase == DISCARD:
            hand = self.hands[self.current]
            banned = self.pile_top_taken()
            return [c for c in range(NUM_CARDS) if hand >> c & 1 and c != banned]
        if phase == KNOCK:
            if self.knock_deadwood() <= MAX_DEADWOOD:
                return [CONTINUE, KNOCK_BEST]
            return [CONTINUE]
        if phase == DECLARE:
            return [DECLARE_BEST]
        return []

    def pile_top_taken(self) -> int:
        """The card taken face up this turn (it may not be discarded now), or -1."""
        return self.last_drawn if self.taken else -1

    def knock_deadwood(self) -> int:
        """Least deadwood of the hand of the seat to act."""
        return min_deadwood(self.hands[self.current])

    def observation(self, seat: int) -> Observation:
        """Seat ``seat``'s view: never the other hand (beyond cards it took face up) or the stock."""
        opponent = seat ^ 1
        return Observation(
            seat=seat, phase=self.phase, to_act=self.current, hand=self.hands[seat],
            face_up=self.pile[-1] if self.pile else None, discard_pile=tuple(self.pile),
            opponent_known=self.taken_face_up[opponent] & self.hands[opponent],
            opponent_size=self.hands[opponent].bit_count(), stock_left=max(52 - self.top, 0),
            scores=(self.scores[0], self.scores[1]), hand_number=len(self.hands_played), starter=self.starter,
            turns=self.turns, knocker_melds=self.knocker_melds if self.phase == DECLARE else None,
            first_upcard_offer=self.is_first_upcard_offer())

    def stock(self) -> list[int]:
        """The stock's cards, top first (the engine's knowledge, never a seat's)."""
        if self.dealer is not None:
            self.dealer.deal(NUM_CARDS)
        return self.deck[self.top:]

    def clone(self) -> "GinState":
        """An independent copy (the random stream included), for search."""
        other = GinState.__new__(GinState)
        for name in GinState.__slots__:
            setattr(other, name, getattr(self, name))
        other.rng = self.rng.copy()
        other.scores = list(self.scores)
        other.hands = list(self.hands)
        other.pile = list(self.pile)
        other.taken_face_up = list(self.taken_face_up)
        other.layoffs = list(self.layoffs)
        other.hands_played = [replace(h) for h in self.hands_played]
        return other

    # --- moves ------------------------------------------------------------------------------
    def apply(self, action: int, melds: Any = None) -> None:
        """Play integer ``action``; ``melds`` overrides the declaration of KNOCK_BEST / DECLARE_BEST."""
        phase = self.phase
        if phase == OFFER and action in (TAKE_FACE_UP, DRAW_STOCK):
            self.apply_offer(action == TAKE_FACE_UP)
        elif phase == DISCARD and type(action) is int and 0 <= action < NUM_CARDS:
            self._checked(self.apply_discard, action)
        elif phase == KNOCK and action == CONTINUE:
            self.apply_knock(None)
        elif phase == KNOCK and action == KNOCK_BEST:
            self._checked(self.apply_knock, melds if melds is not None else best_meld_set(self.hands[self.current]))
        elif phase == DECLARE and action == DECLARE_BEST:
            self._checked(self.apply_declare,
                          melds if melds is not None else best_meld_set(self.hands[self.current]))
        else:
            raise self.not_legal(action)

    def not_legal(self, action: Any) -> IllegalAction:
        """The error for ``action`` when it is not among the legal actions now."""
        name = ACTION_NAMES[action] if type(action) is int and 0 <= action < NUM_ACTIONS else repr(action)
        return IllegalAction("not-legal-now", f"action {name}", phase=self.phase, legal=self.legal_actions())

    def _checked(self, method: Any, *args: Any) -> None:
        try:
            method(*args)
        except IllegalAction as exc:
            raise IllegalAction(exc.rule, exc.detail, phase=self.phase, legal=self.legal_actions()) from None

    def apply_offer(self, take: Any) -> None:
        """The seat to act takes the face-up card (True) or declines it (False)."""
        if self.phase != OFFER:
            raise IllegalAction("wrong-phase", "an offer answer", phase=self.phase, legal=self.legal_actions())
        if take is not True and take is not False:
            try:
                take = as_bool(take)
            except BadAnswer as exc:
                raise IllegalAction("bad-answer-type", str(exc)) from None
        if not take and self.turns < 2 and self.is_first_upcard_offer():
            self.turns += 1
            self.current ^= 1
            self._start_turn()
            return
        self._draw(take)

    def _draw(self, take: bool) -> None:
        if take:
            drawn = self.pile.pop()
            self.taken_face_up[self.current] |= 1 << drawn
        else:
            top = self.top
            try:
                drawn = self.deck[top]
            except IndexError:  # past the cards shuffled so far
                drawn = self.dealer.deal(top + 6)[top]
            self.top = top + 1
        self.taken = take
        self.last_drawn = drawn
        self.draws += 1
        self.hands[self.current] |= 1 << drawn
        self.phase = DISCARD

    def apply_discard(self, card: Any) -> None:
        """The seat to act discards ``card`` (not the card it just took face up)."""
        if self.phase != DISCARD:
            raise IllegalAction("wrong-phase", "a discard", phase=self.phase, legal=self.legal_actions())
        if type(card) is not int or not 0 <= card < NUM_CARDS:
            try:
                card = as_card(card)
            except BadAnswer as exc:
                raise IllegalAction("bad-answer-type", str(exc)) from None
        seat = self.current
        if not self.hands[seat] >> card & 1:
            raise IllegalAction("discard-not-in-hand",
                                f"discarded {CARD_NAMES[card]}, hand is {names_of(self.hands[seat])}")
        if self.taken and card == self.last_drawn:
            raise IllegalAction("discard-face-up",
                                f"discarded {CARD_NAMES[card]}, the face-up card it just took")
        self.hands[seat] ^= 1 << card
        self.pile.append(card)
        self.phase = KNOCK

    def accepted_melds(self, answer: Any, hand: int) -> tuple[int, ...]:
        """A declaration as meld masks, or IllegalAction with the rule it breaks."""
        try:
            melds = as_meld_masks(answer)
        except BadAnswer as exc:
            raise IllegalAction("bad-answer-type", str(exc)) from None
        problem = check_melds(hand, melds)
        if problem:
            raise IllegalAction(*problem)
        return melds

    def apply_knock(self, melds: Any) -> None:
        """``None`` ends the turn; meld masks knock with that declaration."""
        if self.phase != KNOCK:
            raise IllegalAction("wrong-phase", "a knock answer", phase=self.phase, legal=self.legal_actions())
        if melds is None:
            self.turns += 1
            self.current ^= 1
            self._start_turn()
            return
        hand = self.hands[self.current]
        accepted = self.accepted_melds(melds, hand)
        deadwood = points_of(hand & ~union(accepted))
        if deadwood > MAX_DEADWOOD:
            raise IllegalAction("knock-over-10", f"deadwood {deadwood} under melds {meld_names(accepted)}")
        self.knocker_melds = accepted
        record = self.hand
        record.turns = self.turns + 1
        record.draws = self.draws
        record.knocker = self.current
        record.knocker_deadwood = deadwood
        self.current ^= 1
        self.phase = DECLARE

    def apply_declare(self, melds: Any) -> None:
        """The knocker's opponent declares; layoffs and scoring follow (``layoffs`` lists them)."""
        if self.phase != DECLARE:
            raise IllegalAction("wrong-phase", "a declaration", phase=self.phase, legal=self.legal_actions())
        if melds is None:
            raise IllegalAction("missing-declaration", "returned None")
        seat = self.current
        accepted = self.accepted_melds(melds, self.hands[seat])
        self.declared_melds = accepted
        unmelded = self.hands[seat] & ~union(accepted)
        record = self.hand
        knocker_dw = record.knocker_deadwood or 0
        self.layoffs = []
        if knocker_dw > 0:
            self.layoffs = lay_off(unmelded, list(self.knocker_melds))
            for card, _, _ in self.layoffs:
                unmelded ^= 1 << card
        opponent_dw = points_of(unmelded)
        result, knocker_wins, points = self.score_knock(knocker_dw, opponent_dw)
        winner = seat ^ 1 if knocker_wins else seat
        self.scores[winner] += points
        record.result = result
        record.opponent_deadwood = opponent_dw
        record.winner = winner
        record.points = points
        self.current = seat ^ 1  # the knocker, as in the engine's loop
        self.starter ^= 1
        self._end_hand()

    def _start_turn(self) -> None:
        """Begin the turn of ``current``: cancel the hand, draw without an offer, or offer."""
        if self.top >= self.STOCK_END:
            self._cancel(f"stock down to {52 - self.STOCK_END} cards")
        elif self.turns >= self.max_turns:
            self._cancel(f"turn cap: {self.max_turns} turns (max_turns_per_hand)")
        elif self.turns == 2 and self.FIRST_UPCARD_PROTOCOL and self.pile[-1] == self.first_up:
            self._draw(False)  # both passed the first upcard: the starter draws from the stock
        else:
            self.phase = OFFER

    @staticmethod
    def score_knock(knocker_deadwood: int, opponent_deadwood: int) -> tuple[str, bool, int]:
        """(result, knocker wins, points) of a knock: the challenge's scoring (``rules.score_knock``)."""
        return score_knock(knocker_deadwood, opponent_deadwood)

    def _cancel(self, why: str) -> None:
        record = self.hand
        record.result = "cancelled"
        record.note = why
        record.turns = self.turns
        record.draws = self.draws
        self._end_hand()

    def _end_hand(self) -> None:
        self.hand.scores_after = (self.scores[0], self.scores[1])
        self.phase = HAND_OVER
        if self.scores[0] >= self.goal_score or self.scores[1] >= self.goal_score or self.single_hand:
            self.phase = GAME_OVER

    def returns(self) -> tuple[float, float]:
        """Each seat's score minus the other's so far (zero-sum), as OpenSpiel's ``State.returns()``: the
        final payoffs once the game is over; in a single-hand game, the hand's signed points."""
        diff = float(self.scores[0] - self.scores[1])
        return diff, -diff

    def __repr__(self) -> str:
        return (f"GinState(hand={len(self.hands_played)}, phase={PHASE_NAMES[self.phase]}, to_act={self.current}, "
                f"scores=({self.scores[0]}, {self.scores[1]}), stock={NUM_CARDS - self.top})")

    def __str__(self) -> str:
        """The table as a spectator sees it (both hands, melds grouped as the viewer groups them)."""
        def hand(mask: int) -> str:
            melds, rest = melded_and_rest(mask)
            groups = [" ".join(CARD_NAMES[c] for c in cards_of(m)) for m in melds]
            loose = " ".join(CARD_NAMES[c] for c in cards_of(rest))
            return "  ".join([f"[{g}]" for g in groups] + ([loose] if loose else [])) + \
                f"  (deadwood {min_deadwood(mask)})"

        face_up = CARD_NAMES[self.pile[-1]] if self.pile else "--"
        return (f"hand {len(self.hands_played)}, scores {self.scores[0]}-{self.scores[1]}, "
                f"{PHASE_NAMES[self.phase]} for seat {self.current}; face-up {face_up}, stock {NUM_CARDS - self.top}\n"
                f"  seat 0: {hand(self.hands[0])}\n  seat 1: {hand(self.hands[1])}")

    def winner(self) -> int | None:
        """The seat that reached the goal (or won the single hand), or None."""
        if self.phase != GAME_OVER:
            return None
        if self.single_hand:
            return self.hands_played[-1].winner if self.hands_played else None
        if self.note:
            return None
        return 0 if self.scores[0] >= self.goal_score else 1
