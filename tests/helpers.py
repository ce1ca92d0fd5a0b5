"""Small hand-written players and deck builders for protocol tests."""

from __future__ import annotations

import sys
import time
from typing import Any, Callable

from ginbots.game.cards import cards_of, parse_card, parse_cards
from ginbots.game.melds import best_meld_set, min_deadwood
from ginbots.players.base import HandTrackingPlayer


def deck_from(seat0: str, seat1: str, upcard: str, stock: str = "") -> list[int]:
    """A deal order: the two hands dealt alternately, the upcard, the stock top first, then the rest."""
    h0 = [parse_card(c) for c in seat0.split()]
    h1 = [parse_card(c) for c in seat1.split()]
    assert len(h0) == len(h1) == 10
    order = [c for pair in zip(h0, h1) for c in pair] + [parse_card(upcard)]
    order += [parse_card(c) for c in stock.split()]
    order += [c for c in range(52) if c not in order]
    assert sorted(order) == list(range(52))
    return order


class Passive(HandTrackingPlayer):
    """Never takes the face-up card, discards what it drew, never knocks, declares nothing."""

    name = "passive"

    def wants_face_up(self, card: int) -> bool:
        return False

    def discard(self) -> int:
        return self.drawn

    def knock(self) -> Any:
        return None

    def declare_melds(self) -> Any:
        return []


class Hooked(Passive):
    """Passive, except that any decision can be replaced by a function of the player."""

    name = "hooked"

    def __init__(self, **hooks: Callable[["Hooked"], Any]) -> None:
        super().__init__(seed=0)
        self.hooks = hooks
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def _hook(self, name: str, fallback: Callable[[], Any]) -> Any:
        hook = self.hooks.get(name)
        return hook(self) if hook else fallback()

    def wants_face_up(self, card: int) -> bool:
        return self._hook("offer", lambda: False)

    def discard(self) -> Any:
        return self._hook("discard", lambda: self.drawn)

    def knock(self) -> Any:
        return self._hook("knock", lambda: None)

    def declare_melds(self) -> Any:
        return self._hook("declare", lambda: [])


def seated(cls, hand: str, seat: int = 0, starter: int = 0, seed: int = 1, **params: Any) -> Any:
    """A bot of class ``cls`` dealt ``hand`` (names) at the start of a hand, for worked positions."""
    player = cls(seed=seed, layoff_samples=0, **params)
    player.new_game(seed)
    player.start_hand(seat, starter, parse_cards(hand))
    return player


def knock_when_legal(player: HandTrackingPlayer) -> Any:
    return best_meld_set(player.hand) if min_deadwood(player.hand) <= 10 else None


def sleeper(seconds: float) -> Callable[[Any], Any]:
    def act(player: Any) -> Any:
        time.sleep(seconds)
        return player.drawn
    return act


def hand_names(mask: int) -> list[str]:
    from ginbots.game.cards import CARD_NAMES
    return [CARD_NAMES[c] for c in cards_of(mask)]


__all__ = ["deck_from", "Passive", "Hooked", "seated", "knock_when_legal", "sleeper", "hand_names", "parse_cards"]


def known_run_position(player: Any) -> None:
    """Opponent (the starter) took the 7H upcard and threw KC; we declined KC and drew 6C."""
    player.new_game(1)
    player.start_hand(0, 1, parse_cards("AS 2S 3S 4S 5C 5D 5H 9H 2C 3D"))
    player.report_draw(1, parse_card("7H"))
    player.report_discard(1, parse_card("KC"))
    assert player.will_draw_face_up(parse_card("KC")) is False
    player.report_draw(0, parse_card("6C"))


def bridge_without_onnxruntime(bot: str) -> list[str]:
    """A bridge command for ``bot`` on this Python with onnxruntime made unimportable, as on a machine
    without it."""
    code = ("import sys; sys.modules['onnxruntime'] = None; from ginbots.connect.bridge import main; "
            f"sys.exit(main([{bot!r}]))")
    return [sys.executable, "-c", code]
