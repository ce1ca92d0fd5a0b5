"""The compiled self-play core: single hands of Simple and RP under the exact EAAI rules.

The hand loop of ``engine.play_game`` (first-upcard protocol, stock down to two
cards, the turn cap), Simple's and RP's decisions (``players.baselines``), the
random optimal meld set each declares, the engine's greedy layoffs and the
challenge's scoring, in numba. Hands are 52-bit ints as everywhere in the
bundle; the random choices come from ``stream.StreamRandom``. Best-of-N
selection for document 000's Random-N datasets runs here; the chosen sample is
then replayed through the engine to record its rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ginbots.game.cards import GIN_BONUS, MAX_DEADWOOD, UNDERCUT_BONUS

from .kernels import (
    _U,
    MAX_MELDS,
    MAX_OPTIONS,
    MELD_PAIR_COUNT,
    MELD_PAIR_MASKS,
    _low_index,
    _points,
    _randbelow,
    best_meld_sets,
    derive_seed3,
    discard_deadwoods,
    is_meld,
    java_deal,
    resample_stock,
)

#: Outcome columns of one hand.
RESULT, KNOCKER, WINNER, POINTS, KNOCKER_DEADWOOD, OPPONENT_DEADWOOD, TURNS, DRAWS = range(8)
OUTCOME_WIDTH = 8
#: Result codes (``HandResult.result`` of the engine).
RESULT_NAMES = ("cancelled", "knock", "gin", "undercut")
#: Event codes of a logged hand: (code, a, b).
EV_OFFER, EV_DRAW, EV_DISCARD, EV_MELD, EV_LAYOFF = 1, 2, 3, 4, 5


# --- Simple and RP ----------------------------------------------------------------------------

class Workspace:
    """Scratch arrays of one batch of hands, allocated once (numba takes them as arguments)."""

    def __init__(self, log_rows: int = 0) -> None:
        self.state = np.zeros(8, dtype=np.int64)  # hands, last face-up card offered, last draw, per seat
        self.used = np.zeros((2, 52), dtype=np.int64)  # per seat and card: partners of its used pairs
        self.cands = np.zeros(64, dtype=np.int64)
        self.dws = np.zeros(52, dtype=np.int64)
        self.options = np.zeros((MAX_OPTIONS, MAX_MELDS), dtype=np.int64)
        self.lens = np.zeros(MAX_OPTIONS, dtype=np.int64)
        self.pile = np.zeros(52, dtype=np.int64)
        self.melds = np.zeros(MAX_MELDS, dtype=np.int64)
        self.log = np.zeros((max(log_rows, 1), 3), dtype=np.int64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (self.state, self.used, self.cands, self.dws, self.options, self.lens, self.pile, self.melds,
                self.log)


@njit(cache=True)
def _takes(hand, card):
    """Simple's draw rule: the face-up card makes a 3-card meld with two cards of the hand."""
    for i in range(MELD_PAIR_COUNT[card]):
        pair = MELD_PAIR_MASKS[card, i]
        if hand & pair == pair:
            return True
    return False


@njit(cache=True)
def _simple_discard(seat, state, used, cands, streams, dws):
    """Simple's discard: least deadwood after it, random among ties, never the face-up card just
    taken nor a (drawn, discarded) pair this seat already made this hand. ``dws`` holds
    ``discard_deadwoods`` of the hand; returns (card, deadwood after it)."""
    hand, face_up, drawn = state[seat], state[2 + seat], state[4 + seat]
    skip = drawn if drawn == face_up else -1
    drawn_bit = np.int64(1) << drawn
    forbidden = used[seat, drawn]
    best = 1 << 30
    n = 0
    rest = hand
    while rest:
        card = _low_index(rest)
        rest &= rest - 1
        bit = np.int64(1) << card
        if card == skip:
            continue
        dw = dws[card]
        if dw > best or forbidden & bit:
            continue
        if dw < best:
            best = dw
            cands[0] = card
            n = 1
        else:
            cands[n] = card
            n += 1
    if n == 0:
        raise ValueError("Simple has no discard left")
    choice = cands[0] if n == 1 else cands[_randbelow(streams, seat, n)]
    used[seat, drawn] |= np.int64(1) << choice
    used[seat, choice] |= drawn_bit
    return choice


@njit(cache=True)
def _rp_discard(seat, state, used, cands, streams, dws, now):
    """RP's discard: a uniformly random legal card whose discard lowers the deadwood (``now``), else Simple's."""
    hand, face_up, drawn = state[seat], state[2 + seat], state[4 + seat]
    legal = hand & ~(np.int64(1) << drawn) if drawn == face_up else hand
    n = 0
    rest = legal
    while rest:
        card = _low_index(rest)
        rest &= rest - 1
        if dws[card] < now:
            cands[n] = card
            n += 1
    if n == 0:
        return _simple_discard(seat, state, used, cands, streams, dws)
    return cands[_randbelow(streams, seat, n)]


@njit(cache=True)
def _random_best_melds(hand, seat, streams, options, lens):
    """Row of ``options`` holding the uniformly random optimal meld set Simple declares."""
    count = best_meld_sets(hand, options, lens)
    return 0 if count == 1 else _randbelow(streams, seat, count)


@njit(cache=True)
def _log(log, n, code, a, b):
    if n < log.shape[0]:
        log[n, 0] = code
        log[n, 1] = a
        log[n, 2] = b
    return n + 1


@njit(cache=True)
def play_hand(deck, starter, kinds, streams, max_turns, out, state, used, cands, dws, options, lens, pile,
              melds, log, log_on):
    """Play one hand of ``deck`` (deal order) into ``out``; returns the number of logged events.

    ``kinds``: 0 Simple, 1 RP per seat; ``streams``: each seat's random stream state (advanced).
    One long function on purpose: it is the hot loop of self-play and follows the engine's hand loop
    phase for phase, so the hand-for-hand equality tests can be read against it side by side.
    """
    state[0] = 0
    state[1] = 0
    for i in range(20):
        state[i & 1] |= np.int64(1) << deck[i]
    state[2] = state[3] = state[4] = state[5] = -1
    for card in range(52):
        used[0, card] = 0
        used[1, card] = 0
    first_up = deck[20]
    pile[0] = first_up
    pile_n = 1
    top = 21
    cur = starter
    turns = 0
    draws = 0
    knocked = False
    n_log = 0
    row = 0
    while top < 50:
        if turns >= max_turns:
            break
        face_up = pile[pile_n - 1]
        take = False
        if not (turns == 2 and face_up == first_up):
            state[2 + cur] = face_up
            take = _takes(state[cur], face_up)
            if log_on:
                n_log = _log(log, n_log, EV_OFFER, cur, face_up * 2 + take)
            if not take and turns < 2 and face_up == first_up:
                turns += 1
                cur ^= 1
                continue
        if take:
            pile_n -= 1
            drawn = pile[pile_n]
        else:
            drawn = deck[top]
            top += 1
        draws += 1
        state[cur] |= np.int64(1) << drawn
        state[4 + cur] = drawn
        if log_on:
            n_log = _log(log, n_log, EV_DRAW, cur, drawn)
        now = discard_deadwoods(state[cur], dws)
        if kinds[cur] == 1:
            card = _rp_discard(cur, state, used, cands, streams, dws, now)
        else:
            card = _simple_discard(cur, state, used, cands, streams, dws)
        state[cur] ^= np.int64(1) << card
        pile[pile_n] = card
        pile_n += 1
        if log_on:
            n_log = _log(log, n_log, EV_DISCARD, cur, card)
        if dws[card] <= MAX_DEADWOOD:
            knocked = True
            row = _random_best_melds(state[cur], cur, streams, options, lens)
            break
        turns += 1
        cur ^= 1
    for i in range(OUTCOME_WIDTH):
        out[i] = 0
    out[TURNS] = turns + knocked
    out[DRAWS] = draws
    out[KNOCKER] = out[WINNER] = -1
    if not knocked:
        return n_log
    knocker, opponent = cur, cur ^ 1
    n_melds = lens[row]
    covered = 0
    for t in range(n_melds):
        melds[t] = options[row, t]
        covered |= melds[t]
        if log_on:
            n_log = _log(log, n_log, EV_MELD, knocker, melds[t])
    knocker_dw = _points(state[knocker] & ~covered)
    row = _random_best_melds(state[opponent], opponent, streams, options, lens)
    covered = 0
    for t in range(lens[row]):
        covered |= options[row, t]
        if log_on:
            n_log = _log(log, n_log, EV_MELD, opponent, options[row, t])
    unmelded = state[opponent] & ~covered
    if knocker_dw > 0:
        found = True
        while found:
            found = False
            rest = unmelded
            while rest and not found:
                low = rest & -rest
                rest ^= low
                for t in range(n_melds):
                    if is_meld(melds[t] | low):
                        if log_on:
                            n_log = _log(log, n_log, EV_LAYOFF, _low_index(low), melds[t])
                        melds[t] |= low
                        unmelded ^= low
                        found = True
                        break
    opponent_dw = _points(unmelded)
    out[KNOCKER] = knocker
    out[KNOCKER_DEADWOOD] = knocker_dw
    out[OPPONENT_DEADWOOD] = opponent_dw
    if knocker_dw == 0:
        out[RESULT], out[WINNER], out[POINTS] = 2, knocker, GIN_BONUS + opponent_dw
    elif knocker_dw < opponent_dw:
        out[RESULT], out[WINNER], out[POINTS] = 1, knocker, opponent_dw - knocker_dw
    else:
        out[RESULT], out[WINNER], out[POINTS] = 3, opponent, UNDERCUT_BONUS + knocker_dw - opponent_dw
    return n_log


# --- batches ----------------------------------------------------------------------------------

@njit(cache=True)
def _sample(deal_seed, k, stock, deck0, deck, streams):
    for i in range(52):
        deck[i] = deck0[i]
    if stock:
        resample_stock(deck, deal_seed, k)
    streams[0] = _U(derive_seed3(deal_seed, k, 0))
    streams[1] = _U(derive_seed3(deal_seed, k, 1))


@njit(cache=True)
def _play_deals(deal_seeds, kinds, max_turns, outcomes, state, used, cands, dws, options, lens, pile,
                melds, log):
    deck0 = np.zeros(52, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    streams = np.zeros(2, dtype=np.uint64)
    for i in range(len(deal_seeds)):
        starter = java_deal(deal_seeds[i], deck0)
        _sample(deal_seeds[i], 0, False, deck0, deck, streams)
        play_hand(deck, starter, kinds[i], streams, max_turns, outcomes[i], state, used, cands, dws, options, lens,
                  pile, melds, log, False)


@njit(cache=True)
def _best_of(deal_seeds, samples, rp_seats, stock, max_turns, best_k, best_score, worst_k, worst_score, state,
             used, cands, dws, options, lens, pile, melds, log):
    deck0 = np.zeros(52, dtype=np.int64)
    deck = np.zeros(52, dtype=np.int64)
    streams = np.zeros(2, dtype=np.uint64)
    kinds = np.zeros(2, dtype=np.int64)
    out = np.zeros(OUTCOME_WIDTH, dtype=np.int64)
    for i in range(len(deal_seeds)):
        starter = java_deal(deal_seeds[i], deck0)
        rp = rp_seats[i]
        kinds[0] = 1 if rp == 0 else 0
        kinds[1] = 1 if rp == 1 else 0
        best = -(1 << 30)
        worst = 1 << 30
        for k in range(samples):
            _sample(deal_seeds[i], k, stock, deck0, deck, streams)
            play_hand(deck, starter, kinds, streams, max_turns, out, state, used, cands, dws, options, lens,
                      pile, melds, log, False)
            score = 0
            if out[WINNER] >= 0:
                score = out[POINTS] if out[WINNER] == rp else -out[POINTS]
            if score > best:
                best = score
                best_k[i] = k
            if score < worst:
                worst = score
                worst_k[i] = k
        best_score[i] = best
        worst_score[i] = worst


MAX_TURNS = 1000


def play_deals(deal_seeds: np.ndarray, kinds: tuple[int, int] | np.ndarray = (0, 0),
               max_turns: int = MAX_TURNS) -> np.ndarray:
    """Sample 0 of each deal (the engine's own deal and seat streams): an (n, 8) outcome array.

    ``kinds``: one (seat 0, seat 1) pair for every deal, or an (n, 2) array of them.
    """
    seeds = np.ascontiguousarray(deal_seeds, dtype=np.int64)
    outcomes = np.zeros((len(seeds), OUTCOME_WIDTH), dtype=np.int64)
    per_deal = np.ascontiguousarray(np.broadcast_to(np.asarray(kinds, dtype=np.int64), (len(seeds), 2)))
    _play_deals(seeds, per_deal, max_turns, outcomes, *Workspace().arrays())
    return outcomes


def best_of(deal_seeds: np.ndarray, samples: int, rp_seats: np.ndarray, resample: str = "deck",
            max_turns: int = MAX_TURNS) -> tuple[np.ndarray, np.ndarray]:
    """(best sample index, its score for the RP seat) of each deal over ``samples`` samples.

    The first sample reaching the best score wins, as in ``offense.record_deal``; a seat of -1
    plays Simple on both sides.
    """
    best_k, best_score, _, _ = extremes_of(deal_seeds, samples, rp_seats, resample, max_turns)
    return best_k, best_score


def extremes_of(deal_seeds: np.ndarray, samples: int, rp_seats: np.ndarray, resample: str = "deck",
                max_turns: int = MAX_TURNS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(best sample, its score, worst sample, its score) of each deal over ``samples`` samples, for
    the RP seat; the first sample reaching each extreme wins."""
    if resample not in ("deck", "stock"):
        raise ValueError(f"resample must be 'deck' or 'stock', got {resample!r}")
    seeds = np.ascontiguousarray(deal_seeds, dtype=np.int64)
    best_k, best_score, worst_k, worst_score = (np.zeros(len(seeds), dtype=np.int64) for _ in range(4))
    _best_of(seeds, samples, np.ascontiguousarray(rp_seats, dtype=np.int64), resample == "stock", max_turns,
             best_k, best_score, worst_k, worst_score, *Workspace().arrays())
    return best_k, best_score, worst_k, worst_score


def play_logged(deck: list[int], starter: int, kinds: tuple[int, int], seeds: tuple[int, int],
                max_turns: int = MAX_TURNS) -> tuple[np.ndarray, list[tuple[int, int, int]]]:
    """One hand of a given deck with the events it produced (for the exactness tests)."""
    work = Workspace(log_rows=4 * max_turns + 64)
    out = np.zeros(OUTCOME_WIDTH, dtype=np.int64)
    streams = np.array([seeds[0], seeds[1]], dtype=np.uint64)
    n = play_hand(np.array(deck, dtype=np.int64), starter, np.array(kinds, dtype=np.int64), streams, max_turns, out,
                  *work.arrays(), True)
    return out, [tuple(int(v) for v in row) for row in work.log[:n]]


@njit(cache=True)
def _deal_of(deal_seed, k, stock, deck):
    starter = java_deal(deal_seed, deck)
    if stock:
        resample_stock(deck, deal_seed, k)
    return starter


def deal_of(deal_seed: int, k: int = 0, resample: str = "deck") -> tuple[list[int], int]:
    """The core's (deal order, starter) of sample ``k``: equal to ``stream.sample_deck``."""
    deck = np.zeros(52, dtype=np.int64)
    starter = _deal_of(deal_seed, k, resample == "stock", deck)
    return [int(c) for c in deck], int(starter)
