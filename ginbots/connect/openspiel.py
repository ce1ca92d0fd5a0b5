"""Any ginbots player as a ``pyspiel.Bot`` for OpenSpiel's ``gin_rummy`` (extra ``openspiel``).

OpenSpiel hands a bot the whole state, the opponent's cards included.  The
adapter keeps a private replay of the action history and forwards to the
wrapped player only what a seat at the EAAI table would see: its own dealt
and drawn cards, face-up pickups, discards, and the knocker's melds.  It lays
melds and layoffs itself (OpenSpiel asks for them one action at a time) and
never returns an illegal action: whenever OpenSpiel refuses the bot's move
(its 11-card knock check is greedy, its runs stop at five cards) or the bot
raises, a legal fallback is played and counted in ``fallbacks``.

Rule differences from the EAAI engine (see README): one hand per game; a tied
knock scores 0 instead of an undercut; the wall phase (at two stock cards the
upcard may be taken only to knock, instead of the hand ending); a picked-up
card may be discarded again; player 0 is always offered the first upcard.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

import pyspiel
from pyspiel import gin_rummy as gr

from ginbots.game.cards import (
    CARD_NAMES,
    CARD_POINTS,
    NUM_CARDS,
    RANK_CHARS,
    cards_of,
    count,
    mask_of,
)
from ginbots.game.melds import best_meld_set, min_deadwood
from ginbots.game.rules import as_meld_masks
from ginbots.players.base import Player

log = logging.getLogger(__name__)

OPENSPIEL_SUITS = "scdh"  # OpenSpiel card id = suit index * 13 + rank, suits in this order
DRAW_UPCARD, DRAW_STOCK, PASS, KNOCK = (
    gr.DRAW_UPCARD_ACTION, gr.DRAW_STOCK_ACTION, gr.PASS_ACTION, gr.KNOCK_ACTION)
MELD_BASE = gr.MELD_ACTION_BASE
MAX_RUN_ACTION = 5  # OpenSpiel's meld actions cover runs of 3 to 5 cards only

#: OpenSpiel card id -> ginbots card id, matched by name (rank char + suit char).
FROM_OPENSPIEL: tuple[int, ...] = tuple(
    CARD_NAMES.index(RANK_CHARS[c % 13] + OPENSPIEL_SUITS[c // 13].upper()) for c in range(NUM_CARDS))
TO_OPENSPIEL: tuple[int, ...] = tuple(FROM_OPENSPIEL.index(c) for c in range(NUM_CARDS))

_UTILS = gr.GinRummyUtils(13, 4, 10)
#: ginbots card-set int of each OpenSpiel meld action, and back.
MELD_OF_ACTION: dict[int, int] = {
    MELD_BASE + i: mask_of(FROM_OPENSPIEL[c] for c in cards) for i, cards in _UTILS.int_to_meld.items()}
ACTION_OF_MELD: dict[int, int] = {m: a for a, m in MELD_OF_ACTION.items()}


def openspiel_mask(cards: Sequence[int]) -> int:
    """A ginbots card set from OpenSpiel card ids."""
    return mask_of(FROM_OPENSPIEL[c] for c in cards)


def meld_actions(melds: Sequence[int]) -> list[int]:
    """OpenSpiel meld actions laying ``melds``; runs over five cards are cut into
    pieces of three to five (same deadwood, same layoff ends)."""
    out = []
    for meld in melds:
        cards = cards_of(meld)
        if meld in ACTION_OF_MELD:
            out.append(ACTION_OF_MELD[meld])
            continue
        pieces = -(-len(cards) // MAX_RUN_ACTION)
        size, extra = divmod(len(cards), pieces)
        start = 0
        for i in range(pieces):
            n = size + (i < extra)
            piece = mask_of(cards[start:start + n])
            if piece not in ACTION_OF_MELD:
                raise ValueError(f"meld {[CARD_NAMES[c] for c in cards]} has no OpenSpiel meld action")
            out.append(ACTION_OF_MELD[piece])
            start += n
    return out


@dataclass
class _Plan:
    """Actions the adapter has committed to for the current phase, in order."""

    actions: list[int] = field(default_factory=list)
    melds: tuple[int, ...] = ()


#: The ``gin_rummy`` parameters the adapter plays: the EAAI challenge's rules. Any other value is refused.
SUPPORTED_PARAMETERS = {"hand_size": 10, "knock_card": 10, "num_ranks": 13, "num_suits": 4, "oklahoma": False,
                        "gin_bonus": 25, "undercut_bonus": 25}


def check_game(game: Any) -> None:
    """ValueError unless ``game`` is OpenSpiel's ``gin_rummy`` with the challenge's parameters."""
    name = game.get_type().short_name
    if name != "gin_rummy":
        raise ValueError(f"GinbotsBot plays OpenSpiel's gin_rummy, not {name!r}")
    params = game.get_parameters()
    for key, value in params.items():
        if key in SUPPORTED_PARAMETERS and value != SUPPORTED_PARAMETERS[key]:
            raise ValueError(f"gin_rummy({key}={value!r}) is not supported: ginbots bots play the EAAI rules "
                             f"({key}={SUPPORTED_PARAMETERS[key]!r}); load the game without it")


class GinbotsBot(pyspiel.Bot):
    """A ginbots ``Player`` seated at OpenSpiel's ``gin_rummy`` as ``player_id``.

    Constructed as OpenSpiel's bots are, game first: ``GinbotsBot(game, player_id, player, seed=0)``.
    Each OpenSpiel game is one hand; the player gets ``new_game`` (seeded from
    ``seed`` and the hand count) and ``start_hand`` at the start of each. A game
    with other parameters than the challenge's (``SUPPORTED_PARAMETERS``) is refused.
    """

    def __init__(self, game: Any, player_id: int, player: Player, *, seed: int = 0) -> None:
        if isinstance(game, Player):
            raise TypeError("GinbotsBot takes the game first, as OpenSpiel's bots do: "
                            "GinbotsBot(game, player_id, player, seed=...)")
        check_game(game)
        pyspiel.Bot.__init__(self)
        self.game = game
        self.player = player
        self.player_id = player_id
        self.seed = seed
        self.hands_started = 0
        self.fallbacks: Counter[str] = Counter()
        self.restart()

    # --- pyspiel.Bot -----------------------------------------------------
    def restart(self) -> None:
        self._shadow: Any = None
        self._seen = 0
        self._hand = 0
        self._dealt = False
        self._plan = _Plan()
        self._own_discard_reported = -1
        self._opponent_melds: list[int] = []
        self._melding_seat = -1
        self._stock_drawer = -1

    def restart_at(self, state: Any) -> None:
        self.restart()

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass  # step() catches up from the history, so a runner need not inform us

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False

    def step(self, state: Any) -> int:
        self._sync(state)
        legal = state.legal_actions(self.player_id)
        try:
            action = self._decide(state, legal)
        except Exception as exc:  # a crashing bot must not crash the host: play on
            self._note("exception", f"{type(exc).__name__}: {exc}")
            self._plan = _Plan()
            action = -1
        if action not in legal:
            if action != -1:
                self._note("refused", f"{state.action_to_string(self.player_id, action)} "
                                      f"in {state.current_phase()}")
            self._plan = _Plan()
            action = self._fallback(state, legal)
        return action

    # --- what the seat sees ----------------------------------------------
    def _sync(self, state: Any) -> None:
        """Replay the new history actions, forwarding the public events and our own cards."""
        history = state.history()
        if self._shadow is None or len(history) < self._seen:
            self.restart()
            self._shadow = state.get_game().new_initial_state()
        me, shadow = self.player_id, self._shadow
        while self._seen < len(history):
            action = history[self._seen]
            self._seen += 1
            if shadow.is_chance_node():
                shadow.apply_action(action)
                if self._stock_drawer == me:
                    self._hand |= 1 << FROM_OPENSPIEL[action]
                    self.player.report_draw(me, FROM_OPENSPIEL[action])
                elif self._stock_drawer >= 0:
                    self.player.report_draw(self._stock_drawer, None)
                elif not self._dealt and action in shadow.hands()[me]:
                    self._hand |= 1 << FROM_OPENSPIEL[action]
                self._stock_drawer = -1
                if not self._dealt and shadow.current_phase() != gr.DEAL:
                    self._dealt = True
                    self.player.new_game(self.seed * 1_000_003 + self.hands_started)
                    self.hands_started += 1
                    self.player.start_hand(me, 0, self._hand)
                continue
            actor, phase = shadow.current_player(), shadow.current_phase()
            upcard = shadow.upcard()
            shadow.apply_action(action)
            if action == DRAW_STOCK:
                self._stock_drawer = actor  # the next chance outcome is the drawn card
            self._forward(actor, phase, action, upcard)

    def _forward(self, actor: int, phase: Any, action: int, upcard: int) -> None:
        me = self.player_id
        if action == DRAW_UPCARD:
            card = FROM_OPENSPIEL[upcard]
            if actor == me:
                self._hand |= 1 << card
            self.player.report_draw(actor, card)
        elif action < NUM_CARDS and phase in (gr.DISCARD, gr.KNOCK):
            card = FROM_OPENSPIEL[action]
            if actor == me:
                self._hand &= ~(1 << card)
                if self._own_discard_reported == card:
                    self._own_discard_reported = -1
                    return
            self.player.report_discard(actor, card)
        elif action >= MELD_BASE and actor != me and phase == gr.KNOCK:
            self._opponent_melds.append(MELD_OF_ACTION[action])
        elif action == PASS and actor != me and phase == gr.KNOCK:
            self.player.report_final_melds(actor, tuple(self._opponent_melds))

    # --- decisions ---------------------------------------------------------
    def _decide(self, state: Any, legal: list[int]) -> int:
        if self._plan.actions:
            return self._plan.actions.pop(0)
        phase = state.current_phase()
        if phase in (gr.FIRST_UPCARD, gr.DRAW, gr.WALL):
            if DRAW_UPCARD in legal and len(legal) > 1:
                if self.player.will_draw_face_up(FROM_OPENSPIEL[state.upcard()]):
                    return DRAW_UPCARD
            return DRAW_STOCK if DRAW_STOCK in legal else PASS
        if phase == gr.DISCARD:
            card = self.player.discard()
            self._own_discard_reported = card
            self.player.report_discard(self.player_id, card)
            melds = self.player.knock()
            if melds is None or KNOCK not in legal:
                if melds is not None:
                    self._note("knock-refused", "OpenSpiel's knock check refused a legal knock")
                return TO_OPENSPIEL[card]
            masks = as_meld_masks(melds)
            self._plan = _Plan([TO_OPENSPIEL[card], *meld_actions(masks), PASS], masks)
            return KNOCK
        if phase == gr.KNOCK:  # reached from the wall: we took the upcard to knock
            card = self.player.discard()
            self._own_discard_reported = card
            self.player.report_discard(self.player_id, card)
            melds = self.player.knock()
            rest = self._hand & ~(1 << card)
            masks = as_meld_masks(melds) if melds is not None else best_meld_set(rest)
            self._plan = _Plan([*meld_actions(masks), PASS], masks)
            return TO_OPENSPIEL[card]
        if phase == gr.LAYOFF:
            return self._defend(state, legal)
        raise ValueError(f"no decision for phase {phase}")

    def _defend(self, state: Any, legal: list[int]) -> int:
        """Lay off every legal unmelded card, then lay the declared melds."""
        if not self._plan.melds and self._melding_seat != self.player_id:
            self._melding_seat = self.player_id
            self._plan.melds = as_meld_masks(self.player.declare_melds())
        covered = 0
        for m in self._plan.melds:
            covered |= m
        if not state.finished_layoffs():
            layoffs = [a for a in legal if a < NUM_CARDS and not covered >> FROM_OPENSPIEL[a] & 1]
            return max(layoffs, key=lambda a: (CARD_POINTS[FROM_OPENSPIEL[a]], a)) if layoffs else PASS
        self._plan.actions = [*meld_actions(self._plan.melds), PASS]
        return self._plan.actions.pop(0)

    def _fallback(self, state: Any, legal: list[int]) -> int:
        """A legal move in the spirit of a simple player."""
        discards = [a for a in legal if a < NUM_CARDS]
        melds = [a for a in legal if a >= MELD_BASE]
        phase = state.current_phase()
        if phase in (gr.DISCARD, gr.KNOCK) and discards and not melds:
            return min(discards, key=lambda a: (min_deadwood(self._hand & ~(1 << FROM_OPENSPIEL[a])), a))
        if melds:  # the biggest legal meld; OpenSpiel only offers melds within our cards
            return max(melds, key=lambda a: (count(MELD_OF_ACTION[a]), a))
        if phase == gr.LAYOFF and discards:
            return max(discards, key=lambda a: (CARD_POINTS[FROM_OPENSPIEL[a]], a))
        for preferred in (DRAW_STOCK, PASS):
            if preferred in legal:
                return preferred
        return legal[0]

    def _note(self, kind: str, detail: str) -> None:
        self.fallbacks[kind] += 1
        log.info("%s (player %d): fallback after %s: %s", self.player, self.player_id, kind, detail)


def simple_bot(game: Any, player_id: int) -> Any:
    """OpenSpiel's built-in simple gin rummy bot for ``player_id`` (game first, as OpenSpiel's bots)."""
    return pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), player_id)


@dataclass
class OpenSpielResult:
    """Returns of seat-alternating single hands: ``points[i]`` is bot A's return in hand i."""

    points: list[float]
    fallbacks: Counter[str]

    @property
    def hands(self) -> int:
        return len(self.points)

    @property
    def points_per_hand(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0

    @property
    def win_rate(self) -> float:
        decided = [p for p in self.points if p != 0]
        return sum(p > 0 for p in decided) / len(decided) if decided else 0.0


def play_hands(make_a: Any, make_b: Any, hands: int, *, seed: int = 0) -> OpenSpielResult:
    """Play ``hands`` OpenSpiel hands, bot A in seat ``i % 2`` of hand i.

    ``make_a(game, player_id)`` and ``make_b(game, player_id)`` build pyspiel bots; every
    chance outcome comes from ``seed``, so a seed replays the same hands.
    """
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    bots_a = [make_a(game, p) for p in range(2)]
    bots_b = [make_b(game, p) for p in range(2)]
    points: list[float] = []
    for i in range(hands):
        seat_a = i % 2
        bots = [bots_a[0], bots_b[1]] if seat_a == 0 else [bots_b[0], bots_a[1]]
        state = game.new_initial_state()
        for bot in bots:
            bot.restart()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(outcomes[rng.randrange(len(outcomes))])
                continue
            player = state.current_player()
            action = bots[player].step(state)
            state.apply_action_with_legality_check(action)  # SpielError on an illegal action
        points.append(state.returns()[seat_a])
    fallbacks: Counter[str] = Counter()
    for bot in bots_a + bots_b:
        fallbacks.update(getattr(bot, "fallbacks", {}))
    return OpenSpielResult(points, fallbacks)
