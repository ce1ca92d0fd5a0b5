"""A particle filter over the opponent's hand, weighted by how well a policy explains its play.

Estimators learn the opponent's hand from features; this module reasons from the
opponent's decisions instead. Each particle is one possible opponent hand, moved
forward with the opponent's visible actions (face-up pickups, stock draws with
the drawn card sampled, discards) and weighted by the chance that a model of the
opponent takes the action seen. The model is a mixture of two policies, with the
mixture weight itself inferred from the game:

- **minimum-deadwood play** (Simple's rule and the core of many bots): take the
  face-up card iff it joins a meld, discard a card leaving least deadwood (evenly
  among ties), knock as soon as deadwood is at or below a threshold;
- **uninformative play**: every legal answer equally likely; or, with ``near_ratio``,
  **near-minimum discards**: a discard leaving ``g`` points more deadwood than the
  least is ``near_ratio ** g`` times as likely as one leaving the least (a player
  that weighs other things too, such as safety, yet mostly throws cheap cards).

``rho``, the posterior weight of the first, moves by Bayes' rule with every
action; an opponent that plays otherwise drives it down, and the particles then
keep only the hard facts (cards seen elsewhere, cards it took and threw). Bots
read ``rho`` to decide how far to trust them. The population is a numpy array of
hands (thousands of particles; a few milliseconds an action), since a few hundred
collapse onto a handful of hands within a hand of play.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ginbots.game.cards import CARD_POINTS, HAND_SIZE, MELD_PAIRS, NUM_CARDS, cards_of
from ginbots.game.knowledge import Knowledge
from ginbots.game.melds_batch import deadwood_and_melded_batch

#: Bounds of the mixture weight, so that a few odd actions never fix the model for good.
RHO_MIN, RHO_MAX = 0.02, 0.98
#: Share of actions the minimum-deadwood model leaves to chance (ties it cannot see, a rule it lacks,
#: too few particles near the truth): one unexplained action divides the odds by about 1 / this, not 0.
SLIP = 0.05
#: Events after which a hand's history is too long to rescore at every move (a move costs time in
#: proportion to it): the filter keeps weighing hands but stops moving them. Hands rarely pass 40.
MAX_MOVE_EVENTS = 80
#: Above any deadwood: the value of a card a hand may not throw.
_NO_OPTION = 1 << 20
#: The kinds of action the filter weighs, as the compiled kernels number them.
DECLINE, TAKE, KEEP, DISCARD = range(4)
_KIND_CODES = {"decline": DECLINE, "take": TAKE, "keep": KEEP, "discard": DISCARD}
#: Each kind's chance under uninformative play: two answers to an offer, knock or not (a keep is
#: certain once it did not knock), about ten cards to throw.
_PLAIN = {"decline": 0.5, "take": 0.5, "keep": 1.0, "discard": 0.1}
#: Deadwood gaps past this count as this one in the near-minimum discard chances (the ratio's power is
#: already negligible there).
_MAX_GAP = 127

_BITS = np.array([1 << c for c in range(NUM_CARDS)], dtype=np.uint64)
_POINTS = np.array(CARD_POINTS, dtype=np.int64)
#: The compiled twins of this module's hot loops (``filter_kernels``), once ``use_kernels`` installed them.
_KERNELS: Any = None


def use_kernels(kernels: Any) -> None:
    """Run the filter's hot loops in ``kernels`` (``ginbots.search.filter_kernels``; None: numpy) in this
    process. They give the same numbers and take the same random draws, so the games are the same."""
    global _KERNELS
    _KERNELS = kernels


def _has(hands: np.ndarray, card: int) -> np.ndarray:
    return (hands & _BITS[card]) != 0


def _bit_matrix(hands: np.ndarray) -> np.ndarray:
    """(N,) hands -> (N, 52) bool."""
    return (hands[:, None] & _BITS[None, :]) != 0


def _pick_bit(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One set bit of each mask, uniformly (0 where a mask is empty)."""
    if _KERNELS is not None:
        return _KERNELS.pick_bits(masks, rng.random(len(masks)))
    matrix = _bit_matrix(masks)
    counts = matrix.sum(axis=1)
    k = np.floor(rng.random(len(masks)) * np.maximum(counts, 1)).astype(np.int64)
    index = np.argmax(np.cumsum(matrix, axis=1) > k[:, None], axis=1)
    return np.where(counts > 0, _BITS[index], np.uint64(0))


def _log(x: np.ndarray) -> np.ndarray:
    """``np.log``, a zero's -inf without numpy's warning. A mixture chance is never zero while SLIP and
    the uninformative chances are positive, so the check is usually all this costs (numpy's error-state
    context costs more than the logarithm)."""
    if x.all():
        return np.log(x)
    with np.errstate(divide="ignore"):
        return np.log(x)


def completes_meld_batch(card: int, hands: np.ndarray) -> np.ndarray:
    """``cards.completes_meld`` for an array of hands."""
    if _KERNELS is not None:
        return _KERNELS.completes_meld_batch(card, hands)
    out = np.zeros(len(hands), dtype=bool)
    for pair in MELD_PAIRS[card]:
        p = np.uint64(pair)
        out |= (hands & p) == p
    return out


class _EventRows:
    """One row per event of one value per hand, in a single growing 2D array: a resampling re-orders
    every event's hands in one copy, and the compiled sweeps read it without stacking."""

    def __init__(self, dtype: type) -> None:
        self.data = np.empty((0, 0), dtype=dtype)
        self.n = 0

    def clear(self) -> None:
        self.n = 0

    def append(self, row: np.ndarray) -> None:
        if self.data.shape[1] != len(row):  # a new population size: only ever at a (re)start
            if self.n:
                raise ValueError(f"an event row of {len(row)} hands after rows of {self.data.shape[1]}")
            self.data = np.empty((16, len(row)), dtype=self.data.dtype)
        elif self.n == len(self.data):
            grown = np.empty((2 * self.n, len(row)), dtype=self.data.dtype)
            grown[:self.n] = self.data
            self.data = grown
        self.data[self.n] = row
        self.n += 1

    def rows(self) -> np.ndarray:
        """(events, hands): a view, so that writes reach the history."""
        return self.data[:self.n]

    def reorder(self, index: np.ndarray) -> None:
        """Every event's hands taken in the order ``index`` (a resampling)."""
        self.data[:self.n] = self.data[:self.n, index]


class OpponentFilter:
    """Weighted opponent hands for one hand of play; feed it the opponent's actions in order."""

    def __init__(self, count: int, rng: np.random.Generator, rho: float = 0.5, knock_at: int = 10,
                 sweeps: int = 2, near_ratio: float = 0.0) -> None:
        self.count = count
        self.sweeps = sweeps
        # Powers by repeated products, not exp: the same floats on any machine and numpy build.
        self.near_powers = _powers(near_ratio) if near_ratio > 0 else None
        self.stale = False
        self.rng = rng
        self.rho = rho
        self.knock_at = knock_at
        self.hands = np.zeros(0, dtype=np.uint64)
        self.weights = np.zeros(0)
        self.pending: int | None = None      # the face-up card the opponent took this turn, if it took one
        self.stock_draw = False
        self.awaiting_keep = False  # after a discard, until the opponent is seen not to knock
        # Each particle's history, for rejuvenation: per event (kind, card, banned, rho) and the hands it saw.
        self.events: list[tuple[str, int, int, float]] = []
        self._history = _EventRows(np.uint64)
        self._logmix = _EventRows(np.float64)  # per event, each hand's log-likelihood of it
        self.moves = 0

    @property
    def history(self) -> np.ndarray:
        """(events, hands): each hand as it was when the opponent took each event's action."""
        return self._history.rows()

    @property
    def logmix(self) -> np.ndarray:
        """(events, hands): the log of each event's mixture chance for each hand."""
        return self._logmix.rows()

    @property
    def started(self) -> bool:
        return len(self.hands) > 0

    # --- population ------------------------------------------------------------------------------
    def start(self, knowledge: Knowledge, exclude: int = 0) -> None:
        """Particles uniform over what the opponent may hold; ``exclude``: cards it cannot hold yet
        (a face-up card seen in the same callback that starts the filter, even one the tracker already
        counts as the opponent's because it is taking it)."""
        known = knowledge.opp_known & ~exclude
        pool = np.array(cards_of(knowledge.unknown & ~exclude & ~known), dtype=np.int64)
        need = min(HAND_SIZE - known.bit_count(), len(pool))
        picks = np.argsort(self.rng.random((self.count, len(pool))), axis=1)[:, :need]
        self.hands = _BITS[pool[picks]].sum(axis=1, dtype=np.uint64) | np.uint64(known)
        self.weights = np.ones(self.count)
        self.awaiting_keep = False
        self.events = []
        self._history.clear()
        self._logmix.clear()

    def _consistent(self, knowledge: Knowledge, taking: int = 0) -> None:
        """Settle a pending no-knock, drop hands holding a card seen elsewhere; restart when none is left.
        ``taking``: the face-up card (as a bit) the opponent is taking, which it did not hold before."""
        if self.awaiting_keep:  # the opponent discarded and did not knock
            self.awaiting_keep = False
            self._observe("keep", -1, -1, self.hands)
        self._drop_seen(knowledge, taking)
        if not self.weights.any():
            self.start(knowledge, taking)
            self.pending, self.stock_draw = None, False

    def _drop_seen(self, knowledge: Knowledge, taking: int = 0) -> None:
        """Zero the weight of every hand holding a card the opponent cannot hold (now, or before taking
        ``taking``: a card we drew and threw within one turn was never dropped, yet it lay face up)."""
        allowed = np.uint64((knowledge.unknown | knowledge.opp_known) & ~taking)
        self.weights[(self.hands & ~allowed) != 0] = 0.0

    def _policy(self, kind: str, card: int, banned: int,
                hands: np.ndarray) -> tuple[np.ndarray, float | np.ndarray]:
        """(chance under minimum-deadwood play of the action seen, for each hand; its chance under
        the other model: uninformative play, or near-minimum discards for each hand). ``hands``: the
        opponent's hands when it acted."""
        if kind == "decline":
            policy = (~completes_meld_batch(card, hands)).astype(float)
        elif kind == "take":
            policy = completes_meld_batch(card, hands).astype(float)
        elif kind == "keep":  # it did not knock with these 10 cards
            deadwood, _ = deadwood_and_melded_batch(hands)
            policy = (deadwood > self.knock_at).astype(float)
        else:
            policy = self._discard_likelihood(hands, card, banned)[0]
            if self.near_powers is not None:
                plain = _near_discard_likelihood(hands, card, banned, self.near_powers)
                return (1 - SLIP) * policy + SLIP * plain, plain
        plain = _PLAIN[kind]
        return (1 - SLIP) * policy + SLIP * plain, plain

    def _observe(self, kind: str, card: int, banned: int, hands: np.ndarray) -> None:
        """Weigh the particles by an action taken with ``hands``, update ``rho`` by Bayes' rule, and
        record the event for rejuvenation."""
        policy, plain = self._policy(kind, card, banned, hands)
        total = self.weights.sum()
        if total <= 0:
            return
        rho = self.rho
        mix = rho * policy + (1 - rho) * plain
        new = self.weights * mix
        if not new.any():
            return  # no hand explains the action: keep the population, learn nothing
        e_policy = float(self.weights @ policy) / total
        evidence = float(new.sum()) / total
        self.weights = new
        self.rho = min(RHO_MAX, max(RHO_MIN, rho * e_policy / evidence))
        self.events.append((kind, card, banned, rho))
        self._history.append(hands)
        self._logmix.append(_log(mix))
        self._resample_if_degenerate()

    def _resample_if_degenerate(self) -> None:
        w = self.weights
        total = w.sum()
        if total <= 0 or total * total / float(w @ w) >= len(w) / 2:
            return
        positions = (self.rng.random() + np.arange(self.count)) * (total / self.count)  # systematic
        index = np.minimum(np.searchsorted(np.cumsum(w), positions), len(w) - 1)
        self.hands, self.weights = self.hands[index], np.ones(self.count)
        self._history.reorder(index)
        self._logmix.reorder(index)
        self.stale = True

    def rejuvenate(self, knowledge: Knowledge, sweeps: int = 1) -> None:
        """Metropolis moves that swap one card of each hand (never a card it was seen to take) for
        an unseen card throughout its history, accepted by the likelihood of every action so far:
        resampling copies a few hands many times, and this spreads them out again. Only the events
        whose hand held the swapped card are scored again."""
        if not self.started or len(self.events) > MAX_MOVE_EVENTS:
            self.stale = False
            return
        known = np.uint64(knowledge.opp_known)
        unknown = np.uint64(knowledge.unknown) & ~known
        # The compiled sweeps tabulate each event's few chances; near-minimum discards have many.
        numpy_sweep = _KERNELS is None or not self.events or self.near_powers is not None
        sweep = self._sweep if numpy_sweep else self._compiled_sweeps()
        for _ in range(sweeps):
            old = _pick_bit(self.hands & ~known, self.rng)
            new = _pick_bit(unknown & ~self.hands, self.rng)
            movers = (self.weights > 0) & (old != 0) & (new != 0)
            if not movers.any():
                break
            accept = sweep(old, new, movers)
            self.hands = np.where(accept, (self.hands & ~old) | new, self.hands)
            self.moves += int(accept.sum())
        self.stale = False

    def _sweep(self, old: np.ndarray, new: np.ndarray, movers: np.ndarray) -> np.ndarray:
        """One Metropolis sweep over the history in numpy: score each proposal, draw which are
        accepted, write them into the history; returns the accepted hands (bool per hand)."""
        delta = np.zeros(len(self.hands))
        proposals = []
        for (kind, card, banned, rho), hands, logmix in zip(self.events, self.history, self.logmix):
            rows = np.flatnonzero(movers & ((hands & old) != 0))
            swapped = (hands[rows] & ~old[rows]) | new[rows]
            policy, plain = self._policy(kind, card, banned, swapped)
            value = _log(rho * policy + (1 - rho) * plain)
            delta[rows] += value - logmix[rows]
            proposals.append((rows, swapped, value))
        accept = movers & (np.log(self.rng.random(len(movers))) < delta)
        for (rows, swapped, value), hands, logmix in zip(proposals, self.history, self.logmix):
            keep = accept[rows]
            hands[rows[keep]] = swapped[keep]
            logmix[rows[keep]] = value[keep]
        return accept

    def _compiled_sweeps(self) -> Any:
        """``_sweep`` in the compiled kernels, over the history's 2D arrays (written in place): the same
        proposals, sums in the same order, the same random draws. The logs are numpy's, taken once per
        event for each value its policy can take (``filter_kernels.log_chance_table``)."""
        k = _KERNELS
        kinds = np.array([_KIND_CODES[kind] for kind, _, _, _ in self.events], dtype=np.int64)
        cards = np.array([card for _, card, _, _ in self.events], dtype=np.int64)
        banned = np.array([b for _, _, b, _ in self.events], dtype=np.int64)
        rhos = np.array([rho for _, _, _, rho in self.events], dtype=np.float64)
        plains = np.array([_PLAIN[kind] for kind, _, _, _ in self.events], dtype=np.float64)
        table = k.log_chance_table(rhos, plains, SLIP)
        history, logmix = self.history, self.logmix

        def sweep(old: np.ndarray, new: np.ndarray, movers: np.ndarray) -> np.ndarray:
            events, hands, swapped, value, delta = k.sweep_proposals(kinds, cards, banned, table, history, logmix,
                                                                     old, new, movers, self.knock_at)
            accept = movers & (np.log(self.rng.random(len(movers))) < delta)
            k.apply_moves(events, hands, accept, swapped, value, history, logmix)
            return accept

        return sweep

    # --- the opponent's actions ------------------------------------------------------------------
    def declined(self, card: int, knowledge: Knowledge) -> None:
        self._consistent(knowledge)
        self._observe("decline", card, -1, self.hands)

    def took(self, card: int, knowledge: Knowledge) -> None:
        self._consistent(knowledge, 1 << card)
        bit = _BITS[card]
        self._observe("take", card, -1, self.hands & ~bit)
        self.hands = self.hands | bit
        self.pending, self.stock_draw = card, False

    def drew_stock(self, knowledge: Knowledge) -> None:
        self._consistent(knowledge)
        self.pending, self.stock_draw = None, True

    def discarded(self, card: int, knowledge: Knowledge) -> None:
        """The opponent threw ``card`` (``knowledge`` already updated); whether it knocked is settled later."""
        bit = _BITS[card]
        if self.stock_draw:
            self._draw_from_stock(card, knowledge)
        held = _has(self.hands, card)
        self.weights[~held] = 0.0
        banned = self.pending if self.pending is not None else -1
        self._observe("discard", card, banned, self.hands)
        self.hands = np.where(_has(self.hands, card), self.hands & ~bit, self.hands)
        self.pending, self.stock_draw = None, False
        self.awaiting_keep = True  # settled as a "keep" event once it is seen not to knock
        self._drop_seen(knowledge)

    def _draw_from_stock(self, card: int, knowledge: Knowledge) -> None:
        """Give every hand the card it drew: the thrown card where it did not hold it (weighted by
        that card's chance), else a card drawn uniformly from what it may have drawn."""
        bit = _BITS[card]
        pool = np.uint64(knowledge.unknown | 1 << card) & ~self.hands
        held = _has(self.hands, card)
        sizes = _KERNELS.popcounts(pool) if _KERNELS is not None else _bit_matrix(pool).sum(axis=1)
        self.weights = np.where(held, self.weights, self.weights / np.maximum(1, sizes))
        drawn = _pick_bit(pool & ~bit, self.rng)
        self.weights[held & (drawn == 0)] = 0.0
        self.hands = np.where(held, self.hands | drawn, self.hands | bit)

    @staticmethod
    def _discard_likelihood(hands: np.ndarray, card: int, banned: int) -> tuple[np.ndarray, np.ndarray]:
        """(chance that minimum-deadwood play throws ``card`` from each 11-card hand, the deadwood kept)."""
        if _KERNELS is not None:
            return _KERNELS.discard_likelihood(hands, card, banned)
        deadwood, melded = deadwood_and_melded_batch(hands)
        # Throwing a held card the optimal meld set leaves unmelded lowers the deadwood by exactly
        # its points; only hands that meld it need solving again (most hands do not).
        bit = _BITS[card]
        after = np.where((hands & bit) != 0, deadwood - _POINTS[card], deadwood)
        again = np.flatnonzero((melded & bit) != 0)
        if len(again):
            after[again] = deadwood_and_melded_batch(hands[again] & ~bit)[0]
        unmelded = _bit_matrix(hands & ~melded)
        if banned >= 0:
            unmelded[:, banned] = False
        # Throwing an unmelded card lowers the least deadwood by exactly its points; melded ones
        # (another melding may free them) are left out, a rare case.
        options = np.where(unmelded, deadwood[:, None] - _POINTS[None, :], _NO_OPTION)
        best = options.min(axis=1)
        ties = (options == after[:, None]).sum(axis=1) + ((melded & _BITS[card]) != 0)
        policy = np.where(after <= best, 1.0 / np.maximum(1, ties), 0.0)
        return policy, after

    # --- reading -------------------------------------------------------------------------------------
    def sample(self, count: int, knowledge: Knowledge) -> list[int]:
        """``count`` opponent hands drawn by weight."""
        self._consistent(knowledge)
        self.refresh(knowledge)
        p = self.weights / self.weights.sum()
        return [int(h) for h in self.hands[self.rng.choice(len(p), size=count, p=p)]]

    def holds(self, knowledge: Knowledge) -> np.ndarray:
        """(52,) weighted chance that the opponent holds each card."""
        self._consistent(knowledge)
        self.refresh(knowledge)
        return (self.weights @ _bit_matrix(self.hands)) / self.weights.sum()

    def refresh(self, knowledge: Knowledge) -> None:
        """Spread the hands out again (``rejuvenate``) if a resampling has copied them since the last time."""
        if self.stale and self.sweeps:
            self.rejuvenate(knowledge, self.sweeps)


def _powers(ratio: float) -> np.ndarray:
    """``ratio ** g`` for g = 0 .. _MAX_GAP, as products in order."""
    if not 0 < ratio <= 1:
        raise ValueError(f"near_ratio must lie in (0, 1], got {ratio}")
    powers = [1.0]
    for _ in range(_MAX_GAP):
        powers.append(powers[-1] * ratio)
    return np.array(powers)


def _near_discard_likelihood(hands: np.ndarray, card: int, banned: int, powers: np.ndarray) -> np.ndarray:
    """Chance of throwing ``card`` from each 11-card hand when a discard leaving ``g`` points more than the
    least deadwood is ``powers[g]`` times as likely (0 where a hand does not hold ``card``)."""
    deadwood, melded = deadwood_and_melded_batch(hands)
    legal = _bit_matrix(hands)
    if banned >= 0:
        legal[:, banned] = False
    # Throwing an unmelded card lowers the least deadwood by exactly its points; a melded one is solved again.
    after = np.where(legal, deadwood[:, None] - _POINTS[None, :], _NO_OPTION)
    rows, cards = np.nonzero(_bit_matrix(melded) & legal)
    after[rows, cards] = deadwood_and_melded_batch(hands[rows] & ~_BITS[cards])[0]
    best = after.min(axis=1)
    weights = np.where(legal, powers[np.minimum(after - best[:, None], _MAX_GAP)], 0.0)
    total = np.zeros(len(hands))
    for c in range(NUM_CARDS):  # in a fixed order, so the sums round alike under any numpy build
        total += weights[:, c]
    return weights[:, card] / np.where(total > 0, total, 1.0)
