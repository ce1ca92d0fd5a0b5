"""What the engine and the compiled core share: one random stream, one deal per sample.

Simple and RP draw their tie-breaks and random discards from ``StreamRandom``,
a splitmix64 stream whose ``randrange(n)`` the core computes bit for bit; the
deck of sample ``k`` of a deal is the Java engine's deal for the deal seed,
with the stock optionally reshuffled per sample. Pure Python: no numba needed.
"""

from __future__ import annotations

from typing import Sequence

from ginbots.arena.match import _splitmix64, derive_seed
from ginbots.game.engine import GameConfig, GameResult, play_game
from ginbots.game.javarandom import JavaRandom, deal_order
from ginbots.players.base import Player
from ginbots.players.baselines import RandomDiscardPlayer, SimplePlayer

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

#: Player kinds the core plays, by code: 0 Simple, 1 RP (Simple with a random unmelded discard).
PLAYER_KINDS: tuple[type[SimplePlayer], ...] = (SimplePlayer, RandomDiscardPlayer)
#: Sampling recipes of best-of-N datasets: keep the whole deck, or keep hands and upcard and reshuffle the stock.
RESAMPLE = ("deck", "stock")
#: ``derive_seed(deal_seed, k, STOCK_ROLE)`` seeds the stock reshuffle of sample ``k``.
STOCK_ROLE = 2
#: One hand, no clock: how the engine plays a sample.
SINGLE_ROUND = GameConfig(time_budget=None, max_hands_per_game=1)


class StreamRandom:
    """A splitmix64 stream: ``randrange(n)`` is the next output modulo ``n``.

    The bias of the modulo (n / 2**64) is far below anything a game can show;
    what matters is that the compiled core reproduces it exactly.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        x = self.state
        self.state = (x + _GOLDEN) & _MASK64
        return _splitmix64(x)

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randrange needs n >= 1, got {n}")
        return self.next64() % n


def sample_seeds(deal_seed: int, k: int) -> tuple[int, int]:
    """The random-stream seeds of seats 0 and 1 in sample ``k`` of a deal."""
    return derive_seed(deal_seed, k, 0), derive_seed(deal_seed, k, 1)


def sample_deck(deal_seed: int, k: int, resample: str = "deck") -> tuple[list[int], int]:
    """(deal order, starting seat) of sample ``k``: the engine's single-hand deal for ``deal_seed``.

    ``resample="stock"`` keeps both hands and the upcard and reshuffles the 31
    stock cards with the sample's own stream (Fisher-Yates from the top down).
    """
    if resample not in RESAMPLE:
        raise ValueError(f"resample must be one of {RESAMPLE}, got {resample!r}")
    rng = JavaRandom(deal_seed)
    starter = rng.next_int(2)
    deck = deal_order(rng.next_int())
    if resample == "stock":
        stream = StreamRandom(derive_seed(deal_seed, k, STOCK_ROLE))
        stock = deck[21:]
        for i in range(len(stock) - 1, 0, -1):
            j = stream.randrange(i + 1)
            stock[i], stock[j] = stock[j], stock[i]
        deck[21:] = stock
    return deck, starter


def stream_players(kinds: Sequence[int], seeds: Sequence[int], wrap: type | None = None) -> list[Player]:
    """Engine players for the core's kinds (0 Simple, 1 RP) drawing from ``StreamRandom(seed)``."""
    out: list[Player] = []
    for kind, seed in zip(kinds, seeds):
        player = PLAYER_KINDS[kind](seed=seed)
        player.rng = StreamRandom(seed)  # type: ignore[assignment]
        out.append(wrap(player) if wrap is not None else player)
    return out


def play_sample(deal_seed: int, k: int, kinds: Sequence[int], resample: str = "deck", wrap: type | None = None
                ) -> tuple[GameResult, list[Player]]:
    """Sample ``k`` of a deal through the engine, as the core plays it: (result, the seated players)."""
    deck, starter = sample_deck(deal_seed, k, resample)
    players = stream_players(kinds, sample_seeds(deal_seed, k), wrap=wrap)
    result = play_game(players, seed=deal_seed, config=SINGLE_ROUND, decks=[deck], first_starter=starter)
    return result, players
