"""A person against any bot in the terminal (``ginbots play BOT``), on the same engine and rules.

The person sees only their own seat: their hand with melds grouped and its
deadwood, the face-up card, what the bot takes and throws, and the bot's hand
at the end of each hand. Melds are laid for the person (an optimal set; when
the bot knocks, the set that leaves the least after layoffs). A mistyped or
illegal answer gets the legal choices and the question again; Ctrl-C or the
end of the input resigns the game, which is saved as a trace all the same.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from ginbots.connect.host import make_player, parse_checked
from ginbots.game.cards import CARD_NAMES, MAX_DEADWOOD, cards_of, parse_card
from ginbots.game.melds import (
    best_meld_set,
    deadwood_after_discards,
    melded_and_rest,
    min_deadwood,
)
from ginbots.game.tactics import best_defence_melds
from ginbots.players.base import HandTrackingPlayer, Melds

_SUITS = {"C": "\u2663", "H": "\u2665", "S": "\u2660", "D": "\u2666"}
#: Said at the start of a game and after a mistyped card.
HOW_TO_TYPE = ("type a card as its rank then its suit: ks is the king of spades, th the ten of hearts, "
               "ac the ace of clubs, 7d the seven of diamonds (upper or lower case); Enter takes the suggestion")


class Resign(Exception):
    """The person stopped (Ctrl-C, end of input): the engine records it as their forfeit and the game is saved."""


class TerminalPlayer(HandTrackingPlayer):
    """The person at the keyboard, as a player; ``colour`` paints hearts and diamonds red."""

    name = "you"

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None, colour: bool | None = None,
                 opponent: str = "the bot") -> None:
        super().__init__(seed=0)
        self.stdin = stdin or sys.stdin
        self.out = stdout or sys.stdout
        self.colour = self.out.isatty() if colour is None else colour
        self.opponent = opponent
        self.knocker_melds: tuple[int, ...] = ()

    # --- showing ------------------------------------------------------------
    def card(self, c: int) -> str:
        name = CARD_NAMES[c]
        text = name[0] + _SUITS[name[1]] if self.colour else name
        return f"\033[31m{text}\033[0m" if self.colour and name[1] in "HD" else text

    def cards(self, mask: int) -> str:
        return " ".join(self.card(c) for c in cards_of(mask))

    def show_hand(self) -> None:
        melds, rest_mask = melded_and_rest(self.hand)
        groups = ["[" + self.cards(m) + "]" for m in melds]
        rest = self.cards(rest_mask)
        self.say(f"  your hand: {' '.join(groups)}{'  ' if groups and rest else ''}{rest}"
                 f"   (deadwood {min_deadwood(self.hand)})")

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def yes_no(self, question: str, default: bool, hint: str) -> bool:
        """A y/n answer (Enter: ``default``); anything else gets ``hint`` and the question again."""
        while True:
            answer = self.ask(question).lower()
            if answer in ("y", "yes") or (not answer and default):
                return True
            if answer in ("n", "no") or (not answer and not default):
                return False
            self.say(hint)

    def ask(self, question: str) -> str:
        self.out.write(question + " ")
        self.out.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            raise Resign("stopped with Ctrl-C") from None
        if not line:
            raise Resign("the input ended")
        return line.strip()

    # --- the engine's callbacks -------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        super().new_game(seed)
        self.say(HOW_TO_TYPE)

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.knocker_melds = ()
        self.knocker: int | None = None
        who = "you start" if starter == seat else f"{self.opponent} starts"
        self.say(f"\n=== a new hand: {who} ===")  # the hand itself shows with the first question

    def wants_face_up(self, card: int) -> bool:
        self.show_hand()
        return self.yes_no(f"  face-up card {self.card(card)}: take it? [y/N]", False,
                           "  answer y (take it) or n (draw from the stock)")

    def report_draw(self, seat: int, card: int | None) -> None:
        super().report_draw(seat, card)
        if seat == self.seat:
            self.say(f"  you draw {self.card(card)}")  # type: ignore[arg-type]
        else:
            self.say(f"  {self.opponent} draws " + (self.card(card) + " (the face-up card)" if card is not None
                                                   else "from the stock"))

    def discard(self) -> int:
        self.show_hand()
        legal = self.legal_discards(avoid_cycles=False)
        best = min((dw, c) for c, dw in deadwood_after_discards(self.hand) if legal >> c & 1)[1]
        while True:
            answer = self.ask(f"  discard which card? (Enter: {self.card(best)}, least deadwood)").upper()
            if not answer:
                return best
            try:
                card = parse_card(answer)
            except ValueError:
                self.say(f"  {answer!r} is not a card: {HOW_TO_TYPE.strip()}")
                continue
            if legal >> card & 1:
                return card
            why = ("you just took it face up" if self.hand >> card & 1 else "it is not in your hand")
            self.say(f"  you cannot discard {self.card(card)} now ({why}); choose one of: {self.cards(legal)}")

    def report_discard(self, seat: int, card: int) -> None:
        super().report_discard(seat, card)
        if seat != self.seat:
            self.say(f"  {self.opponent} discards {self.card(card)}")

    def knock(self) -> Melds | None:
        deadwood = min_deadwood(self.hand)
        if deadwood > MAX_DEADWOOD:
            return None
        if self.yes_no(f"  you may knock with deadwood {deadwood}: knock? [Y/n]", True,
                       "  answer y (knock) or n (play on)"):
            return best_meld_set(self.hand)
        return None

    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None:
        super().report_final_melds(seat, melds)
        laid = " ".join("[" + self.cards(m) + "]" for m in melds) or "no melds"
        if self.knocker is None:  # the first to lay melds is the knocker
            self.knocker = seat
            if seat == self.seat:
                deadwood = min_deadwood(self.hand)
                self.say(f"  you {'go gin' if deadwood == 0 else f'knock with deadwood {deadwood}'}: {laid}")
            else:
                self.say(f"  {self.opponent} knocks, laying {laid} (its deadwood shows at the end of the hand)")
        else:
            self.say(f"  {'you lay' if seat == self.seat else self.opponent + ' lays'} {laid}")
        if seat != self.seat:
            self.knocker_melds = melds

    def declare_melds(self) -> Melds:
        return best_defence_melds(self.hand, self.knocker_melds, optimal_only=True)

    def report_layoff(self, seat: int, card: int, meld_before: int) -> None:
        who = "you lay" if seat == self.seat else f"{self.opponent} lays"
        self.say(f"  {who} off {self.card(card)} onto [{self.cards(meld_before)}]")

    def report_final_hand(self, seat: int, hand: int) -> None:
        if seat != self.seat:
            role = " (the knocker)" if self.knocker == seat else ""
            self.say(f"  {self.opponent}'s hand{role} was: {self.cards(hand)} (deadwood {min_deadwood(hand)})")

    def report_scores(self, scores: tuple[int, int]) -> None:
        mine, theirs = scores[self.seat], scores[self.seat ^ 1]
        self.say(f"  score: you {mine}, {self.opponent} {theirs}")


#: Seconds an isolated bot may take over one decision in a game against a person.
DECISION_TIMEOUT = 10.0


def play(spec_text: str, *, seed: int = 0, save: str | None = None, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None, colour: bool | None = None, seat: int = 0,
         decision_timeout: float = DECISION_TIMEOUT) -> dict[str, Any]:
    """Play one game to 100 against ``spec_text``; returns the game's trace (also written to ``save``)."""
    from ginbots.game.engine import GameConfig, play_game

    from .trace import write_traces

    # Another package's bot plays from its own sandboxed process, with a clock per decision: the
    # game has none (the person thinks as long as they like).
    spec = parse_checked(spec_text).isolated(None)
    person = TerminalPlayer(stdin, stdout, colour, opponent=spec.display)
    bot = make_player(spec, seed=seed + 1, decision_timeout=decision_timeout)
    players = [person, bot] if seat == 0 else [bot, person]
    result = play_game(players, seed=seed, config=GameConfig(time_budget=None), trace=True)
    trace = result.trace or {}
    trace["game"] = 0
    trace["players"] = ["you" if p is person else spec.display for p in players]
    if result.forfeit is not None and result.forfeit.seat == players.index(person):
        person.say(f"\nyou resigned ({result.forfeit.detail.removeprefix('raised ')})")
    else:
        won = result.winner == players.index(person)
        person.say(f"\n{'you win' if won else spec.display + ' wins'} the game "
                   f"{result.scores[players.index(person)]} - {result.scores[players.index(bot)]}")
    if save:
        write_traces(save, [trace])
        person.say(f"game saved to {save} (ginbots view {save}; ginbots replay {save})")
    return trace
