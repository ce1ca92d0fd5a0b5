"""Document 001's recommendation: switch estimator by game stage.

The turn ranges are data, chosen by ``ginbots estimators eval`` (the member
with the lowest mean squared difference at each opponent turn, merged into
ranges) and stored in ``weights/ensemble.json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ginbots.game.knowledge import Knowledge

from .base import Estimator
from .snapshot import Snapshot

ENSEMBLE_FILE = "ensemble.json"


def ranges_from_scores(best_by_turn: dict[int, str]) -> list[list[Any]]:
    """{turn: member} -> [[first_turn, last_turn, member], ...], the last range open-ended (last_turn -1)."""
    ranges: list[list[Any]] = []
    for turn in sorted(best_by_turn):
        name = best_by_turn[turn]
        if ranges and ranges[-1][2] == name:
            ranges[-1][1] = turn
        else:
            ranges.append([turn, turn, name])
    if ranges:
        ranges[0][0] = 0
        ranges[-1][1] = -1
    return ranges


class EnsembleEstimator(Estimator):
    """Uses ``members[name]`` for rows whose opponent-turn count falls in its range."""

    name = "ensemble"

    def __init__(self, ranges: list[list[Any]], members: dict[str, Estimator]) -> None:
        if not ranges:
            raise ValueError("an ensemble needs at least one [first_turn, last_turn, member] range")
        missing = {r[2] for r in ranges} - set(members)
        if missing:
            raise ValueError(f"ensemble ranges name estimators it was not given: {sorted(missing)}")
        self.ranges = ranges
        self.members = members

    @classmethod
    def load(cls, path: str | Path | None = None,
             make: Callable[[str], Estimator] | None = None) -> "EnsembleEstimator":
        """The shipped (or ``path``) ensemble; ``make`` builds a member by name (default: the package's
        ``make_estimator``, which passes itself, so this module never imports its package back)."""
        from .weights import WeightsError, check_weights, find_weights

        path = Path(path) if path else find_weights(ENSEMBLE_FILE)
        check_weights(path)
        try:
            ranges = json.loads(path.read_text())["ranges"]
            if not all(isinstance(r, list) and len(r) == 3 and isinstance(r[2], str) for r in ranges):
                raise ValueError("each range is [first_turn, last_turn, estimator name]")
        except (KeyError, TypeError, ValueError) as exc:
            raise WeightsError(f"{path} must hold {{\"ranges\": [[first, last, estimator], ...]}}: {exc}") from None
        names = {r[2] for r in ranges}
        if "ensemble" in names or "omniscient" in names:
            raise WeightsError(f"{path}: an ensemble may not contain 'ensemble' or 'omniscient'")
        if make is None:
            raise WeightsError("an ensemble needs the estimator factory: build it with "
                               "ginbots.estimators.make_estimator('ensemble')")
        return cls(ranges, {n: make(n) for n in names})

    def member_for(self, turn: int) -> str:
        for first, last, name in self.ranges:
            if turn >= first and (last < 0 or turn <= last):
                return name
        return self.ranges[-1][2]

    def raw(self, snap: Snapshot) -> np.ndarray:
        choice = np.array([self.member_for(int(t)) for t in snap.opp_turns])
        out = np.zeros((len(snap), 52), dtype=np.float32)
        for name, member in self.members.items():
            rows = choice == name
            if rows.any():
                # recurrent members need whole episodes, so they run on every row and are then picked from
                out[rows] = member.raw(snap)[rows]
        return out

    def estimate(self, knowledge: Knowledge) -> np.ndarray:
        for member in self.members.values():  # keep recurrent members' memory current
            if hasattr(member, "_last"):
                member.estimate(knowledge)
        return self.members[self.member_for(knowledge.opp_turns)].estimate(knowledge)
