"""A learned value of the position a discard leaves, from what the discarding seat sees.

Issue 37's learned evaluation. The champion's playouts continue every world on Simple's rule,
which undervalues its own hand building, so it searches knocks and draws but not discards. This
network is trained instead on the champion's own games (``ginbots.training.afterstate_data``):
each row is the position right after one of its discards (its ten cards, the card it threw on
top of the pile, what it knows of the opponent, its opponent model's chance that the opponent
holds each card) and the label is the signed points that hand then paid it, however the game
went on, so the value is that of its real continuation, knocks and draws included, against the
opponents it met. The champion's ``afterstate_weight`` adds the network's differences between
candidate discards to the heuristic's discard values.

The encoding lives here, once, for play and for training.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import numpy as np

from ginbots.estimators.snapshot import bits
from ginbots.estimators.weights import OnnxNet, find_weights
from ginbots.game.cards import NUM_CARDS, NUM_RANKS, NUM_SUITS, mask_of
from ginbots.game.knowledge import Knowledge
from ginbots.game.melds_batch import deadwood_and_melded_batch

#: The shipped networks: the value of the position a discard leaves (``weights/afterstate_value.onnx``),
#: the same trained only on the positions the champion played on from (it did not knock), and the
#: value of knocking now from the same position (trained on exact knock scores, ``knock_data``).
AFTERSTATE_NET = "afterstate_value.onnx"
PLAY_ON_NET = "afterstate_play_on.onnx"
KNOCK_NET = "afterstate_knock.onnx"
#: Input width: nine 52-card planes and four scalars (``afterstate_input``).
CARD_PLANES = 9
AFTERSTATE_WIDTH = CARD_PLANES * NUM_CARDS + 4


def view_masks(k: Knowledge) -> tuple[int, int, int, int, int]:
    """The card sets of a seat's view the network reads (before its discard): the discard pile,
    the cards the opponent surely holds, and the cards it took, declined and threw."""
    return (mask_of(k.pile), k.opp_known, mask_of(c for c, _ in k.opp_picked),
            mask_of(c for c, _ in k.opp_declined), mask_of(c for c, _ in k.opp_discards))


def afterstate_input(after: np.ndarray, thrown: np.ndarray, pile: np.ndarray, opp_known: np.ndarray,
                     picked: np.ndarray, declined: np.ndarray, opp_discards: np.ndarray,
                     holds: np.ndarray, stock: np.ndarray, opp_turns: np.ndarray) -> np.ndarray:
    """(B, AFTERSTATE_WIDTH) float32 rows: our hand after the discard, its melded cards, the card
    thrown, the pile under it, the opponent's sure, taken, declined and thrown cards, the opponent
    model's holding chances; deadwood / 50, stock / 31, opponent turns / 30 and whether the hand
    could knock. Card-set arguments are (B,) ints, ``holds`` (B, 52)."""
    after = np.asarray(after, dtype=np.uint64)
    deadwood, melded = deadwood_and_melded_batch(after)
    thrown = np.asarray(thrown, dtype=np.int64)
    top = np.zeros((len(after), NUM_CARDS), dtype=np.float32)
    top[np.arange(len(after)), thrown] = 1.0
    planes = [bits(after), bits(melded), top, bits(pile), bits(opp_known), bits(picked), bits(declined),
              bits(opp_discards), np.asarray(holds, dtype=np.float32).reshape(len(after), NUM_CARDS)]
    scalars = np.column_stack([deadwood / 50.0, np.asarray(stock) / 31.0, np.asarray(opp_turns) / 30.0,
                               deadwood <= 10]).astype(np.float32)
    return np.concatenate(planes + [scalars], axis=1)


def candidate_input(k: Knowledge, candidates: list[int], holds: np.ndarray) -> np.ndarray:
    """The rows of the positions each of ``candidates`` would leave, for one live seat."""
    n = len(candidates)
    pile, opp_known, picked, declined, thrown_by_opp = view_masks(k)
    after = np.array([k.hand & ~(1 << c) for c in candidates], dtype=np.uint64)
    same = lambda value: np.full(n, value, dtype=np.int64)  # noqa: E731 (one column repeated)
    return afterstate_input(after, np.array(candidates), same(pile), same(opp_known), same(picked),
                            same(declined), same(thrown_by_opp), np.broadcast_to(holds, (n, NUM_CARDS)),
                            same(k.stock_size), same(k.opp_turns))


def position_input(k: Knowledge, holds: np.ndarray) -> np.ndarray:
    """The row of a seat's position right after its own discard (the card on top of the pile)."""
    pile, opp_known, picked, declined, thrown_by_opp = view_masks(k)
    top = k.pile[-1]
    one = lambda value: np.array([value], dtype=np.int64)  # noqa: E731
    return afterstate_input(np.array([k.hand], dtype=np.uint64), one(top), one(pile & ~(1 << top)), one(opp_known),
                            one(picked), one(declined), one(thrown_by_opp), np.asarray(holds)[None, :],
                            one(k.stock_size), one(k.opp_turns))


class AfterstateValue:
    """A frozen afterstate network: rows in, predicted signed points of the hand out."""

    def __init__(self, path: str = "") -> None:
        self.net = OnnxNet(find_weights(path or AFTERSTATE_NET))

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return self.net(rows).reshape(-1)


@lru_cache(maxsize=None)
def shared_afterstate_value(name: str = AFTERSTATE_NET) -> AfterstateValue:
    """One loaded network per process (the first ``name`` in ``weights_dirs()``), shared by every seat."""
    return AfterstateValue(name)


def play_on_value(k: Knowledge, holds: np.ndarray) -> float:
    """Predicted points of playing on (not knocking) from a seat's position after its discard."""
    return float(shared_afterstate_value(PLAY_ON_NET)(position_input(k, holds))[0])


def knock_now_value(k: Knowledge, holds: np.ndarray) -> float:
    """Predicted points of knocking now from a seat's position after its discard."""
    return float(shared_afterstate_value(KNOCK_NET)(position_input(k, holds))[0])


def draw_values(k: Knowledge, card: int, stock_cards: list[int], in_stock: np.ndarray, holds: np.ndarray) -> float:
    """Predicted points of taking the face-up ``card`` less those of drawing from the stock, each with
    the discard after it that the network values most: the stock's mean weighted by ``in_stock`` (the
    chance each unseen card lies in the stock). One batched call for every (draw, discard) pair."""
    pile, opp_known, picked, declined, thrown_by_opp = view_masks(k)
    hands, thrown, piles, stocks, owners = [], [], [], [], []
    for owner, drawn in enumerate([card, *stock_cards]):
        taken = k.hand | 1 << drawn
        for c in range(NUM_CARDS):
            if taken >> c & 1 and c != card:  # the face-up card may not be thrown back at once
                hands.append(taken & ~(1 << c))
                thrown.append(c)
                piles.append(pile & ~(1 << card) if owner == 0 else pile)
                stocks.append(k.stock_size if owner == 0 else k.stock_size - 1)
                owners.append(owner)
    n = len(hands)
    same = lambda value: np.full(n, value, dtype=np.int64)  # noqa: E731 (one column repeated)
    rows = afterstate_input(np.array(hands, dtype=np.uint64), np.array(thrown), np.array(piles, dtype=np.int64),
                            same(opp_known), same(picked), same(declined), same(thrown_by_opp),
                            np.broadcast_to(holds, (n, NUM_CARDS)), np.array(stocks), same(k.opp_turns))
    values = shared_afterstate_value()(rows).astype(np.float64)
    best = np.full(len(stock_cards) + 1, -np.inf)
    np.maximum.at(best, np.array(owners), values)
    stock = float((best[1:] * in_stock).sum() / max(float(in_stock.sum()), 1e-9))
    return float(best[0]) - stock


#: Every order of the four suits, the identity first (``itertools.permutations``' order).
SUIT_ORDERS = tuple(permutations(range(NUM_SUITS)))


@lru_cache(maxsize=None)
def suit_columns(count: int) -> np.ndarray:
    """(count, AFTERSTATE_WIDTH) column indices: row ``i`` re-reads a row with its suits in the
    ``i``-th of ``SUIT_ORDERS`` (each of the nine card planes alike; the scalars, which no suit
    order changes, stay)."""
    cards = np.arange(NUM_CARDS)
    columns = []
    for order in SUIT_ORDERS[:count]:
        moved = np.array(order)[cards // NUM_RANKS] * NUM_RANKS + cards % NUM_RANKS
        planes = [plane * NUM_CARDS + moved for plane in range(CARD_PLANES)]
        columns.append(np.concatenate(planes + [np.arange(CARD_PLANES * NUM_CARDS, AFTERSTATE_WIDTH)]))
    return np.array(columns)


def afterstate_values(k: Knowledge, candidates: list[int], holds: np.ndarray, suit_orders: int = 1) -> np.ndarray:
    """Predicted points of the position each discard leaves, centred on their mean (only the
    differences between candidates count). ``suit_orders`` above 1: the mean of the network's
    values over that many orders of the suits, one batched call (the rules treat suits alike and
    the network was trained with them shuffled, but it is not exactly indifferent to them)."""
    values = suit_mean_values(candidate_input(k, candidates, holds), suit_orders)
    return values - values.mean()


def suit_mean_values(rows: np.ndarray, suit_orders: int = 1) -> np.ndarray:
    """The shipped network's values of ``rows``, each the mean over the first ``suit_orders`` of
    ``SUIT_ORDERS`` (one batched call; 1: the rows as they are)."""
    if suit_orders > 1:  # (orders x rows) rows, each order's block in the rows' order
        rows = rows[:, suit_columns(suit_orders)].transpose(1, 0, 2).reshape(-1, AFTERSTATE_WIDTH)
    return shared_afterstate_value()(rows).astype(np.float64).reshape(suit_orders, -1).mean(axis=0)
