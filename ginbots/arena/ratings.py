"""Ratings from game results: the challenge runner's Elo and a Bradley-Terry maximum-likelihood fit.

Elo depends on the order games are counted in; the runner fixed it by playing
rounds of one game per pair and averaging the ratings over rounds.
Bradley-Terry uses only the win counts, so it does not depend on order, and
its curvature gives intervals.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

#: The challenge runner's Elo settings.
ELO_K = 8.0
ELO_START = 1000.0
#: Elo points per natural-log unit of Bradley-Terry strength.
ELO_SCALE = 400.0 / math.log(10.0)


def elo_by_rounds(players: Sequence[str], rounds: Sequence[Sequence[tuple[str, str, float]]],
                  k: float = ELO_K, start: float = ELO_START) -> dict[str, float]:
    """Average Elo over rounds; each round is a list of (a, b, score of a in [0, 1]) in play order."""
    rating = {p: start for p in players}
    totals = {p: 0.0 for p in players}
    for games in rounds:
        for a, b, score in games:
            expected = 1.0 / (1.0 + 10.0 ** ((rating[b] - rating[a]) / 400.0))
            rating[a] += k * (score - expected)
            rating[b] -= k * (score - expected)
        for p in players:
            totals[p] += rating[p]
    n = max(1, len(rounds))
    return {p: totals[p] / n for p in players}


def bradley_terry(players: Sequence[str], wins: dict[tuple[str, str], float], prior_games: float = 1.0,
                  confidence: float = 0.90) -> dict[str, tuple[float, float, float]]:
    """Maximum-likelihood strengths on the Elo scale (mean 1000): name -> (rating, low, high).

    ``wins[(a, b)]`` counts a's wins over b (draws as halves). ``prior_games``
    adds that many virtual games per played pair, split evenly, so a player
    that won or lost everything still gets a finite rating; intervals come
    from the inverse observed information.
    """
    from statistics import NormalDist

    n = len(players)
    index = {p: i for i, p in enumerate(players)}
    w = np.zeros((n, n))
    for (a, b), count in wins.items():
        w[index[a], index[b]] += count
    games = w + w.T
    played = games > 0
    w = w + played * (prior_games / 2.0)
    games = w + w.T
    theta = np.zeros(n)
    total_wins = w.sum(axis=1)
    for _ in range(10_000):  # Hunter's MM iterations
        diff = np.exp(theta)[:, None] + np.exp(theta)[None, :]
        denom = (games / np.where(games > 0, diff, 1.0)).sum(axis=1)
        new = np.log(np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), 1.0))
        new -= new.mean()
        if np.max(np.abs(new - theta)) < 1e-10:
            theta = new
            break
        theta = new
    p = 1.0 / (1.0 + np.exp(-(theta[:, None] - theta[None, :])))
    info = games * p * (1 - p)
    hessian = np.diag(info.sum(axis=1)) - info
    cov = np.linalg.pinv(hessian)  # the mean-zero constraint removes the null direction
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    out = {}
    for name, i in index.items():
        se = math.sqrt(max(cov[i, i], 0.0))
        rating = ELO_START + ELO_SCALE * theta[i]
        out[name] = (float(rating), float(rating - z * ELO_SCALE * se), float(rating + z * ELO_SCALE * se))
    return out
