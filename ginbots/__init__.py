"""ginbots: Gin Rummy AI players on an exact EAAI-challenge reference engine.

Cards are ints 0-51 (``suit * 13 + rank``), hands and melds 52-bit ints. What a bot writer
needs comes from here::

    from ginbots import HandTrackingPlayer, Hyperparameter, min_deadwood, best_meld_set

The package is in wings, each importing only those below it: ``game`` (rules, state, engine),
``search`` and ``estimators``, ``players`` (the interface, the registry, the bots), ``connect``
(bridge, Java shim, packaging, OpenSpiel, environments), ``arena`` (matches, tournaments,
traces), then ``training`` and ``tuning``. ``docs/modules.md`` is the map.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

#: Public name -> module it lives in; loaded on first use, so ``import ginbots`` stays cheap.
PUBLIC_NAMES = {
    "Player": "ginbots.players.base",
    "HandTrackingPlayer": "ginbots.players.base",
    "Hyperparameter": "ginbots.players.base",
    "KnowledgePlayer": "ginbots.players.tracking",
    "Knowledge": "ginbots.game.knowledge",
    "CARD_NAMES": "ginbots.game.cards",
    "MAX_DEADWOOD": "ginbots.game.cards",
    "card_name": "ginbots.game.cards",
    "parse_card": "ginbots.game.cards",
    "parse_cards": "ginbots.game.cards",
    "cards_of": "ginbots.game.cards",
    "mask_of": "ginbots.game.cards",
    "points_of": "ginbots.game.cards",
    "rank_of": "ginbots.game.cards",
    "suit_of": "ginbots.game.cards",
    "completes_meld": "ginbots.game.cards",
    "min_deadwood": "ginbots.game.melds",
    "best_meld_set": "ginbots.game.melds",
    "deadwood_after_discards": "ginbots.game.melds",
    "play_game": "ginbots.game.engine",
    "GameConfig": "ginbots.game.engine",
    "parse_spec": "ginbots.players.registry",
}

__all__ = ["__version__", *PUBLIC_NAMES]

if TYPE_CHECKING:
    from ginbots.game.cards import (
        CARD_NAMES,
        MAX_DEADWOOD,
        card_name,
        cards_of,
        completes_meld,
        mask_of,
        parse_card,
        parse_cards,
        points_of,
        rank_of,
        suit_of,
    )
    from ginbots.game.engine import GameConfig, play_game
    from ginbots.game.knowledge import Knowledge
    from ginbots.game.melds import best_meld_set, deadwood_after_discards, min_deadwood
    from ginbots.players.base import HandTrackingPlayer, Hyperparameter, Player
    from ginbots.players.registry import parse_spec
    from ginbots.players.tracking import KnowledgePlayer


def __getattr__(name: str) -> Any:
    if name in PUBLIC_NAMES:
        value = getattr(import_module(PUBLIC_NAMES[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ginbots' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
