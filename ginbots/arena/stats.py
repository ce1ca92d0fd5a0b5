"""Statistics for results: Wilson intervals and mergeable latency histograms."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist


def z_for(confidence: float) -> float:
    """Two-sided normal quantile: 1.645 for 0.90, 1.960 for 0.95."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def mean_and_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (sample standard deviation over sqrt(n))."""
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((x - mean) ** 2 for x in values) / (len(values) - 1))
    return mean, sd / math.sqrt(len(values))


def wilson(successes: float, trials: float, confidence: float = 0.90) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    z = z_for(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


class LatencyHistogram:
    """Log-spaced histogram of durations (2.3% wide bins from 100 ns to ~17 min).

    Bounded memory whatever the number of decisions, and mergeable across
    worker processes; quantiles are read back to within one bin.
    """

    BINS_PER_DECADE = 100
    MIN_SECONDS = 1e-7
    NUM_BINS = 1000

    __slots__ = ("counts", "total", "max")

    def __init__(self) -> None:
        self.counts = [0] * self.NUM_BINS
        self.total = 0
        self.max = 0.0

    def add_many(self, durations: list[float]) -> None:
        counts = self.counts
        log10 = math.log10
        top = self.NUM_BINS - 1
        scale = self.BINS_PER_DECADE
        floor = self.MIN_SECONDS
        for t in durations:
            i = int(log10(t / floor) * scale) if t > floor else 0
            counts[i if i < top else top] += 1
            if t > self.max:
                self.max = t
        self.total += len(durations)

    def merge(self, other: "LatencyHistogram") -> None:
        for i, n in enumerate(other.counts):
            if n:
                self.counts[i] += n
        self.total += other.total
        self.max = max(self.max, other.max)

    def quantile(self, q: float) -> float:
        """Seconds at quantile ``q`` (bin centre); 0.0 when empty."""
        if not self.total:
            return 0.0
        rank = q * self.total
        seen = 0
        for i, n in enumerate(self.counts):
            seen += n
            if seen >= rank and n:
                return self.MIN_SECONDS * 10 ** ((i + 0.5) / self.BINS_PER_DECADE)
        return self.max

    def to_json(self) -> dict[str, object]:
        return {"total": self.total, "max": self.max,
                "bins": {str(i): n for i, n in enumerate(self.counts) if n}}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> "LatencyHistogram":
        hist = cls()
        for key, n in data["bins"].items():  # type: ignore[union-attr]
            hist.counts[int(key)] = int(n)
        hist.total = int(data["total"])  # type: ignore[arg-type]
        hist.max = float(data["max"])  # type: ignore[arg-type]
        return hist


def nearest_rank(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by the nearest-rank rule (the smallest value with at least
    a share ``q`` of the values at or below it), 0.0 for none: one rule for every reported p50 / p99."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
