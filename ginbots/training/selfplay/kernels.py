"""Compiled building blocks of the self-play core: the random streams and the Java deal.

The meld solver lives in ``ginbots.search.kernels`` (the champion's playouts use it too) and is
re-exported here for the core.

Each function equals a pure-Python one of the bundle (named in its docstring) on
the same inputs; ``tests/test_selfplay.py`` checks them side by side.
"""

from __future__ import annotations

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled self-play core needs numba: pip install 'ginbots[train]'") from exc

from ginbots.search.kernels import (  # noqa: F401 (the core's meld solver, re-exported)
    _U,
    MAX_MELDS,
    MAX_OPTIONS,
    MELD_PAIR_COUNT,
    MELD_PAIR_MASKS,
    _low_index,
    _points,
    _popcount,
    best_meld_sets,
    discard_deadwoods,
    is_meld,
    min_deadwood,
)

_GOLDEN = _U(0x9E3779B97F4A7C15)
_MIX1 = _U(0xBF58476D1CE4E5B9)
_MIX2 = _U(0x94D049BB133111EB)
_SEED0 = _U(0x5EED)
_JAVA_MULT = _U(0x5DEECE66D)
_JAVA_ADD = _U(0xB)
_MASK48 = _U((1 << 48) - 1)

# --- random streams ---------------------------------------------------------------------------

@njit(cache=True)
def _mix(x):
    z = x + _GOLDEN
    z = (z ^ (z >> _U(30))) * _MIX1
    z = (z ^ (z >> _U(27))) * _MIX2
    return z ^ (z >> _U(31))


@njit(cache=True)
def derive_seed3(a, b, c):
    """``match.derive_seed(a, b, c)`` for non-negative parts."""
    x = _mix(_SEED0 ^ _U(a))
    x = _mix(x ^ _U(b))
    x = _mix(x ^ _U(c))
    return np.int64(x >> _U(16))


@njit(cache=True)
def _randbelow(streams, seat, n):
    x = streams[seat]
    streams[seat] = x + _GOLDEN
    return np.int64(_mix(x) % _U(n))


@njit(cache=True)
def java_deal(deal_seed, deck):
    """The engine's single-hand deal for ``deal_seed`` into ``deck`` (deal order); returns the starter."""
    state = (_U(deal_seed) ^ _JAVA_MULT) & _MASK48
    state = (state * _JAVA_MULT + _JAVA_ADD) & _MASK48
    starter = np.int64((_U(2) * (state >> _U(17))) >> _U(31))
    state = (state * _JAVA_MULT + _JAVA_ADD) & _MASK48
    shuffle_seed = np.int64(state >> _U(16))
    if shuffle_seed >= 1 << 31:
        shuffle_seed -= 1 << 32
    stack = np.arange(52)
    state = (_U(shuffle_seed) ^ _JAVA_MULT) & _MASK48
    for i in range(52, 1, -1):
        if i & -i == i:
            state = (state * _JAVA_MULT + _JAVA_ADD) & _MASK48
            j = np.int64((_U(i) * (state >> _U(17))) >> _U(31))
        else:
            while True:
                state = (state * _JAVA_MULT + _JAVA_ADD) & _MASK48
                bits = np.int64(state >> _U(17))
                j = bits % i
                if bits - j + i - 1 < 0x80000000:
                    break
        stack[i - 1], stack[j] = stack[j], stack[i - 1]
    for i in range(52):
        deck[i] = stack[51 - i]
    return starter


@njit(cache=True)
def resample_stock(deck, deal_seed, k):
    """``stream.sample_deck(..., resample="stock")``: reshuffle ``deck[21:]`` with sample ``k``'s stream."""
    streams = np.empty(1, dtype=np.uint64)
    streams[0] = _U(derive_seed3(deal_seed, k, 2))
    for i in range(30, 0, -1):
        j = _randbelow(streams, 0, i + 1)
        deck[21 + i], deck[21 + j] = deck[21 + j], deck[21 + i]


