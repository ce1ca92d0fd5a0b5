"""Fast playouts of the rest of a hand, for bots that search over sampled opponent hands.

Both seats play Simple's rule (take the face-up card iff it joins a meld, throw
the card leaving least deadwood, the costlier on ties) with their own knock
thresholds, on a known stock order; optionally the opponent holds back cards
that would join our melds (``guarded_discard``). Plain ints and the meld tables: about a
quarter of a millisecond a hand. This is a model of play for search, like the
planner's; the rules of record stay in ``ginbots.game.state``.
"""

from __future__ import annotations

from ginbots.game.cards import CARD_POINTS, GIN_BONUS, completes_meld, points_of, union
from ginbots.game.melds import best_meld_set, deadwood_and_melded, discard_deadwoods, min_deadwood
from ginbots.game.rules import score_knock
from ginbots.game.tactics import deadwood_after_layoffs


def knock_points(knocker: int, defender: int, knocker_melds: tuple[int, ...] | None = None) -> int:
    """The knocker's signed points if it knocks now: + when it wins, - after an undercut.

    The defender declares an optimal meld set and lays off as the engine does.
    """
    melds = best_meld_set(knocker) if knocker_melds is None else knocker_melds
    knocker_dw = points_of(knocker & ~union(melds))
    if knocker_dw == 0:
        return GIN_BONUS + min_deadwood(defender)
    _, melded = deadwood_and_melded(defender)  # one optimal meld set's cards, declared as one block
    defender_dw = deadwood_after_layoffs(defender, (melded,), melds)
    _, knocker_wins, points = score_knock(knocker_dw, defender_dw)
    return points if knocker_wins else -points


def simple_discard(hand: int, banned: int = -1) -> tuple[int, int]:
    """Simple's discard from an 11-card hand: (card, deadwood after), never ``banned``; the
    costlier card, then the lower id, on ties.

    Removing a card lowers the least deadwood by at most its points, and by exactly its
    points for a card left unmelded by an optimal meld set; so only melded cards costlier
    than the costliest such card need checking (about three times faster than trying all).
    """
    deadwood, melded = deadwood_and_melded(hand)
    best_card, best_dw, best_pts = -1, 1 << 30, -1
    rest = hand & ~melded
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        if card != banned and CARD_POINTS[card] > best_pts:
            best_card, best_dw, best_pts = card, deadwood - CARD_POINTS[card], CARD_POINTS[card]
    rest = hand & melded
    while rest:
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        points = CARD_POINTS[card]
        if card == banned or points < best_pts or deadwood - points > best_dw:
            continue  # cannot do better than the best found
        after = min_deadwood(hand ^ low)
        if after < best_dw or (after == best_dw and points > best_pts):
            best_card, best_dw, best_pts = card, after, points
    return best_card, best_dw


def guarded_discard(hand: int, banned: int, other: int, slack: int) -> tuple[int, int]:
    """A defensive discarder's throw: Simple's, unless that card would join a meld in ``other`` (the
    hand it goes to, which takes such a card); then the card leaving least deadwood among those that
    join none, the costlier then the lower id on ties, if it costs at most ``slack`` more deadwood
    than Simple's; else Simple's after all. ``slack`` < 0: Simple's always.

    A model of opponents that hold back what we need (the public entry java-tonic weighs what a
    discard gives the opponent). It sees ``other`` whole, as a playout world does.
    """
    card, deadwood = simple_discard(hand, banned)
    if slack < 0 or not completes_meld(card, other):
        return card, deadwood
    best_card, best_dw, best_pts = card, deadwood, -1
    for safe, after in discard_deadwoods(hand):  # ascending card ids
        if safe == banned or completes_meld(safe, other) or after > deadwood + slack:
            continue
        points = CARD_POINTS[safe]
        if best_pts < 0 or after < best_dw or (after == best_dw and points > best_pts):
            best_card, best_dw, best_pts = safe, after, points
    return best_card, best_dw


#: Turns after which a playout is scored as a cancelled hand: two Simple players can pass the
#: same cards back and forth for ever (the engine's players avoid it with a guard playouts skip).
MAX_PLAYOUT_TURNS = 60


def play_out(us: int, them: int, stock: list[int], start: int, top: int, mover: int,
             knock_at: tuple[int, int], defence: int = -1) -> int:
    """Points for ``us`` (+ won, - lost, 0 when the stock runs down to two cards).

    ``stock[start:]`` is the stock, top first; ``top`` the face-up card;
    ``mover`` (0 us, 1 them) draws next; ``knock_at`` the two seats' thresholds;
    ``defence``: the opponent's ``guarded_discard`` slack (< 0: it throws Simple's discard).
    """
    hands = [us, them]
    end = len(stock) - 2
    pos = start
    for _ in range(MAX_PLAYOUT_TURNS):
        if pos >= end:
            break
        hand = hands[mover]
        if completes_meld(top, hand):
            drawn = top
            banned = top
        else:
            drawn = stock[pos]
            pos += 1
            banned = -1
        hand |= 1 << drawn
        if mover == 1 and defence >= 0:
            card, deadwood = guarded_discard(hand, banned, hands[0], defence)
        else:
            card, deadwood = simple_discard(hand, banned)
        hand ^= 1 << card
        hands[mover] = hand
        top = card
        if deadwood <= knock_at[mover]:
            points = knock_points(hand, hands[mover ^ 1])
            return points if mover == 0 else -points
        mover ^= 1
    return 0
