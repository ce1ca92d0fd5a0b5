"""Network inputs: Shankar's plug-rule array (document 001), the simple NN's
state features (document 001) and the eight-hyperparameter bot's four 13x4
turn matrices (document 002).  Shared by training and play, so both see the
same encoding."""

from __future__ import annotations

import numpy as np

from ginbots.game.cards import MELD_PAIRS, NUM_CARDS, NUM_RANKS, card, cards_of, is_run

from .snapshot import MAX_TURN, Snapshot, bits

#: Document 001's ambi-superpermutation on four suits: every order of the four
#: suit rows appears, forwards or backwards, among 17 consecutive rows.
AMBI_SUPERPERMUTATION = "12341231423124312"
ASP_ROWS = np.array([int(ch) - 1 for ch in AMBI_SUPERPERMUTATION])  # suits in our C, H, S, D order

OWN, SAFE, UNKNOWN, HELD = -2, -1, 0, 1  # plug-rule array values (document 001)


#: The other two cards of each 3-card run containing a card.
_RUN_PARTNERS = [[tuple(cards_of(p)) for p in MELD_PAIRS[c] if is_run(p | 1 << c)] for c in range(NUM_CARDS)]
_SAME_RANK = [[card(c % NUM_RANKS, s) for s in range(4) if s != c // NUM_RANKS] for c in range(NUM_CARDS)]


def plug_array(hand: int, out: int, opp_known: int, opp_discards: int) -> np.ndarray:
    """Shankar's 4x13 array (suit rows, rank columns) for one observation.

    ``out``: cards known not to be in the opponent's hand (ours included);
    ``opp_known``: cards it surely holds; ``opp_discards``: every card it discarded.
    """
    a = np.zeros(NUM_CARDS, dtype=np.int8)
    possible = ~out & ~opp_known  # unknown cards
    discarded_ranks = {c % NUM_RANKS for c in range(NUM_CARDS) if opp_discards >> c & 1}
    for c in range(NUM_CARDS):
        bit = 1 << c
        if hand & bit:
            a[c] = OWN
        elif out & bit:
            a[c] = SAFE
        elif opp_known & bit:
            a[c] = HELD
    for c in range(NUM_CARDS):
        if not possible >> c & 1:
            continue
        # Safe: a same-rank card was discarded, or two same-rank cards are out ...
        rank_dead = c % NUM_RANKS in discarded_ranks or sum(out >> o & 1 for o in _SAME_RANK[c]) >= 2
        # ... and every run through the card is broken by a card that is out.
        if rank_dead and all(out >> b & 1 or out >> d & 1 for b, d in _RUN_PARTNERS[c]):
            a[c] = SAFE
    for b in range(NUM_CARDS):  # a picked-up card is assumed to sit in the only kind of meld it can make
        if not opp_known >> b & 1:
            continue
        set_cards = [o for o in _SAME_RANK[b] if not out >> o & 1]
        runs = [(x, y) for x, y in _RUN_PARTNERS[b] if not out >> x & 1 and not out >> y & 1]
        if len(set_cards) >= 2 and not runs:
            partners = set_cards
        elif runs and len(set_cards) < 2:
            partners = [c for pair in runs for c in pair]
        else:
            continue
        for c in partners:
            if possible >> c & 1:
                a[c] = HELD
    return a.reshape(4, NUM_RANKS)


def shankar_input(snap: Snapshot) -> np.ndarray:
    """(B, 1, 17, 13) float32: plug-rule arrays with rows in ambi-superpermutation order."""
    out = ~(snap.unknown | snap.opp_known) & ((1 << NUM_CARDS) - 1)
    discards = (snap.discarded > 0).astype(np.int64) @ (np.int64(1) << np.arange(NUM_CARDS, dtype=np.int64))
    arrays = np.stack([plug_array(int(h), int(o), int(k), int(d))
                       for h, o, k, d in zip(snap.hand, out, snap.opp_known, discards)])
    return arrays[:, ASP_ROWS, :][:, None].astype(np.float32)


def simple_nn_input(snap: Snapshot, previous: np.ndarray) -> np.ndarray:
    """(B, 343) float32: our hand, the pile, the opponent's pickups, discards and
    declines (52 each), the previous estimate (52) and the turn one-hot (31)."""
    turn = np.zeros((len(snap), MAX_TURN + 1), dtype=np.float32)
    turn[np.arange(len(snap)), np.minimum(snap.opp_turns, MAX_TURN)] = 1.0
    return np.concatenate([
        bits(snap.hand), bits(snap.pile), (snap.picked > 0).astype(np.float32),
        (snap.discarded > 0).astype(np.float32), (snap.declined > 0).astype(np.float32),
        np.asarray(previous, dtype=np.float32), turn], axis=1)


def _rank_major(rows: np.ndarray) -> np.ndarray:
    """(B, 52) in our suit-major card order -> (B, 52) as a flattened 13x4 (rank, suit) matrix."""
    return rows.reshape(-1, 4, NUM_RANKS).transpose(0, 2, 1).reshape(-1, NUM_CARDS)


def mlp8_input(snap: Snapshot) -> np.ndarray:
    """(B, 208) float32: document 002's four 13x4 matrices (hand +1 / pile -1; the
    opponent's pickups, declines and discards marked with its turn number)."""
    own = bits(snap.hand) - bits(snap.pile)
    return np.concatenate([_rank_major(m.astype(np.float32)) for m in
                           (own, snap.picked, snap.declined, snap.discarded)], axis=1)
