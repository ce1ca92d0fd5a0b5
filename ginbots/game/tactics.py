"""Meld choices at the end of a hand, shared by every bot that does better than Simple.

Which melds to declare is not in most source documents, yet under the
automatic layoff rule it moves points: the knocker wants the optimal meld set
(and order) that leaves the opponent fewest layoffs; the defender wants the
declaration that leaves it least deadwood after its own layoffs.
"""

from __future__ import annotations

from itertools import permutations
from typing import Callable, Sequence

from .cards import melds_in, points_of, union
from .melds import best_meld_set, best_meld_sets
from .rules import lay_off


#: A compiled search of ``knock_melds_min_layoffs`` (``ginbots.search.playout_kernels``), once installed.
_LAYOFF_KERNEL: Callable[[list[tuple[int, ...]], Sequence[int]], tuple[int, ...]] | None = None


def use_layoff_kernel(kernel: Callable[[list[tuple[int, ...]], Sequence[int]], tuple[int, ...]] | None) -> None:
    """Route ``knock_melds_min_layoffs``'s search of meld sets and orders through ``kernel`` (None: Python)
    in this process. Handed in from above, as ``melds_batch.use_batch_kernel``; the same choice, faster."""
    global _LAYOFF_KERNEL
    _LAYOFF_KERNEL = kernel


def disjoint_meld_collections(hand: int) -> list[tuple[int, ...]]:
    """Every collection of disjoint melds of ``hand``, the empty one included."""
    melds = melds_in(hand)
    out: list[tuple[int, ...]] = [()]

    def extend(start: int, used: int, chosen: tuple[int, ...]) -> None:
        for i in range(start, len(melds)):
            m = melds[i]
            if not m & used:
                grown = chosen + (m,)
                out.append(grown)
                extend(i + 1, used | m, grown)

    extend(0, 0, ())
    return out


def deadwood_after_layoffs(hand: int, declared: Sequence[int], knocker_melds: Sequence[int]) -> int:
    """The defender's final deadwood: undeclared cards minus the engine's greedy layoffs."""
    unmelded = hand & ~union(declared)
    for card, _, _ in lay_off(unmelded, list(knocker_melds)):
        unmelded &= ~(1 << card)
    return points_of(unmelded)


def best_defence_melds(hand: int, knocker_melds: Sequence[int], optimal_only: bool = False) -> tuple[int, ...]:
    """The declaration that minimises our deadwood once layoffs are done.

    After a gin there are no layoffs, so that is an optimal meld set. Otherwise
    every disjoint meld collection is tried: keeping a meld undeclared can let
    its cards lay off and still score as well or better. ``optimal_only``
    restricts the choice to the minimum-deadwood meld sets.
    """
    if sum(m.bit_count() for m in knocker_melds) == 10:  # gin: no layoffs
        return best_meld_set(hand)
    best = best_meld_set(hand)
    best_value = deadwood_after_layoffs(hand, best, knocker_melds)
    for declared in (best_meld_sets(hand) if optimal_only else disjoint_meld_collections(hand)):
        value = deadwood_after_layoffs(hand, declared, knocker_melds)
        if value < best_value:
            best, best_value = declared, value
    return best


def _undeclared(opponent_hands: Sequence[int]) -> list[int]:
    """Each sampled opponent's cards left after it declares an optimal meld set,
    as a sensible defender would."""
    return [opp & ~union(best_meld_set(opp)) for opp in opponent_hands]


def _layoff_points(leftovers: Sequence[int], melds: Sequence[int]) -> int:
    total = 0
    for unmelded in leftovers:
        for card, _, _ in lay_off(unmelded, list(melds)):
            total += points_of(1 << card)
    return total


def expected_layoff_points(melds: Sequence[int], opponent_hands: Sequence[int]) -> float:
    """Mean points the sampled opponents lay off on ``melds``, in this order."""
    if not opponent_hands:
        return 0.0
    return _layoff_points(_undeclared(opponent_hands), melds) / len(opponent_hands)


def knock_melds_min_layoffs(hand: int, opponent_hands: Sequence[int]) -> tuple[int, ...]:
    """Among the optimal meld sets of ``hand`` and their orders, the one that
    leaves the sampled opponents the fewest layoff points (first found on ties)."""
    options = best_meld_sets(hand)
    if hand & ~union(options[0]) == 0 or not opponent_hands:  # gin: layoffs are not allowed
        return options[0]
    if _LAYOFF_KERNEL is not None:
        return _LAYOFF_KERNEL(options, opponent_hands)
    leftovers = _undeclared(opponent_hands)
    best, best_cost = options[0], None
    for option in options:
        for order in (permutations(option) if len(option) <= 4 else [option]):
            cost = _layoff_points(leftovers, order)
            if best_cost is None or cost < best_cost:
                best, best_cost = tuple(order), cost
    return best
