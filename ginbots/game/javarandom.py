"""A bit-exact port of ``java.util.Random`` and the challenge's deck shuffle.

The EAAI engine draws the first starting player and one shuffle seed per hand
from a ``java.util.Random``; porting it lets a seed deal exactly the cards the
Java engine deals, so results here can be checked against the real engine.
"""

from __future__ import annotations

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK48 = (1 << 48) - 1


def _signed32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


class JavaRandom:
    """``java.util.Random``: same seed, same sequence as the JVM."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self.set_seed(seed)

    def set_seed(self, seed: int) -> None:
        self._state = (seed ^ _MULTIPLIER) & _MASK48

    def copy(self) -> "JavaRandom":
        """An independent generator at the same point of the sequence."""
        other = JavaRandom.__new__(JavaRandom)
        other._state = self._state
        return other

    def next(self, bits: int) -> int:
        self._state = (self._state * _MULTIPLIER + _ADDEND) & _MASK48
        return _signed32(self._state >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (a signed 32-bit int) or ``nextInt(bound)`` in ``[0, bound)``."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        if bound & -bound == bound:
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:
                return value

    def next_long(self) -> int:
        high = self.next(32)
        low = self.next(32)
        value = ((high << 32) + low) & 0xFFFFFFFFFFFFFFFF
        return value - (1 << 64) if value >= 1 << 63 else value

    def next_boolean(self) -> bool:
        return self.next(1) != 0

    def next_double(self) -> float:
        return ((self.next(26) << 27) + self.next(27)) * (1.0 / (1 << 53))


#: Per step i of the shuffle (52 down to 2): i, the least 31-bit draw nextInt(i) rejects (Java's
#: ``bits - bits % i + i - 1`` overflowing, i.e. ``bits >= 2**31 - 2**31 % i``), and whether i is a power of two.
_STEPS = tuple((i, (1 << 31) - (1 << 31) % i, not i & (i - 1)) for i in range(52, 1, -1))


class DealOrder:
    """The deck ``Card.getShuffle(seed)`` builds, in the order the engine takes its cards (20 dealt,
    the upcard, then the stock top down), shuffled only as far as cards are taken.

    ``Collections.shuffle(list, new Random(seed))`` on ids 0..51 swaps element i-1 with element
    nextInt(i) for i from 52 down to 2, and the engine pops from the end: step i fixes the
    (52-i)-th card taken. A hand rarely reaches the stock's last cards, so the steps for cards
    nobody takes are never run; ``cards`` grows as ``deal`` asks for more, always the same cards.
    """

    __slots__ = ("cards", "_work", "_state", "_next")

    def __init__(self, seed: int, count: int = 52) -> None:
        self.cards: list[int] = []
        self._work = list(range(52))
        self._state = (seed ^ _MULTIPLIER) & _MASK48
        self._next = 52  # the next shuffle step
        self.deal(count)

    def deal(self, count: int) -> list[int]:
        """Shuffle on until at least the first ``count`` cards are known; returns ``cards``."""
        first, last = self._next, max(53 - count, 2)
        if first < last:
            return self.cards
        deck, state = self._work, self._state
        for i, limit, power_of_two in _STEPS[52 - first:53 - last]:  # inlined nextInt(i): the costliest step a hand
            state = (state * _MULTIPLIER + _ADDEND) & _MASK48
            bits = state >> 17
            if power_of_two:  # nextInt(bound) takes the high bits
                j = (i * bits) >> 31
            else:
                while bits >= limit:  # nextInt's rejection of the top partial range (rare)
                    state = (state * _MULTIPLIER + _ADDEND) & _MASK48
                    bits = state >> 17
                j = bits % i
            deck[i - 1], deck[j] = deck[j], deck[i - 1]
        self._state, self._next = state, last - 1
        self.cards += deck[first - 1:last - 2 if last > 2 else None:-1]  # positions first-1 down to last-1 (0 at the end)
        return self.cards


def shuffled_deck(seed: int) -> list[int]:
    """The deck ``Card.getShuffle(seed)`` builds, as a stack: the engine pops from the end."""
    return DealOrder(seed).cards[::-1]


def deal_order(seed: int) -> list[int]:
    """Cards in the order the engine takes them: 20 dealt, the upcard, then the stock top down."""
    return DealOrder(seed).cards
