"""The online-planning player of seed document 003 (Vento and Rahman): Gin Rummy as an MDP.

Actions are (draw from the stock or take the face-up card) x (the discard);
the reward of the hand an action leaves is R = 4 * melds - 5 * deadwood, plus
100 when deadwood <= 10; the opponent is modelled as acting uniformly at
random; the unknown cards (stock and opponent's hand) are not assumed known.
The document's four planners share this model: sparse sampling (default,
depth 1, 10 samples: the document's best trade-off), forward search (every
transition), lookahead with rollouts, and its modified Monte Carlo tree search
(rollouts for first estimates, then UCB-chosen simulations valued by sparse
sampling).
"""

from __future__ import annotations

import math
from typing import Callable

from ginbots.game.cards import CARD_POINTS, MAX_DEADWOOD, cards_of
from ginbots.game.melds import deadwood_and_melds, discard_outcomes, min_deadwood

from .base import Hyperparameter
from .tracking import KNOCK_THRESHOLD, LAYOFF_SAMPLES, LayoffAwarePlayer

#: The document's chance that a uniformly random opponent takes the face-up
#: card: 10 of its 21 actions do.
RANDOM_TAKE_CHANCE = 10 / 21


class PlannerPlayer(LayoffAwarePlayer):
    """Online MDP planner (document 003): sparse sampling, forward search or rollouts.

    Under the challenge's interface the draw and the discard are two calls:
    the draw is chosen by the best of the 21 actions (the document's model, in
    which a stock action names its discard before seeing the card, or with
    ``draw_model="expectimax"`` the discard chosen after seeing it); the discard
    is then planned again with the drawn card known. Declining the first upcard
    skips the turn, valued as keeping the hand. Rollouts cannot see the
    opponent's hand here (the document's version could): each rollout deals
    the opponent a hand sampled from the unknown cards. Knocking (greedy, as
    in the document, with ``knock_threshold``) and meld choice are shared with
    the Keats bot (``LayoffAwarePlayer``).
    """

    name = "planner"
    hyperparameters = (
        Hyperparameter("method", str, "sparse", choices=("sparse", "forward", "rollout", "mcts"), tunable=False,
                       doc="sparse sampling, forward search (all transitions), lookahead with rollouts, or the "
                           "modified MCTS"),
        Hyperparameter("k_max", int, 25, 1, 1000, tunable=False,
                       doc="simulations of the modified MCTS after its rollout estimates (document: 25)"),
        Hyperparameter("ucb_c", float, 50.0, 0.0, 1000.0,
                       doc="UCB exploration weight of the modified MCTS, in reward units (not in the document)"),
        Hyperparameter("depth", int, 1, 1, 3, tunable=False, doc="planning depth in own turns (sparse, forward)"),
        Hyperparameter("samples", int, 10, 1, 60, tunable=False,
                       doc="m: unknown cards sampled per decision (sparse sampling, and the MCTS's sparse values)"),
        Hyperparameter("rollouts", int, 10, 1, 200, tunable=False, doc="rollouts per action (method=rollout)"),
        Hyperparameter("discount", float, 1.0, 0.5, 1.0, doc="gamma (document: 1)"),
        Hyperparameter("meld_reward", float, 4.0, 0.0, 20.0, doc="reward per meld (document: 4)"),
        Hyperparameter("deadwood_penalty", float, 5.0, 0.0, 20.0, doc="penalty per deadwood point (document: 5)"),
        Hyperparameter("knock_bonus", float, 100.0, 0.0, 300.0,
                       doc="reward when deadwood <= 10 (document: 100)"),
        Hyperparameter("draw_model", str, "document", choices=("document", "expectimax"),
                       doc="stock actions fix the discard before the draw (document) or after it"),
        KNOCK_THRESHOLD,
        LAYOFF_SAMPLES,
    )

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        p = self.params
        self._meld_reward = p["meld_reward"]
        self._deadwood_penalty = p["deadwood_penalty"]
        self._knock_bonus = p["knock_bonus"]

    # --- the model -------------------------------------------------------
    def reward(self, deadwood: int, melds: int) -> float:
        """R of a 10-card hand: 4 * melds - 5 * deadwood (+100 when deadwood <= 10)."""
        value = self._meld_reward * melds - self._deadwood_penalty * deadwood
        return value + self._knock_bonus if deadwood <= MAX_DEADWOOD else value

    def _draw_pool(self, unknown: int) -> None:
        """Fix, for one decision, the unknown cards the search may meet.

        Sparse sampling approximates the unknown cards by m of them drawn with
        equal probability (all of them if fewer, and always all for forward
        search); every chance node of the decision's tree branches on the
        pool's cards still unseen there, so all actions face the same cards.
        """
        pool = cards_of(unknown)
        if self.params["method"] in ("sparse", "mcts") and len(pool) > self.params["samples"]:
            pool = self.rng.sample(pool, self.params["samples"])
        self._pool = pool

    def _chance_cards(self, unknown: int) -> list[int]:
        return [c for c in self._pool if unknown >> c & 1]

    def _future(self, hand: int, deadwood: int, unknown: int, depth: int) -> float:
        """Discounted value of our next turn after an action left ``hand``.

        A knockable hand ends the round (the document's agent knocks greedily);
        otherwise the random opponent's discard is, from our side, a uniformly
        random unknown card, and it becomes our next face-up card. The stock
        table of the next turn does not depend on that face-up card (beyond
        leaving it out of the draws), so it is built once for all of them.
        """
        if depth <= 1 or deadwood <= MAX_DEADWOOD:
            return 0.0
        faces = self._chance_cards(unknown)
        if not faces:
            return 0.0
        rows = self._stock_table(hand, unknown, depth - 1)
        total = 0.0
        for f in faces:
            take = self.q_take(hand, f, unknown & ~(1 << f), depth - 1)
            total += max(take, self._stock_value(rows, exclude=f))
        return self.params["discount"] * total / len(faces)

    def q_take(self, hand: int, face_up: int, unknown: int, depth: int) -> float:
        """Best value of taking ``face_up`` then discarding one of our old cards."""
        best = float("-inf")
        for card, dw, melds in discard_outcomes(hand | 1 << face_up):
            if card != face_up:
                value = self._after_discard(hand | 1 << face_up, dw, melds, card, unknown, depth)
                if value > best:
                    best = value
        return best

    def _stock_table(self, hand: int, unknown: int, depth: int) -> dict[int, dict[int, float]]:
        """For each chance card x drawn from the stock: value of each discard
        (an old card, or -1 for the drawn card itself)."""
        rows = {}
        for x in self._chance_cards(unknown):
            with_x = hand | 1 << x
            rest = unknown & ~(1 << x)
            rows[x] = {(card if card != x else -1): self._after_discard(with_x, dw, melds, card, rest, depth)
                       for card, dw, melds in discard_outcomes(with_x)}
        return rows

    def _stock_value(self, rows: dict[int, dict[int, float]], exclude: int = -1) -> float:
        """Value of the stock actions, over the chance cards other than ``exclude``.

        The document's model fixes the discard before the draw: the best of the
        11 per-discard averages. ``expectimax`` discards after seeing the card.
        """
        usable = [row for x, row in rows.items() if x != exclude]
        if not usable:
            return float("-inf")
        if self.params["draw_model"] == "expectimax":
            return sum(max(row.values()) for row in usable) / len(usable)
        return max(sum(row[j] for row in usable) for j in usable[0]) / len(usable)

    def q_stock(self, hand: int, unknown: int, depth: int) -> float:
        """Value of drawing from the stock, averaged over the chance cards."""
        return self._stock_value(self._stock_table(hand, unknown, depth))

    def _after_discard(self, hand11: int, dw: int, melds: int, card: int, unknown: int, depth: int) -> float:
        return self.reward(dw, melds) + self._future(hand11 & ~(1 << card), dw, unknown, depth)

    def state_value(self, hand: int, face_up: int, unknown: int, depth: int) -> float:
        """V at our turn: the best of the 21 actions."""
        return max(self.q_take(hand, face_up, unknown, depth), self.q_stock(hand, unknown, depth))

    def keep_value(self, hand: int, unknown: int, depth: int) -> float:
        """Value of a skipped first turn: the hand stays as it is."""
        dw, melds = deadwood_and_melds(hand)
        return self.reward(dw, melds) + self._future(hand, dw, unknown, depth)

    # --- rollouts --------------------------------------------------------
    def _rollout_value(self, first: Callable[[list[int], int], tuple[int, int]], hand: int) -> float:
        """Mean return of ``rollouts`` random continuations after our first action.

        ``first(stock, hand)`` applies our first action to a determinised
        stock and returns (our hand after it, the face-up card it leaves).
        """
        total = 0.0
        gamma = self.params["discount"]
        n = self.params["rollouts"]
        for _ in range(n):
            opp, stock = self._determinise()
            mine, top = first(stock, hand)
            dw, melds = deadwood_and_melds(mine)
            ret = self.reward(dw, melds)
            total += ret + (0.0 if dw <= MAX_DEADWOOD else gamma * self._random_play(mine, opp, stock, top))
        return total / n

    def _determinise(self) -> tuple[int, list[int]]:
        """An opponent hand and a stock order consistent with what we know."""
        k = self.knowledge
        pool = cards_of(k.unknown)
        self.rng.shuffle(pool)
        need = k.opp_unknown_count
        opp = k.opp_known
        for c in pool[:need]:
            opp |= 1 << c
        return opp, pool[need:]

    def _random_play(self, mine: int, opp: int, stock: list[int], top: int) -> float:
        """Both sides play uniformly random actions (opponent first) until a knockable
        hand or a two-card stock; returns our discounted rewards along the way."""
        rng = self.rng
        gamma = self.params["discount"]
        ret, weight = 0.0, 1.0
        hands = [opp, mine]
        turn = 0
        while len(stock) > 2:
            who = turn & 1
            h = hands[who]
            if rng.random() < RANDOM_TAKE_CHANCE:
                drawn, legal = top, h
            else:
                drawn = stock.pop()
                legal = h | 1 << drawn
            h |= 1 << drawn
            top = rng.choice(cards_of(legal))
            h &= ~(1 << top)
            hands[who] = h
            if who == 1:
                dw, melds = deadwood_and_melds(h)
                ret += weight * self.reward(dw, melds)
                weight *= gamma
                if dw <= MAX_DEADWOOD:
                    break
            elif min_deadwood(h) <= MAX_DEADWOOD:
                break
            turn += 1
        return ret

    # --- the modified MCTS ---------------------------------------------------
    def _mcts(self, actions: dict[object, tuple[Callable[[list[int], int], tuple[int, int]],
                                                Callable[[], tuple[int, int]]]]) -> object:
        """The document's modified MCTS over ``actions``: key -> (rollout first step, sampler of the hand
        the action leaves and the card it discards). Each action starts from the mean of ``rollouts``
        rollouts; then ``k_max`` simulations each take the action of highest UCB (untried ones first),
        value the hand it leaves by sparse sampling one turn ahead, and update that action's mean."""
        unknown = self.knowledge.unknown
        self._draw_pool(unknown)
        value = {key: self._rollout_value(first, self.hand) for key, (first, _) in actions.items()}
        visits = {key: 0 for key in actions}
        c = self.params["ucb_c"]
        for sim in range(1, self.params["k_max"] + 1):
            def ucb(key: object) -> float:
                if visits[key] == 0:
                    return math.inf
                return value[key] + c * math.sqrt(math.log(sim) / visits[key])
            key = max(actions, key=ucb)
            hand, discarded = actions[key][1]()
            dw, melds = deadwood_and_melds(hand)
            rest = unknown & ~hand & ~(1 << discarded)
            sample = self.reward(dw, melds) + self._future(hand, dw, rest, 2)
            visits[key] += 1
            value[key] += (sample - value[key]) / (visits[key] + 1)  # the rollout estimate counts as one
        return max(actions, key=lambda key: value[key])

    def _mcts_offer(self, card: int, first_offer: bool) -> bool:
        hand = self.hand
        pool = cards_of(self.knowledge.unknown)
        actions: dict[object, tuple] = {}
        for j in cards_of(hand):
            left = (hand | 1 << card) & ~(1 << j)
            actions[("take", j)] = (_take_then(card, j), lambda left=left, j=j: (left, j))
        if first_offer:
            actions[("keep", -1)] = (_keep(card), lambda: (hand, card))
        else:
            for j in cards_of(hand) + [-1]:
                def drawn(j: int = j) -> tuple[int, int]:
                    x = self.rng.choice(pool)
                    throw = x if j == -1 else j
                    return (hand | 1 << x) & ~(1 << throw), throw
                actions[("stock", j)] = (_draw_then(None if j == -1 else j), drawn)
        return self._mcts(actions)[0] == "take"

    def _mcts_discard(self, legal: int) -> int:
        hand = self.hand
        actions = {card: (_discard_now(card), lambda card=card: (hand & ~(1 << card), card))
                   for card in cards_of(legal)}
        return int(self._mcts(actions))

    # --- decisions -------------------------------------------------------
    def wants_face_up(self, card: int) -> bool:
        k = self.knowledge
        depth = self.params["depth"]
        first_offer = k.draws_seen == 0
        if self.params["method"] == "mcts":
            return self._mcts_offer(card, first_offer)
        if self.params["method"] == "rollout":
            take = max(self._rollout_value(_take_then(card, j), self.hand) for j in cards_of(self.hand))
            other = self._rollout_value(_keep(card), self.hand) if first_offer else self._rollout_stock()
            return take > other
        self._draw_pool(k.unknown)
        take = self.q_take(self.hand, card, k.unknown, depth)
        other = self.keep_value(self.hand, k.unknown, depth) if first_offer else self.q_stock(self.hand, k.unknown, depth)
        return take > other

    def _rollout_stock(self) -> float:
        """The document's stock actions under rollouts: discard old card j or the drawn card."""
        options = [_draw_then(j) for j in cards_of(self.hand)] + [_draw_then(None)]
        return max(self._rollout_value(option, self.hand) for option in options)

    def discard(self) -> int:
        legal = self.legal_discards()
        if self.params["method"] == "mcts":
            return self._mcts_discard(legal)
        k = self.knowledge
        depth = self.params["depth"]
        self._draw_pool(k.unknown)
        best, best_key = -1, None
        for card, dw, melds in discard_outcomes(self.hand):
            if not legal >> card & 1:
                continue
            if self.params["method"] == "rollout":
                value = self._rollout_value(_discard_now(card), self.hand)
            else:
                value = self._after_discard(self.hand, dw, melds, card, k.unknown, depth)
            key = (value, CARD_POINTS[card], card)  # ties: throw the costlier card
            if best_key is None or key > best_key:
                best, best_key = card, key
        return best


def _take_then(face_up: int, discard: int) -> Callable[[list[int], int], tuple[int, int]]:
    return lambda stock, hand: ((hand | 1 << face_up) & ~(1 << discard), discard)


def _keep(face_up: int) -> Callable[[list[int], int], tuple[int, int]]:
    return lambda stock, hand: (hand, face_up)


def _draw_then(discard: int | None) -> Callable[[list[int], int], tuple[int, int]]:
    def act(stock: list[int], hand: int) -> tuple[int, int]:
        drawn = stock.pop()
        throw = drawn if discard is None else discard
        return (hand | 1 << drawn) & ~(1 << throw), throw
    return act


def _discard_now(card: int) -> Callable[[list[int], int], tuple[int, int]]:
    return lambda stock, hand: (hand & ~(1 << card), card)
