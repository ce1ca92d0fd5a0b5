"""``random.Random.shuffle`` in compiled code (numba, optional extra ``fast``): the same permutations
from the same Mersenne Twister stream, for the many stock orders of a searched decision.

CPython's ``Random`` is MT19937; ``getrandbits(k)`` for ``k <= 32`` is one 32-bit output shifted right
by ``32 - k``, and ``shuffle`` swaps ``x[i]`` with ``x[j]``, ``j`` drawn below ``i + 1`` by rejection
from ``getrandbits((i + 1).bit_length())``, for ``i`` from the end down to 1. ``shuffle_rows`` runs
that on the generator's state (``getstate``), and hands the advanced state back (``setstate``), so
the Python generator goes on exactly as if it had shuffled every row itself.
``tests/test_compiled_playouts.py`` checks it against ``random.Random.shuffle``.
"""

from __future__ import annotations

import random

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled shuffle needs numba: pip install 'ginbots[fast]'") from exc

_N, _M = 624, 397  # MT19937's state size and shift
_MASK32 = 0xFFFFFFFF


@njit(cache=True)
def _twist(mt):
    for k in range(_N):
        y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
        mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)


@njit(cache=True)
def _next32(mt, pos):
    """MT19937's next 32-bit output (``genrand_uint32``); ``pos[0]`` is the state's index."""
    if pos[0] >= _N:
        _twist(mt)
        pos[0] = 0
    y = mt[pos[0]]
    pos[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & _MASK32


@njit(cache=True)
def _bit_length(n):
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


@njit(cache=True)
def _shuffle_rows_into(mt, pos, rows, lengths):
    for r in range(rows.shape[0]):
        for i in range(lengths[r] - 1, 0, -1):
            n = i + 1
            shift = 32 - _bit_length(n)
            j = _next32(mt, pos) >> shift
            while j >= n:
                j = _next32(mt, pos) >> shift
            rows[r, i], rows[r, j] = rows[r, j], rows[r, i]


@njit(cache=True)
def _rests_into(opps, unknown, rows, lengths):
    for r in range(len(opps)):
        rest = unknown & ~opps[r]
        n = 0
        for card in range(52):
            if rest >> card & 1:
                rows[r, n] = card
                n += 1
        lengths[r] = n


def rests(opps: np.ndarray, unknown: int) -> tuple[np.ndarray, np.ndarray]:
    """Per opponent hand, ``cards_of(unknown & ~hand)`` as one row of a (hands, 52) array (ascending,
    zero-padded) and each row's length."""
    rows = np.zeros((len(opps), 52), dtype=np.int64)
    lengths = np.zeros(len(opps), dtype=np.int64)
    _rests_into(opps, np.int64(unknown), rows, lengths)
    return rows, lengths


def shuffle_rows(rng: random.Random, rows: np.ndarray, lengths: np.ndarray) -> None:
    """Shuffle ``rows[r, :lengths[r]]`` in place, row by row, as ``rng.shuffle`` would each in turn,
    and leave ``rng`` where those shuffles would have left it."""
    version, internal, gauss = rng.getstate()
    mt = np.array(internal[:_N], dtype=np.int64)
    pos = np.array([internal[_N]], dtype=np.int64)
    _shuffle_rows_into(mt, pos, rows, np.ascontiguousarray(lengths, dtype=np.int64))
    rng.setstate((version, (*mt.tolist(), int(pos[0])), gauss))


def warm_up() -> None:
    """Compile (or load from numba's cache) the shuffle now, so no decision pays for it."""
    shuffle_rows(random.Random(0), np.zeros((1, 3), dtype=np.int64), np.array([3]))
    rests(np.array([7], dtype=np.int64), 0xFF)
