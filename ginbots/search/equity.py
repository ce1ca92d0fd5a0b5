"""Game equity: the chance of winning a game to 100 from a score, for score-aware decisions.

A bot that maximises points per hand plays the last hands of a game badly: at 95
any won hand ends the game, and with the opponent at 95 any lost hand does. Given
the distribution of one hand's signed points, ``equity_table`` holds the chance of
reaching the goal first from scores (ours, theirs), hands being independent draws
from it (cancelled hands change nothing and are left out). A search that scores
its playouts by equity rather than points takes the score into account.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ginbots.game.cards import GOAL_SCORE

#: Signed points of a hand that was not cancelled, from one player's side, as (points, count):
#: 4,000 single hands of ``heuristic:tuned`` against ``simple``, ``heuristic:tuned``, ``keats:tuned``
#: and ``planner:tuned`` (1,000 each, seed 21, duplicate deals), each hand counted once from each
#: side, so the table favours neither player. Regenerate with ``experiments/champion-targets/hand_points.py``.
HAND_POINTS: tuple[tuple[int, int], ...] = (
    (-95, 10), (-92, 30), (-91, 10), (-88, 30), (-83, 10), (-82, 10), (-81, 40), (-79, 20), (-78, 20),
    (-76, 40), (-75, 100), (-74, 10), (-73, 50), (-72, 30), (-71, 30), (-70, 60), (-69, 50), (-68, 50),
    (-67, 70), (-66, 50), (-65, 40), (-64, 120), (-63, 130), (-62, 120), (-61, 90), (-60, 70), (-59, 100),
    (-58, 150), (-57, 150), (-56, 160), (-55, 180), (-54, 180), (-53, 200), (-52, 110), (-51, 300),
    (-50, 150), (-49, 320), (-48, 220), (-47, 310), (-46, 250), (-45, 360), (-44, 410), (-43, 300),
    (-42, 420), (-41, 440), (-40, 480), (-39, 520), (-38, 650), (-37, 830), (-36, 840), (-35, 1290),
    (-34, 1320), (-33, 1740), (-32, 1840), (-31, 1560), (-30, 2160), (-29, 2880), (-28, 2210), (-27, 4020),
    (-26, 5500), (-25, 900), (-24, 90), (-23, 80), (-22, 190), (-21, 130), (-20, 190), (-19, 170), (-18, 70),
    (-17, 200), (-16, 190), (-15, 90), (-14, 110), (-13, 160), (-12, 120), (-11, 170), (-10, 290), (-9, 250),
    (-8, 250), (-7, 260), (-6, 250), (-5, 190), (-4, 370), (-3, 430), (-2, 280), (-1, 560), (1, 560),
    (2, 280), (3, 430), (4, 370), (5, 190), (6, 250), (7, 260), (8, 250), (9, 250), (10, 290), (11, 170),
    (12, 120), (13, 160), (14, 110), (15, 90), (16, 190), (17, 200), (18, 70), (19, 170), (20, 190),
    (21, 130), (22, 190), (23, 80), (24, 90), (25, 900), (26, 5500), (27, 4020), (28, 2210), (29, 2880),
    (30, 2160), (31, 1560), (32, 1840), (33, 1740), (34, 1320), (35, 1290), (36, 840), (37, 830), (38, 650),
    (39, 520), (40, 480), (41, 440), (42, 420), (43, 300), (44, 410), (45, 360), (46, 250), (47, 310),
    (48, 220), (49, 320), (50, 150), (51, 300), (52, 110), (53, 200), (54, 180), (55, 180), (56, 160),
    (57, 150), (58, 150), (59, 100), (60, 70), (61, 90), (62, 120), (63, 130), (64, 120), (65, 40), (66, 50),
    (67, 70), (68, 50), (69, 50), (70, 60), (71, 30), (72, 30), (73, 50), (74, 10), (75, 100), (76, 40),
    (78, 20), (79, 20), (81, 40), (82, 10), (83, 10), (88, 30), (91, 10), (92, 30), (95, 10),
)


def _distribution(table: tuple[tuple[int, int], ...]) -> tuple[np.ndarray, np.ndarray]:
    points = np.array([p for p, _ in table if p != 0], dtype=np.int64)
    counts = np.array([c for p, c in table if p != 0], dtype=np.float64)
    if not len(points) or counts.min() < 0 or not counts.sum() > 0:
        raise ValueError("a hand-points table needs non-zero points with non-negative counts summing above 0")
    return points, counts / counts.sum()


@lru_cache(maxsize=32)
def equity_table(table: tuple[tuple[int, int], ...] = HAND_POINTS, goal: int = GOAL_SCORE) -> np.ndarray:
    """(goal + 1, goal + 1) array: the chance that the player with the first score reaches ``goal``
    first; scores are capped at ``goal`` (row ``goal``: won, column ``goal``: lost)."""
    points, probs = _distribution(table)
    table_ = np.zeros((goal + 1, goal + 1))
    table_[goal, :goal] = 1.0
    ours, theirs = points > 0, points < 0
    for a in range(goal - 1, -1, -1):
        up = np.minimum(a + points[ours], goal)
        for b in range(goal - 1, -1, -1):
            down = np.minimum(b - points[theirs], goal)
            table_[a, b] = probs[ours] @ table_[up, b] + probs[theirs] @ table_[a, down]
    return table_


def points_per_equity(table: np.ndarray, spread: int = 10) -> float:
    """Points a unit of equity is worth at the start of a game (the slope across ``spread`` points
    either side of 0-0), so that equity can be compared with margins stated in points."""
    slope = (table[spread, 0] - table[0, spread]) / (2 * spread)
    return 1.0 / slope


def hand_utility(table: np.ndarray, ours: int, theirs: int, scale: float, low: int, high: int) -> list[float]:
    """Equity after a hand, in points (``scale``), for every signed result from ``low`` to ``high``."""
    goal = table.shape[0] - 1
    ours, theirs = min(max(ours, 0), goal), min(max(theirs, 0), goal)  # a host's odd scores stay in the table
    return [scale * table[min(ours + max(x, 0), goal), min(theirs + max(-x, 0), goal)]
            for x in range(low, high + 1)]


def with_edge(share: float, table: tuple[tuple[int, int], ...] = HAND_POINTS) -> tuple[tuple[int, float], ...]:
    """``table`` with the hands one player wins reweighted to ``share`` of the hands (the rest to the
    other): the sizes of won and lost hands keep their shapes, only who wins them moves."""
    won = sum(c for p, c in table if p > 0)
    lost = sum(c for p, c in table if p < 0)
    if not 0.0 < share < 1.0 or not won or not lost:
        raise ValueError("a share of hands won must lie strictly between 0 and 1, on a table with both signs")
    return tuple((p, c * share / won if p > 0 else c * (1 - share) / lost) for p, c in table if p != 0)
