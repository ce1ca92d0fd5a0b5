"""Probes of an offensive-score network against the authors' Random-256 Dual Inception (issue 40).

    python experiments/dual-inception-bisect/probes.py AUTHORS_REPO OUT.json [--net PATH.onnx --features F]
        [--candidates legal|unmelded] [--games N] [--label NAME]

AUTHORS_REPO: a checkout (or ``git archive``) of ``sangttruong/ginrummy`` holding
``models/DualInception/cp.ckpt.*`` and ``data/Random256Val-sample.csv``. Without ``--net`` the
authors' own network is probed (f: their raw features; x, o as ours). Figures:

- ``simple_like``: share of mid-game discards (Simple-vs-Simple states) where the network's pick
  leaves the least deadwood any legal discard leaves;
- ``deadwood_slope``: the network's score per deadwood point, within a state, over its candidates;
- ``validation_mse`` / ``validation_corr``: on the authors' Random-256 validation slice;
- ``win_rate``: games to 100 against ``simple`` on duplicate deals (``--games``), 95% Wilson.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from authors_network import AuthorsNetwork  # noqa: E402

from ginbots.arena.match import derive_seed  # noqa: E402
from ginbots.arena.stats import wilson  # noqa: E402
from ginbots.estimators.snapshot import bits  # noqa: E402
from ginbots.estimators.weights import OnnxNet  # noqa: E402
from ginbots.game.cards import cards_of, union  # noqa: E402
from ginbots.game.engine import GameConfig, play_game  # noqa: E402
from ginbots.game.melds import best_meld_set, min_deadwood  # noqa: E402
from ginbots.players.baselines import SimplePlayer, TrackingSimplePlayer  # noqa: E402
from ginbots.players.dual_inception import DualInceptionPlayer, authors_macro_features, network_input  # noqa: E402


class Scorer:
    """Scores hands after a discard with the authors' network or one of our ONNX networks."""

    def __init__(self, authors_repo: Path, net: str | None, features: str) -> None:
        self.features = features
        self.authors = AuthorsNetwork(authors_repo / "models/DualInception/cp.ckpt") if net is None else None
        self.onnx = OnnxNet(Path(net)) if net else None

    def __call__(self, after: np.ndarray, estimate: np.ndarray, f: np.ndarray | None = None) -> np.ndarray:
        """Scores; ``f``: the authors' raw macro features as given (their validation slice), else computed."""
        after = np.asarray(after, dtype=np.uint64)
        estimate = np.broadcast_to(np.asarray(estimate, dtype=np.float32), (len(after), 52))
        if self.authors is not None:
            return self.authors(authors_macro_features(after) if f is None else f, bits(after), estimate)
        rows = network_input(after, estimate, self.features)
        if f is not None and self.features == "authors":
            rows[:, 104:] = f
        return self.onnx(rows).reshape(-1)


class ProbePlayer(DualInceptionPlayer):
    """Dual Inception with any ``Scorer`` (the authors' network too)."""

    scorer: Scorer

    def prepare(self) -> None:
        self.estimator()

    def discard_scores(self) -> dict[int, float]:
        legal = cards_of(self.candidate_discards())
        likelihood = self.estimator().raw_one(self.knowledge)
        after = np.array([self.hand & ~(1 << c) for c in legal], dtype=np.uint64)
        return dict(zip(legal, self.scorer(after, likelihood).tolist()))


class StateRecorder(DualInceptionPlayer):
    """Plays Simple; records (hand, legal discards, estimate) at each of its discards."""

    states: list

    def discard(self) -> int:
        self.states.append((self.hand, self.legal_discards(), self.estimator().raw_one(self.knowledge)))
        return TrackingSimplePlayer.discard(self)


def mid_game_states(count: int, seed: int = 77) -> list:
    states: list = []
    game = 0
    while len(states) < count:
        rec = StateRecorder(seed=derive_seed(seed, game, 0))
        rec.states = states
        play_game([rec, SimplePlayer(seed=derive_seed(seed, game, 1))], seed=derive_seed(seed, game, 2),
                  config=GameConfig(time_budget=None))
        game += 1
    return states[:count]


def decision_probes(scorer: Scorer, states: list, candidates: str) -> dict[str, float]:
    simple_like, num, den = 0, 0.0, 0.0
    for hand, legal, estimate in states:
        if candidates == "unmelded":
            pool = (hand & ~union(best_meld_set(hand)) & legal) or legal
        else:
            pool = legal
        cards = cards_of(pool)
        after = np.array([hand & ~(1 << c) for c in cards], dtype=np.uint64)
        scores = scorer(after, estimate)
        deadwood = np.array([min_deadwood(int(h)) for h in after], dtype=float)
        best_possible = min(min_deadwood(hand & ~(1 << c)) for c in cards_of(legal))
        pick = max(range(len(cards)), key=lambda i: (scores[i], -cards[i]))
        simple_like += deadwood[pick] == best_possible
        if len(cards) > 1:
            d, s = deadwood - deadwood.mean(), scores - scores.mean()
            num += float(d @ s)
            den += float(d @ d)
    return {"states": len(states), "simple_like": round(simple_like / len(states), 4),
            "deadwood_slope": round(num / den, 3) if den else 0.0}


def validation_probes(scorer: Scorer, authors_repo: Path) -> dict[str, float]:
    with open(authors_repo / "data/Random256Val-sample.csv") as fh:
        rows = list(csv.reader(fh))
    col = {name: i for i, name in enumerate(rows[0])}
    data = np.array(rows[1:], dtype=float)
    names = [f"{rank}{suit}" for suit in "ABCD" for rank in range(1, 14)]
    x = data[:, [col[n] for n in names]]
    hands = (x.astype(np.int64) << np.arange(52)).sum(axis=1).astype(np.uint64)
    estimate = data[:, [col["e" + n] for n in names]].astype(np.float32)
    label = data[:, col["score0_mean"]]
    # Their rows' own f: 1% of them (the losing rows) give the deadwood after layoffs, which the hand
    # alone does not show; runs, sets and hits equal ours computed from the hand on every row.
    f = data[:, [col[c] for c in ("RunNum0", "SetNum0", "Deadwood0", "Hitscore0")]].astype(np.float32)
    predicted = scorer(hands, estimate, f)
    return {"validation_rows": len(label), "validation_mse": round(float(((predicted - label) ** 2).mean()), 2),
            "validation_corr": round(float(np.corrcoef(predicted, label)[0, 1]), 4)}


def games_probe(scorer: Scorer, candidates: str, games: int, seed: int = 5) -> dict[str, float]:
    wins = 0
    for deal in range(games // 2):
        for seat in (0, 1):  # duplicate deals: the same deal sequence with the seats swapped
            probe = ProbePlayer(seed=derive_seed(seed, deal, 0), candidates=candidates)
            probe.scorer = scorer
            players = [probe, SimplePlayer(seed=derive_seed(seed, deal, 1))]
            if seat:
                players.reverse()
            result = play_game(players, seed=derive_seed(seed, deal, 2), config=GameConfig(time_budget=None))
            wins += result.winner == seat
    low, high = wilson(wins, games, 0.95)
    return {"games": games, "win_rate": round(wins / games, 4), "wilson95": [round(low, 4), round(high, 4)]}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("authors_repo")
    p.add_argument("out")
    p.add_argument("--net", help="one of our ONNX offensive-score networks (default: the authors')")
    p.add_argument("--features", default="document")
    p.add_argument("--candidates", default="legal", choices=("legal", "unmelded"))
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--states", type=int, default=1923)
    p.add_argument("--label", default="")
    args = p.parse_args()
    repo = Path(args.authors_repo)
    scorer = Scorer(repo, args.net, args.features)
    result = {"label": args.label or (args.net or "authors"), "net": args.net or "authors (cp.ckpt)",
              "features": "authors" if args.net is None else args.features, "candidates": args.candidates}
    result.update(decision_probes(scorer, mid_game_states(args.states), args.candidates))
    result.update(validation_probes(scorer, repo))
    if args.games:
        result.update(games_probe(scorer, args.candidates, args.games))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
