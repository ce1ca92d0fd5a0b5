"""The common player interface: the challenge's callbacks, in Python, on ints.

A player sees only what ``RULES.md`` lets it see: every argument is a plain
int, bool, ``None`` or a tuple of ints (cards 0-51, card sets as 52-bit ints),
so no object handed to a player leads back into the engine's state.
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Mapping, Sequence

#: A meld or a hand as a 52-bit card-set int.
CardSet = int
#: What ``knock`` and ``declare_melds`` return: melds in declaration order.
Melds = Sequence[int]


@dataclass(frozen=True)
class Hyperparameter:
    """One tunable constant of a bot: the harness reads these, the bot owns them.

    ``kind`` is ``int``, ``float``, ``bool`` or ``str`` (categorical, ``choices``).
    """

    name: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple[Any, ...] | None = None
    doc: str = ""
    #: False for knobs that trade time for accuracy (samples, depth): the tuner leaves them alone.
    tunable: bool = True

    def __post_init__(self) -> None:
        problems = self._declaration_problems()
        if problems:
            raise ValueError(f"hyperparameter {self.name!r}: {problems}")

    def _declaration_problems(self) -> str:
        if not self.name.isidentifier():
            return "name must be a Python identifier"
        if self.kind not in (int, float, bool, str):
            return f"kind must be int, float, bool or str, not {self.kind!r}"
        if self.kind is str:
            if not self.choices:
                return "a categorical (str) hyperparameter needs choices"
            if self.default not in self.choices:
                return f"default {self.default!r} is not one of the choices {self.choices}"
            return ""
        if self.kind in (int, float):
            if self.low is None or self.high is None:
                return "a numeric hyperparameter needs low and high"
            if not (math.isfinite(self.low) and math.isfinite(self.high)) or self.low > self.high:
                return f"range [{self.low}, {self.high}] is empty or not finite"
            if self.log and self.low <= 0:
                return f"a log-scale range must be positive, got low={self.low}"
            if not self.low <= self.default <= self.high:
                return f"default {self.default} is outside [{self.low}, {self.high}]"
        return ""

    def coerce(self, value: Any) -> Any:
        """``value`` checked against this declaration; ValueError names the rule broken."""
        where = f"hyperparameter {self.name!r}"
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise ValueError(f"{where} must be true or false, got {value!r}")
        if self.kind is str:
            if value in self.choices:  # type: ignore[operator]
                return value
            raise ValueError(f"{where} must be one of {self.choices}, got {value!r}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{where} must be a number, got {value!r}")
        if self.kind is int:
            if value != int(value):
                raise ValueError(f"{where} must be an integer, got {value!r}")
            value = int(value)
        else:
            value = float(value)
        if not self.low <= value <= self.high:  # type: ignore[operator]
            raise ValueError(f"{where} must lie in [{self.low}, {self.high}], got {value}")
        return value


def resolve_params(cls: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults of ``cls`` (a Player class, or anything with ``name`` and ``hyperparameters``, such as
    a ``BotInfo``) overridden by ``given``; unknown names are an error."""
    declared = {hp.name: hp for hp in cls.hyperparameters}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(declared) or "none"
        who = cls.__name__ if isinstance(cls, type) else cls.name
        raise ValueError(f"{who} has no hyperparameter {', '.join(unknown)} (it has: {known})")
    params = {name: hp.default for name, hp in declared.items()}
    for name, value in given.items():
        params[name] = declared[name].coerce(value)
    return params


class Player(ABC):
    """Base class of every bot: override the decisions, listen to the reports.

    Construction takes an explicit ``seed`` and keyword hyperparameters
    (declared in ``hyperparameters``); ``self.rng`` is the only randomness a
    player should use, so the same seeds replay the same games.
    """

    #: Registry name (``ginbots list``); subclasses set it.
    name: ClassVar[str] = "player"
    hyperparameters: ClassVar[tuple[Hyperparameter, ...]] = ()
    #: Seconds of this game's thinking the host says are left (the bridge sets it from a message's
    #: ``time_left``; the Java shim sends it with every decision); None where no host says.
    time_left: float | None = None

    def __init__(self, *, seed: int | None = None, **params: Any) -> None:
        self.params: dict[str, Any] = resolve_params(type(self), params)
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        defaults = self._defaults()
        changed = {k: v for k, v in self.params.items() if defaults.get(k, v) != v}
        extra = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"{type(self).__name__}(seed={self.seed!r}{extra})"

    @classmethod
    def _defaults(cls) -> dict[str, Any]:
        return {hp.name: hp.default for hp in cls.hyperparameters}

    @classmethod
    def runtime_for(cls, params: Mapping[str, Any]) -> dict[str, str]:
        """What code this bot would run with ``params`` on this install, where that can differ between
        installs (the champion: compiled or pure-Python playouts); shown by ``ginbots list`` and the
        bridge's hello. Never a difference in play."""
        return {}

    def runtime(self) -> dict[str, str]:
        return type(self).runtime_for(self.params)

    @classmethod
    def remembers_for(cls, params: Mapping[str, Any]) -> bool:
        """Whether this bot with ``params`` carries what it learned of its opponent from one game into
        the next (the champion's ``memory_hands``). A runner then plays its games in fixed blocks, in
        order, each from a fresh player (``ginbots.arena.match.MEMORY_BLOCK``), so that the same seed
        gives the same games with any number of workers."""
        return False

    def prepare(self) -> None:
        """Load what play will need (weight files, their runtime) now, before the first game.

        A harness calls it at start, so that a missing module or a corrupt weights file stops the bot
        there, named, instead of at its first decision in the middle of a tournament.
        """

    # --- signals -------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        """A new game to 100 starts; a given ``seed`` reseeds ``self.rng``."""
        if seed is not None:
            self.seed = seed
            self.rng.seed(seed)

    @abstractmethod
    def start_hand(self, seat: int, starter: int, hand: CardSet) -> None:
        """A hand is dealt: our seat (0/1), the starting seat, our 10 cards."""

    # --- decisions -----------------------------------------------------
    @abstractmethod
    def will_draw_face_up(self, card: int) -> bool:
        """Take the face-up ``card``? (False draws from the stock, or skips a first-turn offer.)"""

    @abstractmethod
    def discard(self) -> int:
        """The card to discard from our 11; not the face-up card taken this turn."""

    @abstractmethod
    def knock(self) -> Melds | None:
        """Asked after each own discard: melds to knock with, or None to play on."""

    @abstractmethod
    def declare_melds(self) -> Melds:
        """The opponent knocked: our melds (may be empty); layoffs are automatic."""

    # --- reports -------------------------------------------------------
    def report_draw(self, seat: int, card: int | None) -> None:
        """``seat`` drew ``card`` (None: the opponent drew from the stock)."""

    def report_discard(self, seat: int, card: int) -> None:
        pass

    def report_final_melds(self, seat: int, melds: tuple[CardSet, ...]) -> None:
        pass

    def report_layoff(self, seat: int, card: int, meld_before: CardSet) -> None:
        pass

    def report_final_hand(self, seat: int, hand: CardSet) -> None:
        pass

    def report_scores(self, scores: tuple[int, int]) -> None:
        pass


class HandTrackingPlayer(Player):
    """A player that keeps the basic facts every bot needs, updated from the reports.

    ``hand`` (our cards), ``seat``, ``starter``, ``face_up`` (last card offered
    to us), ``drawn`` and ``drew_face_up`` (this turn's draw), ``opponent_knocked``.
    Subclasses that override a report call ``super()`` first.
    """

    seat: int
    starter: int
    hand: CardSet
    face_up: int
    drawn: int
    drew_face_up: bool
    opponent_knocked: bool

    def start_hand(self, seat: int, starter: int, hand: CardSet) -> None:
        self.seat = seat
        self.starter = starter
        self.hand = hand
        self.face_up = -1
        self.drawn = -1
        self.drew_face_up = False
        self.opponent_knocked = False
        self.used_pairs: set[int] = set()

    def will_draw_face_up(self, card: int) -> bool:
        self.face_up = card
        return self.wants_face_up(card)

    def wants_face_up(self, card: int) -> bool:
        raise NotImplementedError

    def report_draw(self, seat: int, card: int | None) -> None:
        if seat == self.seat:
            self.hand |= 1 << card  # type: ignore[operator]
            self.drawn = card  # type: ignore[assignment]
            self.drew_face_up = card == self.face_up

    def report_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.hand &= ~(1 << card)
            self.used_pairs.add(1 << self.drawn | 1 << card)

    def report_final_melds(self, seat: int, melds: tuple[CardSet, ...]) -> None:
        if seat != self.seat:
            self.opponent_knocked = True

    def legal_discards(self, avoid_cycles: bool = True) -> int:
        """Our hand minus the face-up card taken this turn; with ``avoid_cycles`` also minus any card whose
        discard would repeat a (drawn, discarded) pair of this hand, unless nothing else is left.

        The second rule is the challenge's Simple player's guard against two players passing the same
        cards back and forth for ever (the Java engine has no turn cap); every bot that discards from
        ``legal_discards`` gets it.
        """
        legal = self.hand & ~(1 << self.drawn) if self.drew_face_up else self.hand
        if avoid_cycles and self.used_pairs:
            drawn_bit = 1 << self.drawn
            fresh = legal
            rest = legal
            while rest:
                low = rest & -rest
                rest ^= low
                if drawn_bit | low in self.used_pairs:
                    fresh ^= low
            if fresh:
                return fresh
        return legal

