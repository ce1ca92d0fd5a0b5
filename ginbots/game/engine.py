"""The reference engine: one game of Gin Rummy to 100, exactly as the EAAI engine plays it.

The rules live in ``ginbots.game.state``; this module drives callback players over that
state with the callback order of ``GinRummyGame`` of the EAAI challenge (see
``RULES.md``), charging thinking time and recording traces. Unlike the Java engine this one never crashes:
any illegal answer, exception or overrun of a player's thinking-time budget ends
the game as a forfeit with a recorded reason, and the caller gets a result.
"""

from __future__ import annotations

import dis
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from time import perf_counter
from typing import Any, Iterator, Protocol, Sequence

from .cards import CARD_NAMES, GOAL_SCORE, cards_of
from .rules import (
    RULES,
    Forfeit,
    as_meld_masks,
    check_melds,
    describe_exception,
    lay_off,
    meld_lists,
    score_knock,
)
from .state import (
    DECLARE,
    DISCARD,
    GAME_OVER,
    OFFER,
    GinState,
    HandResult,
    IllegalAction,
)

__all__ = ["GameConfig", "GameResult", "HandResult", "Forfeit", "RULES", "play_game", "lay_off", "score_knock",
           "check_melds", "as_meld_masks"]

#: The callbacks the engine makes, by index: a run's monitor (``ginbots.arena.supervisor``) reads which
#: one a seat is in from this index.
ACTIONS = ("new_game", "start_hand", "will_draw_face_up", "report_draw", "discard", "report_discard", "knock",
           "report_final_melds", "declare_melds", "report_layoff", "report_final_hand", "report_scores")
ACTION_INDEX = {name: i for i, name in enumerate(ACTIONS)}


class CallbackPlayer(Protocol):
    """What the engine calls on a seat: the challenge's callbacks on ints (``ginbots.players.base.Player``
    is the base class bots extend; the engine needs only these methods, so the game wing imports no bot)."""

    name: str

    def new_game(self, seed: int | None = None) -> None: ...
    def start_hand(self, seat: int, starter: int, hand: int) -> None: ...
    def will_draw_face_up(self, card: int) -> bool: ...
    def discard(self) -> int: ...
    def knock(self) -> Sequence[int] | None: ...
    def declare_melds(self) -> Sequence[int]: ...
    def report_draw(self, seat: int, card: int | None) -> None: ...
    def report_discard(self, seat: int, card: int) -> None: ...
    def report_final_melds(self, seat: int, melds: tuple[int, ...]) -> None: ...
    def report_layoff(self, seat: int, card: int, meld_before: int) -> None: ...
    def report_final_hand(self, seat: int, hand: int) -> None: ...
    def report_scores(self, scores: tuple[int, int]) -> None: ...


@dataclass(frozen=True)
class GameConfig:
    """Engine settings. The defaults are the challenge's, plus two safety caps.

    ``time_budget``: thinking seconds per player per game (None: unlimited).
    ``max_turns_per_hand``: the Java engine has no cap (two players that always
    take the face-up card never end a hand); a hand reaching the cap is
    cancelled like a hand whose stock ran out (no score, same starter).
    ``max_hands_per_game``: a game still unfinished after this many hands ends
    with no winner (``GameResult.winner is None``).
    """

    time_budget: float | None = 30.0
    max_turns_per_hand: int = 1000
    max_hands_per_game: int = 1000
    goal_score: int = GOAL_SCORE

    def __post_init__(self) -> None:
        if self.time_budget is not None and not self.time_budget > 0:
            raise ValueError(f"time_budget must be positive or None, got {self.time_budget}")
        if self.max_turns_per_hand < 3 or self.max_hands_per_game < 1:
            raise ValueError("max_turns_per_hand must be >= 3 and max_hands_per_game >= 1")


@dataclass
class GameResult:
    seed: int
    winner: int | None
    scores: tuple[int, int]
    hands: list[HandResult]
    forfeit: Forfeit | None = None
    think_time: tuple[float, float] = (0.0, 0.0)
    decision_times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    trace: dict[str, Any] | None = None
    note: str = ""


class _Overtime(BaseException):
    """Raised inside a player that runs past its budget; BaseException so a
    player's ``except Exception`` cannot swallow it."""


class _GameOver(Exception):
    def __init__(self, forfeit: Forfeit) -> None:
        self.forfeit = forfeit


#: Reports a player may leave as the base class's no-op; the engine does not call those (nothing can
#: happen in a function that does nothing), which spares a tenth of the callbacks of a Simple hand.
_REPORTS = ("report_draw", "report_discard", "report_final_melds", "report_layoff", "report_final_hand",
            "report_scores")


#: The callbacks whose times are the seat's decision times (``GameResult.decision_times``).
_DECISIONS = frozenset(("will_draw_face_up", "discard", "knock", "declare_melds"))


def _is_no_op(method: Any) -> bool:
    """Whether ``method`` does nothing: its body is ``pass`` or a docstring (it returns None at once)."""
    code = getattr(getattr(method, "__func__", method), "__code__", None)
    return code is not None and _returns_at_once(code)


@lru_cache(maxsize=1024)
def _returns_at_once(code: Any) -> bool:
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    return steps in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


class _Driver:
    """Runs one game's callbacks: charges each player's thinking time, turns any failure into a forfeit.

    The engine's per-game state (time used, the acting seat, the SIGALRM and SIGINT handlers) lives
    here so that every callback goes through the one ``call``.
    """

    def __init__(self, players: Sequence[CallbackPlayer], labels: tuple[str, str], budget: float, monitor: Any) -> None:
        self.players = players
        self.labels = labels
        self.budget = budget
        self.monitor = monitor
        self.used = [0.0, 0.0]
        self.times: tuple[list[float], list[float]] = ([], [])
        self.acting = -1
        self.t0 = 0.0
        # A KeyboardInterrupt raised by a bot is its forfeit; one from a real SIGINT (the user's
        # Ctrl-C) must stop the run, so real signals are noted while the game runs.
        self.user_interrupt = False
        # Per report, the seats whose method does something and that method (a no-op report is not called).
        self.listeners = {name: tuple((seat, getattr(p, name)) for seat, p in enumerate(players)
                                      if not _is_no_op(getattr(p, name)))
                          for name in _REPORTS}

    def fault(self, seat: int, action: str, exc: BaseException) -> _GameOver:
        if isinstance(exc, _Overtime):
            return _GameOver(Forfeit(seat, self.labels[seat], action, "time-budget",
                                     f"thinking time ran past {self.budget:g} s"))
        return _GameOver(Forfeit(seat, self.labels[seat], action, "exception", f"raised {describe_exception(exc)}"))

    def rejected(self, seat: int, action: str, exc: IllegalAction) -> _GameOver:
        return _GameOver(Forfeit(seat, self.labels[seat], action, exc.rule, exc.detail))

    def call(self, seat: int, action: str, fn: Any, *args: Any) -> Any:
        """Run one callback of ``seat``, charge its time, turn any failure into a forfeit; a decision's
        time also joins the seat's decision times. The engine's hottest function: a Simple hand makes
        about 90 calls, so it stays one frame with no work a callback does not need."""
        monitor = self.monitor
        self.acting = seat
        self.t0 = t0 = perf_counter()
        if monitor is not None:
            monitor[2] = ACTION_INDEX[action]
            monitor[1] = t0
            monitor[0] = seat
        try:
            answer = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - whatever a bot raises is its forfeit...
            raise self.failed(seat, action, exc) from None
        last = perf_counter() - t0
        self.acting = -1
        if monitor is not None:
            monitor[0] = -1
        used = self.used
        used[seat] = spent = used[seat] + last
        if spent > self.budget:
            raise self.over_budget(seat, action, spent)
        if action in _DECISIONS:
            self.times[seat].append(last)
        return answer

    def failed(self, seat: int, action: str, exc: BaseException) -> _GameOver:
        """The forfeit of a callback that raised ``exc`` (the user's own Ctrl-C is raised again)."""
        self.acting = -1
        if self.monitor is not None:
            self.monitor[0] = -1
        if isinstance(exc, KeyboardInterrupt) and self.user_interrupt:
            raise exc  # the user's Ctrl-C stops the run; it is no bot's forfeit
        return self.fault(seat, action, exc)

    def over_budget(self, seat: int, action: str, spent: float) -> _GameOver:
        return _GameOver(Forfeit(seat, self.labels[seat], action, "time-budget",
                                 f"used {spent:.3f} s of thinking time, budget {self.budget:g} s"))

    def tell_card(self, action: str, listeners: tuple, player: int, card: int, hidden: int) -> None:
        """Report ``player``'s draw or discard of ``card`` to each listening seat (``hidden``, if a seat,
        is told None). Like ``call`` per seat, in one frame: the two reports share a clock read, as
        they are most of a hand's callbacks."""
        monitor = self.monitor
        used = self.used
        t0 = perf_counter()
        for seat, report in listeners:
            self.acting = seat
            self.t0 = t0
            if monitor is not None:
                monitor[2] = ACTION_INDEX[action]
                monitor[1] = t0
                monitor[0] = seat
            try:
                report(player, None if seat == hidden else card)
            except BaseException as exc:  # noqa: BLE001 - as in call
                raise self.failed(seat, action, exc) from None
            t1 = perf_counter()
            used[seat] = spent = used[seat] + (t1 - t0)
            if spent > self.budget:
                self.acting = -1
                if monitor is not None:
                    monitor[0] = -1
                raise self.over_budget(seat, action, spent)
            t0 = t1
        self.acting = -1
        if monitor is not None:
            monitor[0] = -1

    def tell_both(self, action: str, *args: Any) -> None:
        """Report the same event to seat 0, then seat 1 (the Java engine's order)."""
        call = self.call
        for seat, report in self.listeners[action]:
            call(seat, action, report, *args)

    def announce_melds(self, seat: int, melds: tuple[int, ...], events: list[dict[str, Any]] | None) -> None:
        self.tell_both("report_final_melds", seat, melds)
        if events is not None:
            events.append({"e": "melds", "p": seat, "melds": meld_lists(melds)})

    def play_hand(self, state: GinState, events: list[dict[str, Any]] | None) -> None:
        """Run the players' callbacks over one hand of ``state`` until it ends."""
        p0, p1 = self.players
        offer_fns = (p0.will_draw_face_up, p1.will_draw_face_up)
        discard_fns = (p0.discard, p1.discard)
        knock_fns = (p0.knock, p1.knock)
        draw_listeners = self.listeners["report_draw"]
        discard_listeners = self.listeners["report_discard"]
        call = self.call
        tell_card = self.tell_card
        pile = state.pile
        reported = 0
        while True:
            if state.draws != reported:  # a draw happened: from an offer, or forced after two passes
                reported = state.draws
                cur, drawn = state.current, state.last_drawn
                tell_card("report_draw", draw_listeners, cur, drawn, -1 if state.taken else cur ^ 1)
                if events is not None:
                    events.append({"e": "draw", "p": cur, "card": CARD_NAMES[drawn]})
            phase = state.phase
            cur = state.current
            if phase == OFFER:
                face_up = pile[-1]
                take = call(cur, "will_draw_face_up", offer_fns[cur], face_up)
                try:  # (inline, not self.apply: two frames fewer a turn on the hottest loop)
                    state.apply_offer(take)  # checks a bool or numpy bool
                except IllegalAction as exc:
                    raise self.rejected(cur, "will_draw_face_up", exc) from None
                if events is not None:
                    events.append({"e": "offer", "p": cur, "card": CARD_NAMES[face_up], "take": bool(take)})
            elif phase == DISCARD:
                answer = call(cur, "discard", discard_fns[cur])
                try:
                    state.apply_discard(answer)
                except IllegalAction as exc:
                    raise self.rejected(cur, "discard", exc) from None
                card = pile[-1]
                tell_card("report_discard", discard_listeners, cur, card, -1)
                if events is not None:
                    events.append({"e": "discard", "p": cur, "card": CARD_NAMES[card]})
                # A discard always leads to the knock question: asked here, not on another pass of the loop.
                answer = call(cur, "knock", knock_fns[cur])
                if answer is None:
                    state.apply_knock(None)
                else:
                    self.knock(state, cur, answer, events)
            elif phase == DECLARE:
                self.declare(state, cur, events)
            else:
                return

    def knock(self, state: GinState, cur: int, answer: Any, events: list[dict[str, Any]] | None) -> None:
        """The seat knocks with the melds it answered; an illegal knock is its forfeit."""
        try:
            state.apply_knock(answer)
        except IllegalAction as exc:
            state.hand.turns, state.hand.draws = state.turns + 1, state.draws
            raise self.rejected(cur, "knock", exc) from None
        self.announce_melds(cur, state.knocker_melds, events)

    def apply(self, apply_fn: Any, answer: Any, seat: int, action: str) -> None:
        """Apply ``answer`` to the state; an illegal one is the seat's forfeit."""
        try:
            apply_fn(answer)
        except IllegalAction as exc:
            raise self.rejected(seat, action, exc) from None

    def declare(self, state: GinState, cur: int, events: list[dict[str, Any]] | None) -> None:
        """The defender declares its melds; the engine lays off and reports each layoff."""
        declared = self.call(cur, "declare_melds", self.players[cur].declare_melds)
        self.apply(state.apply_declare, declared, cur, "declare_melds")
        self.announce_melds(cur, state.declared_melds, events)
        for card, _, before in state.layoffs:
            self.tell_both("report_layoff", cur, card, before)
            if events is not None:
                events.append({"e": "layoff", "p": cur, "card": CARD_NAMES[card],
                               "onto": [CARD_NAMES[c] for c in cards_of(before)]})

    def end_hand(self, state: GinState, events: list[dict[str, Any]] | None) -> None:
        """Show both final hands to both players, then the scores."""
        hand_masks = state.hands
        for i, report in self.listeners["report_final_hand"]:
            for j in (0, 1):
                self.call(i, "report_final_hand", report, j, hand_masks[j])
        score_pair = state.hand.scores_after
        self.tell_both("report_scores", score_pair)
        if events is not None:
            if state.hand.result == "cancelled":
                events.append({"e": "cancel", "reason": state.hand.note})
            events.append({"e": "scores", "scores": list(score_pair)})

    def on_alarm(self, signum: int, frame: Any) -> None:
        seat = self.acting
        if seat >= 0:
            remaining = self.budget - self.used[seat] - (perf_counter() - self.t0)
            if remaining <= 0:
                # Fire again soon: a player that swallows this one is interrupted again and again (and the
                # match supervisor kills its process if it never returns).
                signal.setitimer(signal.ITIMER_REAL, 0.05)
                raise _Overtime()
        else:
            remaining = min(self.budget - self.used[0], self.budget - self.used[1])
        signal.setitimer(signal.ITIMER_REAL, max(remaining, 0.001))

    def on_sigint(self, signum: int, frame: Any) -> None:
        self.user_interrupt = True
        raise KeyboardInterrupt

    @contextmanager
    def signals(self, timed: bool) -> Iterator[None]:
        """While the game runs: SIGALRM enforces the budget (``timed``, main thread only), SIGINT is noted."""
        in_main = threading.current_thread() is threading.main_thread()
        use_alarm = timed and hasattr(signal, "setitimer") and in_main
        old_handler = old_sigint = None
        if use_alarm:
            old_handler = signal.signal(signal.SIGALRM, self.on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.budget)
        if in_main and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            old_sigint = signal.signal(signal.SIGINT, self.on_sigint)
        try:
            yield
        finally:
            if use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old_handler)
            if old_sigint is not None:
                signal.signal(signal.SIGINT, old_sigint)


def play_game(
    players: Sequence[CallbackPlayer],
    seed: int,
    *,
    config: GameConfig | None = None,
    player_seeds: Sequence[int | None] | None = None,
    decks: Sequence[Sequence[int]] | None = None,
    first_starter: int | None = None,
    trace: bool = False,
    monitor: Any = None,
    observer: Any = None,
    rules: type[GinState] = GinState,
) -> GameResult:
    """Play one game to 100 between ``players[0]`` (seat 0) and ``players[1]``.

    ``seed`` seeds the engine's ``java.util.Random`` exactly as the challenge
    does: one ``nextInt(2)`` for the first starter, one ``nextInt()`` shuffle
    seed per hand. ``decks`` (deal orders, one per hand) and ``first_starter``
    rig the deal for tests. ``player_seeds`` reach each player's ``new_game``.
    ``monitor`` (a shared 3-slot array of a supervised worker) receives the
    acting seat, the call's start time and its callback while a player runs.
    ``observer`` is called once with the ``GinState`` being played (for environments
    that read a seat's observation from it); players never see it. ``rules`` is the
    state class: ``GinState`` (the challenge's rules) unless an experiment plays a variant.
    """
    config = config or GameConfig()
    if len(players) != 2 or players[0] is players[1]:
        raise ValueError("a game needs two distinct player objects")
    p0, p1 = players
    labels = (_label(p0), _label(p1))
    budget = config.time_budget if config.time_budget is not None else float("inf")
    driver = _Driver((p0, p1), labels, budget, monitor)
    call = driver.call
    state = rules(seed, decks=decks, first_starter=first_starter, goal_score=config.goal_score,
                  max_turns_per_hand=config.max_turns_per_hand, max_hands_per_game=config.max_hands_per_game,
                  deal=False)
    if observer is not None:
        observer(state)
    record: dict[str, Any] | None = None
    if trace:
        record = {"engine_seed": seed, "players": list(labels), "hands": []}
    forfeit = None
    events: list[dict[str, Any]] | None = None
    seeds = player_seeds or (None, None)
    with driver.signals(config.time_budget is not None):
        try:
            call(0, "new_game", p0.new_game, seeds[0])
            call(1, "new_game", p1.new_game, seeds[1])
            while True:
                state.next_hand()
                if state.phase == GAME_OVER:
                    break
                if record is not None:
                    events = []
                    record["hands"].append(_hand_record(state, events))
                call(0, "start_hand", p0.start_hand, 0, state.starter, state.hands[0])
                call(1, "start_hand", p1.start_hand, 1, state.starter, state.hands[1])
                driver.play_hand(state, events)
                driver.end_hand(state, events)
                if state.phase == GAME_OVER:
                    break
        except _GameOver as over:
            forfeit = over.forfeit
            if state.hands_played and state.hand.result == "playing":
                state.hand.result = "forfeit"
            if events is not None:
                events.append({"e": "forfeit", **forfeit.to_json()})
    return _result(state, seed, config, driver, forfeit, record)


def _result(state: GinState, seed: int, config: GameConfig, driver: _Driver, forfeit: Forfeit | None,
            record: dict[str, Any] | None) -> GameResult:
    """The game's result (and its trace's closing fields) from the finished state."""
    scores = state.scores
    note = state.note
    if forfeit is not None:
        winner: int | None = forfeit.seat ^ 1
    elif note:
        winner = None
    else:
        winner = 0 if scores[0] >= config.goal_score else 1
    hands_played = state.hands_played
    result = GameResult(seed=seed, winner=winner, scores=(scores[0], scores[1]), hands=hands_played,
                        forfeit=forfeit, think_time=(driver.used[0], driver.used[1]),
                        decision_times=driver.times, note=note)
    if record is not None:
        record.update(winner=winner, final_scores=[scores[0], scores[1]], n_hands=len(hands_played))
        if forfeit is not None:
            record["forfeit"] = forfeit.to_json()
        if note:
            record["note"] = note
        result.trace = record
    return result


def _hand_record(state: GinState, events: list[dict[str, Any]]) -> dict[str, Any]:
    """The trace entry of the hand just dealt; ``events`` fills in as it is played."""
    deck = state.deck
    hrec: dict[str, Any] = {
        "dealt": [[CARD_NAMES[c] for c in deck[0:20:2]], [CARD_NAMES[c] for c in deck[1:20:2]]],
        "upcard": CARD_NAMES[deck[20]],
        "starting_player": state.starter,
        "events": events,
    }
    if state.shuffle_seed is not None:
        hrec["shuffle_seed"] = state.shuffle_seed
    else:
        hrec["deck"] = [CARD_NAMES[c] for c in deck]
    return hrec


def _label(player: CallbackPlayer) -> str:
    """How traces and forfeits name a seat: the spec it was built from (``keats:tuned``) where the
    runner set one, else the bot's registered name."""
    return getattr(player, "label", None) or getattr(player, "name", None) or type(player).__name__
