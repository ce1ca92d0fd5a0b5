"""The opponent filter's hot loops (``ginbots.search.opponent_model``) in compiled code (numba, extra ``fast``).

Each kernel gives exactly the numbers of its numpy twin in ``opponent_model``: integer arithmetic,
and the same IEEE operations where a float is made. Random numbers are drawn by the caller, in
numpy, so both paths take the same draws from the filter's generator. ``warm_up`` (called by
``ginbots.search.playouts.warm_up``) installs them with ``opponent_model.use_kernels``;
``tests/test_compiled_playouts.py`` checks them against the twins on many thousands of hands.
"""

from __future__ import annotations

import math
import sys

import numpy as np

try:
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("the compiled filter needs numba: pip install 'ginbots[fast]'") from exc

from .kernels import CARD_PTS, _popcount
from .opponent_model import _NO_OPTION, DECLINE, DISCARD, KEEP, TAKE, _log
from .playout_kernels import completes_meld, deadwood_and_melded


#: Per 13-bit set of ranks, the points of its highest rank (0 for none).
_TOP_POINTS = np.array([0] + [min(r.bit_length(), 10) for r in range(1, 1 << 13)], dtype=np.int64)
#: Per card value 0-10, the cards worth it (none worth 0).
_CARDS_WORTH = np.array([sum(1 << c for c in range(52) if CARD_PTS[c] == v) for v in range(11)], dtype=np.int64)


@njit(cache=True)
def _discard_policy(hand, card, banned):
    """(chance that minimum-deadwood play throws ``card`` from ``hand``, the deadwood it keeps)."""
    ways, kept = _discard_ways(hand, card, banned)
    return (1.0 / ways if ways else 0.0), kept


@njit(cache=True)
def _discard_ways(hand, card, banned):
    """(0 where minimum-deadwood play would not throw ``card`` from ``hand``, else the number of equally
    good throws it is one of; the deadwood it keeps)."""
    bit = np.int64(1) << card
    deadwood, melded = deadwood_and_melded(hand)
    if melded & bit:
        kept = deadwood_and_melded(hand & ~bit)[0]
    elif hand & bit:
        kept = deadwood - CARD_PTS[card]
    else:
        kept = deadwood
    unmelded = hand & ~melded
    if banned >= 0:
        unmelded &= ~(np.int64(1) << banned)
    # Throwing an unmelded card lowers the deadwood by its points: the best throw is the highest
    # card's, and a throw ties the one seen where its points are deadwood - kept. Counted with masks,
    # not a loop over the cards, whose length the data would make unpredictable.
    ranks = (unmelded | (unmelded >> 13) | (unmelded >> 26) | (unmelded >> 39)) & 8191
    best = deadwood - _TOP_POINTS[ranks] if ranks else _NO_OPTION
    worth = deadwood - kept
    ties = (1 if melded & bit else 0) + (_popcount(unmelded & _CARDS_WORTH[worth]) if 1 <= worth <= 10 else 0)
    return (max(1, ties) if kept <= best else 0), kept


@njit(cache=True)
def _discard_likelihood_into(hands, card, banned, policy, after):
    for i in range(len(hands)):
        policy[i], after[i] = _discard_policy(np.int64(hands[i]), card, banned)


def discard_likelihood(hands: np.ndarray, card: int, banned: int) -> tuple[np.ndarray, np.ndarray]:
    """``OpponentFilter._discard_likelihood``: (chance that minimum-deadwood play throws ``card`` from
    each hand, the deadwood it keeps)."""
    hands = np.ascontiguousarray(hands, dtype=np.uint64)
    policy = np.empty(len(hands), dtype=np.float64)
    after = np.empty(len(hands), dtype=np.int64)
    _discard_likelihood_into(hands, np.int64(card), np.int64(banned), policy, after)
    return policy, after


@njit(cache=True)
def _pick_bits_into(masks, uniforms, out):
    for i in range(len(masks)):
        mask = np.int64(masks[i])
        count = _popcount(mask)
        if count == 0:
            out[i] = 0
            continue
        # u < 1 and count <= 52, so u * count rounds below count: k names one of the mask's bits.
        k = np.int64(math.floor(uniforms[i] * count))
        # the k-th lowest set bit (from 0), by halving: below each half's cards, or above them
        position = np.int64(0)
        for width in (32, 16, 8, 4, 2, 1):
            below = _popcount(mask & ((np.int64(1) << width) - 1))
            above = np.int64(k >= below)  # 0 or 1, without a branch the data would make unpredictable
            k -= below * above
            mask >>= width * above
            position += width * above
        out[i] = np.uint64(1) << np.uint64(position)


def pick_bits(masks: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """``opponent_model._pick_bit`` with its uniforms drawn: the (floor(u * count) + 1)-th set bit of each mask."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    out = np.empty(len(masks), dtype=np.uint64)
    _pick_bits_into(masks, np.ascontiguousarray(uniforms, dtype=np.float64), out)
    return out


@njit(cache=True)
def _completes_meld_into(card, hands, out):
    for i in range(len(hands)):
        out[i] = completes_meld(card, np.int64(hands[i]))


def completes_meld_batch(card: int, hands: np.ndarray) -> np.ndarray:
    """``opponent_model.completes_meld_batch``: whether ``card`` would join a meld in each hand (bool)."""
    out = np.empty(len(hands), dtype=np.bool_)
    _completes_meld_into(np.int64(card), np.ascontiguousarray(hands, dtype=np.uint64), out)
    return out


@njit(cache=True)
def _popcounts_into(masks, out):
    for i in range(len(masks)):
        out[i] = _popcount(np.int64(masks[i]))


def popcounts(masks: np.ndarray) -> np.ndarray:
    """Cards in each mask, as int64 (``_bit_matrix(masks).sum(axis=1)``)."""
    masks = np.ascontiguousarray(masks, dtype=np.uint64)
    out = np.empty(len(masks), dtype=np.int64)
    _popcounts_into(masks, out)
    return out


#: Columns of a sweep's table of log chances: the raw policy 0, or 1 / n for n equally good throws (at most
#: one per card held, 11, and the thrown card's own melding).
WAYS = 53


def log_chance_table(rhos: np.ndarray, plains: np.ndarray, slip: float) -> np.ndarray:
    """(events, WAYS): the log mixture chance of each event's action for each value the minimum-deadwood
    policy can take there (0, then 1 / n), as ``OpponentFilter._policy`` mixes it; numpy's logarithm."""
    raw = np.zeros(WAYS)
    raw[1:] = 1.0 / np.arange(1, WAYS)
    policy = (1 - slip) * raw[None, :] + slip * plains[:, None]
    return _log(rhos[:, None] * policy + (1 - rhos[:, None]) * plains[:, None])


@njit(cache=True)
def _sweep_proposals_into(kinds, cards, banned, table, history, logmix, old, new, movers, knock_at, events, hands,
                          swapped, value, delta, stats):
    # A "keep" event's 10 cards are, hand for hand, the 11 of the discard event before it less the
    # card thrown, and the discard's policy already solved that hand's deadwood ("kept", exact): it is
    # reused where the two swapped hands show that relation, and solved again elsewhere.
    thrown_from = np.zeros(history.shape[1], dtype=np.int64)  # the last discard event's swapped hand
    thrown_kept = np.zeros(history.shape[1], dtype=np.int64)  # ... and the deadwood it kept
    thrown_at = np.full(history.shape[1], -1, dtype=np.int64)  # ... and that event's index
    count = 0
    for e in range(history.shape[0]):
        kind, card = kinds[e], cards[e]
        for i in range(history.shape[1]):
            hand, out = np.int64(history[e, i]), np.int64(old[i])
            if not movers[i] or not hand & out:
                continue
            hand = (hand & ~out) | np.int64(new[i])
            if kind == DECLINE:
                ways = 0 if completes_meld(card, hand) else 1
            elif kind == TAKE:
                ways = 1 if completes_meld(card, hand) else 0
            elif kind == KEEP:
                if thrown_at[i] == e - 1 and hand == thrown_from[i] & ~(np.int64(1) << cards[e - 1]):
                    deadwood = thrown_kept[i]
                    stats[1] += 1
                else:
                    deadwood = deadwood_and_melded(hand)[0]
                ways = 1 if deadwood > knock_at else 0
            else:
                ways, kept = _discard_ways(hand, card, banned[e])
                thrown_from[i], thrown_kept[i], thrown_at[i] = hand, kept, e
            chance = table[e, ways]
            delta[i] += chance - logmix[e, i]  # per hand in event order, as the numpy sweep adds them
            events[count], hands[count] = e, i
            swapped[count] = np.uint64(hand)
            value[count] = chance
            count += 1
    stats[0] += count
    return count


#: Proposals scored by ``sweep_proposals`` in this process, and of them "keep" events whose deadwood came
#: from the discard before them (read by the tests).
PROPOSAL_STATS = np.zeros(2, dtype=np.int64)


def sweep_proposals(kinds: np.ndarray, cards: np.ndarray, banned: np.ndarray, table: np.ndarray,
                    history: np.ndarray, logmix: np.ndarray, old: np.ndarray, new: np.ndarray, movers: np.ndarray,
                    knock_at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One Metropolis sweep's proposals, scored (``OpponentFilter._sweep``'s, in one pass): for each (event,
    hand) where the hand then held the card ``old`` swaps out, in event order, the event, the hand's index,
    the hand with ``new`` in its place and the log chance of the event's action with it (from ``table``,
    ``log_chance_table``'s); and per hand the sum of its proposals' log chances less the current ones."""
    size = history.size
    events, hands = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    swapped, value = np.empty(size, dtype=np.uint64), np.empty(size)
    delta = np.zeros(history.shape[1])
    count = _sweep_proposals_into(kinds, cards, banned, table, history, logmix, old, new, movers, np.int64(knock_at),
                                  events, hands, swapped, value, delta, PROPOSAL_STATS)
    return events[:count], hands[:count], swapped[:count], value[:count], delta


@njit(cache=True)
def apply_moves(events, hands, accept, swapped, value, history, logmix):
    """Write the accepted proposals into every event's hands and log chances."""
    for k in range(len(events)):
        if accept[hands[k]]:
            history[events[k], hands[k]] = swapped[k]
            logmix[events[k], hands[k]] = value[k]


def warm_up() -> None:
    """Compile (or load from numba's cache) every kernel now, and install them in ``opponent_model``."""
    from . import opponent_model

    some = np.array([0x1FFF | 1 << 30, 0x7], dtype=np.uint64)
    discard_likelihood(some, 0, 1)
    pick_bits(some, np.array([0.5, 0.9]))
    popcounts(some)
    completes_meld_batch(1, some)
    history = np.array([[0x1FFF], [0x7]], dtype=np.uint64)
    logmix = np.zeros(history.shape)
    table = log_chance_table(np.array([0.5, 0.5]), np.array([0.5, 0.1]), 0.05)
    for kind in (DECLINE, TAKE, KEEP, DISCARD):
        events, hands, swapped, value, delta = sweep_proposals(
            np.array([kind, DISCARD]), np.array([0, 1]), np.array([-1, -1]), table, history, logmix,
            np.array([1], dtype=np.uint64), np.array([1 << 20], dtype=np.uint64), np.array([True]), 10)
    apply_moves(events, hands, delta < 1, swapped, value, history, logmix)
    opponent_model.use_kernels(sys.modules[__name__])
