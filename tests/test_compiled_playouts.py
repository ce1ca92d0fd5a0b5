"""The champion's compiled playouts equal the pure-Python ones, outcome for outcome (issue 37, part 2)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from ginbots.game import melds  # noqa: E402
from ginbots.game.engine import GameConfig, play_game  # noqa: E402
from ginbots.players.baselines import SimplePlayer  # noqa: E402
from ginbots.players.champion import ChampionPlayer  # noqa: E402
from ginbots.search import playout_kernels as kernels  # noqa: E402
from ginbots.search import playouts, rollout  # noqa: E402
from ginbots.search.playouts import WorldPlayouts  # noqa: E402


def _hand(rng: random.Random, size: int, avoid: int = 0) -> int:
    """A random hand, half of its cards drawn by rank so that sets (the ties' hard cases) are common."""
    cards: set[int] = set()
    while len(cards) < size:
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            for suit in rng.sample(range(4), rng.choice((2, 3, 3, 4))):
                card = suit * 13 + rank
                if len(cards) < size and not avoid >> card & 1:
                    cards.add(card)
        else:
            card = rng.randrange(52)
            if not avoid >> card & 1:
                cards.add(card)
    return sum(1 << c for c in cards)


def test_meld_kernels_equal_the_rules_on_random_hands() -> None:
    rng = random.Random(11)
    work = np.zeros(8, dtype=np.int64)
    for _ in range(4000):
        hand = _hand(rng, rng.choice((10, 11, 12)))
        assert kernels.deadwood_and_melded(hand) == melds.deadwood_and_melded(hand), hex(hand)
        n = kernels.best_meld_set(hand, work)
        assert tuple(int(m) for m in work[:n]) == melds.best_meld_set(hand), hex(hand)
        banned = rng.choice([c for c in range(52) if hand >> c & 1] + [-1])
        assert tuple(kernels.simple_discard(hand, banned)) == rollout.simple_discard(hand, banned), hex(hand)


def test_batch_kernel_equals_numpy_batch() -> None:
    rng = random.Random(12)
    hands = np.array([_hand(rng, rng.choice((9, 10, 11, 12, 13))) for _ in range(20000)], dtype=np.uint64)
    saved = melds._BATCH_KERNEL
    melds.use_batch_kernel(None)
    try:
        numpy_dw, numpy_melded = melds.deadwood_and_melded_batch(hands)
    finally:
        melds.use_batch_kernel(saved)
    dw, melded = kernels.deadwood_and_melded_batch(hands)
    assert (dw == numpy_dw).all() and (melded == numpy_melded).all()


def _decision(rng: random.Random, worlds: int = 8) -> tuple[int, int, list[tuple[int, list[int]]]]:
    """Our 10 cards, the face-up card and sampled worlds (opponent hand, stock order of 1-31 cards)."""
    us = _hand(rng, 10)
    rest = [c for c in range(52) if not us >> c & 1]
    top = rest.pop(rng.randrange(len(rest)))
    out = []
    length = rng.randrange(1, 32)
    for _ in range(worlds):
        order = rest[:]
        rng.shuffle(order)
        out.append((sum(1 << c for c in order[:10]), order[11:11 + length]))
    return us, top, out


def test_every_option_kind_scores_the_same_on_thousands_of_worlds() -> None:
    """1,000 decisions x 8 worlds x 5 option kinds (40,000 (world, action) pairs), on whole and partial slices."""
    rng = random.Random(13)
    for _ in range(1000):
        us, top, worlds = _decision(rng)
        knock_at = (rng.randrange(11), rng.randrange(11))
        fast, slow = WorldPlayouts(worlds, knock_at, "compiled"), WorldPlayouts(worlds, knock_at, "python")
        lo, hi = rng.choice(((0, 8), (0, 3), (3, 8), (5, 5)))
        margin = rng.choice((0.0, 1.5, -2.25))
        deadwood = rng.randrange(20)
        best = melds.best_meld_set(us)
        assert fast.play(us, top, lo, hi) == slow.play(us, top, lo, hi)
        assert fast.play_or_knock(us, top, margin, lo, hi) == slow.play_or_knock(us, top, margin, lo, hi)
        assert fast.after_discard(us, deadwood, top, lo, hi) == slow.after_discard(us, deadwood, top, lo, hi)
        assert fast.after_stock_draw(us, lo, hi) == slow.after_stock_draw(us, lo, hi)
        assert fast.knock(us, best, lo, hi) == slow.knock(us, best, lo, hi)


def test_champion_plays_the_same_games_on_either_path() -> None:
    """Four single hands with every search on (draws, discards, knocks): the same actions and playouts."""
    config = GameConfig(time_budget=None, max_hands_per_game=1)
    for game in range(4):
        runs = []
        for code in ("compiled", "python"):
            champion = ChampionPlayer(seed=game, playouts=code, search_discards="always")
            champion.prepare()
            result = play_game([champion, SimplePlayer(seed=50 + game)], seed=900 + game, config=config, trace=True)
            runs.append((result.trace, champion.playouts))
        assert runs[0] == runs[1]
        assert runs[0][1] > 0  # it searched


def test_the_path_is_named_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ChampionPlayer.runtime_for({}) == {"playouts": "compiled (numba)"}
    assert "pure Python" in ChampionPlayer.runtime_for({"playouts": "python"})["playouts"]
    monkeypatch.setattr(playouts, "compiled_available", lambda: False)
    assert playouts.resolve_code("auto") == "python"
    with pytest.raises(ImportError, match=r"ginbots\[fast\]"):
        playouts.resolve_code("compiled")
    with pytest.raises(ValueError, match="playout code must be one of"):
        playouts.resolve_code("gpu")
