"""One seat's estimate, normalised and sampled, in compiled code (numba, optional extra ``fast``).

At play time an estimator answers for one row at a time, where numpy spends most of its time
setting up small arrays. These kernels give ``snapshot.normalise``'s and ``snapshot.sample_masks``'s
numbers exactly:

- ``normalise_row`` repeats the water filling operation for operation in float64, its sums over the
  52 cards in numpy's pairwise order (eight partial sums, added in pairs, then the rest in order);
- ``select_masks`` takes the Gumbel draws and the cards' log odds from numpy (the same generator
  calls, numpy's own logarithm) and picks each row's ``need`` highest keys, as ``argpartition`` does.
  Where keys tie at the cut and only some of them are chosen, which ``argpartition`` keeps is its own
  affair, so the kernel says so and the caller asks numpy for that call.

``snapshot.use_kernels`` installs them; ``tests/test_estimators.py`` checks them against numpy.
"""

from __future__ import annotations

import sys

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled estimate kernels need numba: pip install 'ginbots[fast]'") from exc

NUM_CARDS = 52
HAND_SIZE = 10


@njit(cache=True)
def numpy_sum(values, n):
    """``values[:n].sum()`` in numpy's order for a contiguous axis of up to 128 values: in order below
    eight, else eight partial sums, added in pairs, then the rest in order (also read by the hand utility)."""
    if n < 8:
        total = values[0] - values[0]  # a zero of the array's type
        for i in range(n):
            total += values[i]
        return total
    r0, r1, r2, r3 = values[0], values[1], values[2], values[3]
    r4, r5, r6, r7 = values[4], values[5], values[6], values[7]
    whole = n - n % 8
    for i in range(8, whole, 8):
        r0 += values[i]
        r1 += values[i + 1]
        r2 += values[i + 2]
        r3 += values[i + 3]
        r4 += values[i + 4]
        r5 += values[i + 5]
        r6 += values[i + 6]
        r7 += values[i + 7]
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(whole, n):
        total += values[i]
    return total


@njit(cache=True)
def _known_cards_into(raw, unknown, opp_known, out):
    for c in range(NUM_CARDS):
        if (unknown >> c) & 1 and not (opp_known >> c) & 1:
            out[c] = raw[c]
        else:
            out[c] = np.float32(1.0) if (opp_known >> c) & 1 else np.float32(0.0)


def with_known_cards_row(raw: np.ndarray, unknown: int, opp_known: int) -> np.ndarray:
    """``snapshot.with_known_cards`` for one row: (52,) float32."""
    out = np.empty(NUM_CARDS, dtype=np.float32)
    _known_cards_into(np.ascontiguousarray(raw, dtype=np.float32).reshape(NUM_CARDS), np.int64(unknown),
                      np.int64(opp_known), out)
    return out


@njit(cache=True)
def _normalise_into(raw, free_cards, opp_known, out):
    held_known = 0
    for c in range(NUM_CARDS):
        held_known += (opp_known >> c) & 1
    target = np.float64(HAND_SIZE - held_known)
    p = np.empty(NUM_CARDS)
    unknown = np.empty(NUM_CARDS, dtype=np.bool_)
    capped = np.zeros(NUM_CARDS, dtype=np.bool_)
    masked = np.empty(NUM_CARDS)
    for c in range(NUM_CARDS):
        unknown[c] = (free_cards >> c) & 1
        x = np.float64(raw[c])
        if x != x:  # numpy's maximum keeps a NaN
            p[c] = x
        else:
            p[c] = x if x > 1e-9 else 1e-9
        if not unknown[c]:
            p[c] = 0.0
    for _ in range(NUM_CARDS):
        n_capped = 0
        for c in range(NUM_CARDS):
            n_capped += capped[c]
            masked[c] = p[c] if unknown[c] and not capped[c] else 0.0
        want = target - n_capped
        total = numpy_sum(masked, NUM_CARDS)
        scale = want / total if total > 0 else 0.0
        over = False
        for c in range(NUM_CARDS):
            if unknown[c] and not capped[c]:
                p[c] = p[c] * scale
                if p[c] > 1.0:
                    over = True
                    capped[c] = True  # numpy marks every card over 1 in this pass, then stops or goes on
            else:
                p[c] = 1.0 if capped[c] else 0.0
        if not over:
            break
    for c in range(NUM_CARDS):
        if (opp_known >> c) & 1:
            out[c] = np.float32(1.0)
        else:
            out[c] = np.float32(p[c] if unknown[c] else 0.0)


def normalise_row(raw: np.ndarray, unknown: int, opp_known: int) -> np.ndarray:
    """``snapshot.normalise`` for one row: (52,) float32."""
    out = np.empty(NUM_CARDS, dtype=np.float32)
    _normalise_into(np.ascontiguousarray(raw).reshape(NUM_CARDS), np.int64(unknown & ~opp_known),
                    np.int64(opp_known), out)
    return out


@njit(cache=True)
def _select_masks_into(log_odds, gumbel, weights, need, opp_known, out):
    """Per row, the cards of the ``need`` highest keys (log odds + Gumbel draw) as a card set;
    False where keys tie at the cut and only some of them are chosen."""
    count, size = gumbel.shape
    top = np.empty(need)  # the row's highest keys so far, highest first
    for r in range(count):
        n = 0
        for i in range(size):
            key = log_odds[i] + gumbel[r, i]
            if n == need and key <= top[need - 1]:
                continue
            t = n if n < need else need - 1
            while t > 0 and top[t - 1] < key:
                top[t] = top[t - 1]
                t -= 1
            top[t] = key
            if n < need:
                n += 1
        cut = top[need - 1]
        above, level, hand = 0, 0, np.int64(0)
        for i in range(size):
            key = log_odds[i] + gumbel[r, i]
            if key > cut:
                above += 1
                hand |= weights[i]
            elif key == cut:
                level += 1
                hand |= weights[i]
        if above + level != need:  # a key equal to the cut is left out: argpartition's choice
            return False
        out[r] = hand | opp_known
    return True


def select_masks(log_odds: np.ndarray, gumbel: np.ndarray, pool: np.ndarray, need: int,
                 opp_known: int) -> np.ndarray | None:
    """``sample_masks``'s hands from its draws: (count,) int64, or None where keys tie at the cut."""
    out = np.empty(len(gumbel), dtype=np.int64)
    weights = np.left_shift(np.int64(1), pool.astype(np.int64))
    ok = _select_masks_into(np.ascontiguousarray(log_odds, dtype=np.float64), np.ascontiguousarray(gumbel),
                            weights, np.int64(need), np.int64(opp_known), out)
    return out if ok else None


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now, and install them in ``snapshot``."""
    from . import snapshot

    raw = np.linspace(0.0, 1.0, NUM_CARDS, dtype=np.float32)
    with_known_cards_row(raw, (1 << 40) - 1, 0b111)
    normalise_row(raw, (1 << 40) - 1, 0b111)
    select_masks(np.zeros(20), np.arange(40.0).reshape(2, 20), np.arange(20), 5, 0)
    snapshot.use_kernels(sys.modules[__name__])
