"""Document 000's Dual Inception discarder (Truong et al.): a learned offensive hand score.

Draws and knocks as Simple; discards the card that leaves the hand with the
highest offensive score, predicted by a small CNN from the hand after the
discard (x, 4x13), the ISRU-squashed Bayesian opponent-hand estimate (o,
4x13) and four macro features (m: deadwood, sets, runs, hit count).  The
eq. 5 discard risk of the same estimate is computed too; ``defense_weight``
blends it in (0 is the document's player) and ``criterion=defence`` uses it
alone, for the comparison the document leaves open.
"""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np

from ginbots.estimators import shared_estimator, weight_files_for
from ginbots.estimators.base import Estimator
from ginbots.estimators.risk import discard_risk
from ginbots.estimators.snapshot import bits
from ginbots.estimators.weights import OnnxNet, card_path, find_weights
from ginbots.game.cards import NUM_CARDS, cards_of, is_run, union
from ginbots.game.melds import best_meld_set, lowering_discards
from ginbots.game.melds_batch import deadwood_and_melded_batch

from .base import Hyperparameter
from .baselines import TrackingSimplePlayer
from .hand_utility import PAIR_HI, PAIR_LO

#: Network inputs, packed side by side in one float32 row: x (52), o (52), m (4).
INPUT_WIDTH = 2 * NUM_CARDS + 4
#: The document's three architectures and the datasets they learn from.
MODELS = ("dual-inception", "mlp", "mlp-i")
DATASETS = ("random-256", "random-16", "simple")
#: Weights also shipped for data drawn another way (``ginbots offense generate --resample deck``) and
#: for the Simple dataset at full size (``simple`` keeps the first round's stronger network), and
#: for Random-N data with each deal's worst sample kept for a tenth of the deals (issue 40's bisection).
VARIANT_DATASETS = ("random-256-deck", "simple-full", "random-256-worst", "random-16-worst")
#: The Dual Inception network's default data: 1.01M Random-256 deals with each deal's worst sample kept for a
#: tenth of them, 5 epochs (55.6% against Simple over 10,000 games, the document's 55.4%; the Simple-data
#: network, the default until 2026-11-24, 52.0%: ``dataset=simple``).
DEFAULT_DATASET = "random-256-worst"
#: The document's ISRU estimate (eq. 6, alpha = 1) feeds both o and the eq. 5 risk.
ESTIMATOR = "bayes-isru"
_LO, _HI = PAIR_LO.astype(np.int64)[:NUM_CARDS], PAIR_HI.astype(np.int64)[:NUM_CARDS]


def weights_file(model: str, dataset: str) -> str:
    return f"offense_{model.replace('-', '_')}_{dataset.replace('-', '_')}.onnx"


def _melds_by_kind(hand: int) -> tuple[int, int]:
    """(sets, runs) of one optimal meld set."""
    melds = best_meld_set(hand)
    runs = sum(1 for m in melds if is_run(m))
    return len(melds) - runs, runs


def macro_features(hands: np.ndarray) -> np.ndarray:
    """(B, 4) float32 m: deadwood / 10, number of sets, number of runs, hit count / 10.

    The hit count is the number of cards outside the hand that would complete
    or extend one of its melds if drawn; deadwood and hits are scaled by 1/10
    so the four inputs share a range.
    """
    hands = np.asarray(hands, dtype=np.uint64)
    deadwood, _ = deadwood_and_melded_batch(hands)
    held = np.zeros((len(hands), NUM_CARDS + 1), dtype=bool)
    held[:, :NUM_CARDS] = bits(hands).astype(bool)
    hits = ((held[:, _LO] & held[:, _HI]).any(axis=2) & ~held[:, :NUM_CARDS]).sum(axis=1)
    kinds = np.array([_melds_by_kind(int(h)) for h in hands], dtype=np.float32).reshape(len(hands), 2)
    return np.column_stack([deadwood / 10.0, kinds, hits / 10.0]).astype(np.float32)


#: Macro-feature encodings: the document's as we read it (``macro_features``), or the authors' own code's
#: (``authors_macro_features``).
FEATURES = ("document", "authors")


def authors_macro_features(hands: np.ndarray) -> np.ndarray:
    """(B, 4) float32 m as the authors' released code computes it (their ``FeatureEngineer``), raw integers:

    - runs: cards scanned suit by suit, rank by rank, a streak of three or more held cards counting one
      run; the streak is not reset between suits (a king and the next suit's ace and two continue it);
    - sets: ranks held in three or more suits;
    - deadwood: the least deadwood;
    - hits: cards outside the hand whose addition leaves no more unmelded cards (in one optimal meld
      set) than before.
    """
    hands = np.asarray(hands, dtype=np.uint64)
    held = bits(hands).astype(bool)  # (B, 52), suit-major
    runs = np.zeros(len(hands), dtype=np.int64)
    streak = np.zeros(len(hands), dtype=np.int64)
    for card in range(NUM_CARDS):
        ended = ~held[:, card]
        runs += ended & (streak >= 3)
        streak = np.where(ended, 0, streak + 1)
    runs += streak >= 3
    sets = (held.reshape(-1, 4, 13).sum(axis=1) >= 3).sum(axis=1)
    deadwood, melded = deadwood_and_melded_batch(hands)
    unmelded = bits(hands & ~melded).sum(axis=1)
    hits = np.zeros(len(hands), dtype=np.int64)
    for card in range(NUM_CARDS):
        outside = ~held[:, card]
        bit = np.uint64(1 << card)
        _, melded_after = deadwood_and_melded_batch(hands | bit)
        after = bits((hands | bit) & ~melded_after).sum(axis=1)
        hits += outside & (after <= unmelded)
    return np.column_stack([runs, sets, deadwood, hits]).astype(np.float32)


def network_input(hands: np.ndarray, estimate: np.ndarray, features: str = "document") -> np.ndarray:
    """(B, 108) packed x | o | m rows; ``estimate`` is (52,) shared or (B, 52) per row; ``features``
    one of ``FEATURES``."""
    estimate = np.broadcast_to(np.asarray(estimate, dtype=np.float32), (len(hands), NUM_CARDS))
    if features not in FEATURES:
        raise ValueError(f"features must be one of {', '.join(FEATURES)}, got {features!r}")
    macro = macro_features(hands) if features == "document" else authors_macro_features(hands)
    return np.concatenate([bits(hands), estimate, macro], axis=1)


class OffensiveScore:
    """A frozen offensive-score network: packed rows in, predicted hand scores out."""

    def __init__(self, model: str = "dual-inception", dataset: str = "simple", path: str = "") -> None:
        self.path = find_weights(path or weights_file(model, dataset))
        self.net = OnnxNet(self.path)
        card = card_path(self.path)
        #: The macro features the network was trained on, as its model card says (older cards: the document's).
        self.features = json.loads(card.read_text()).get("features", "document") if card.exists() else "document"

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return self.net(rows).reshape(-1)


@lru_cache(maxsize=None)
def shared_offensive_score(model: str, dataset: str, path: str = "") -> OffensiveScore:
    """One loaded network per process, shared by every seat."""
    return OffensiveScore(model, dataset, path)


def offence_after_discards(score: OffensiveScore, hand: int, cards: list[int], likelihood: np.ndarray,
                           features: str) -> np.ndarray:
    """The network's predicted score of the hand left by discarding each of ``cards`` from ``hand``."""
    after = np.array([hand & ~(1 << c) for c in cards], dtype=np.uint64)
    return score(network_input(after, likelihood, features))


def network_files(model: str, dataset: str) -> list:
    """The files an offensive score loads: its network, the network's card, and the estimator feeding it."""
    path = find_weights(weights_file(model, dataset))
    return [path, card_path(path)] + weight_files_for(ESTIMATOR)


def prepare_network(model: str, dataset: str) -> None:
    """Load the network and its estimator before the first decision."""
    shared_offensive_score(model, dataset)
    shared_estimator(ESTIMATOR)


class DualInceptionPlayer(TrackingSimplePlayer):
    """Simple's draw and knock; discards by the highest offensive score (document 000)."""

    name = "dual-inception"
    hyperparameters = (
        Hyperparameter("defense_weight", float, 0.0, 0.0, 10.0,
                       doc="points of offensive score given up per unit of eq. 5 discard risk (document: 0)"),
        Hyperparameter("criterion", str, "blend", choices=("blend", "defence"), tunable=False,
                       doc="blend: offence - defense_weight x risk over every legal discard; defence: the "
                           "lowest-risk card among those that lower deadwood (offence breaks ties)"),
        Hyperparameter("model", str, "dual-inception", choices=MODELS, tunable=False,
                       doc="offensive-score network: Figure 3a, or the MLP / MLP-i baselines of 3b / 3c"),
        Hyperparameter("dataset", str, "auto", choices=("auto",) + DATASETS + VARIANT_DATASETS, tunable=False,
                       doc="training data of the network; auto: random-256-worst for the Dual Inception network "
                           "(Random-256 with losing samples, our strongest: docs/bots/dual-inception.md), simple "
                           "for the MLP baselines"),
        Hyperparameter("features", str, "auto", choices=("auto",) + FEATURES, tunable=False,
                       doc="macro features m fed to the network: the document's as we read them (deadwood/10, sets, "
                           "runs, hits/10), the authors' code's (raw runs, sets, deadwood, hits, their definitions), "
                           "or auto: those its model card says it was trained on"),
        Hyperparameter("candidates", str, "legal", choices=("legal", "unmelded"), tunable=False,
                       doc="discards scored: every legal card, or (the authors' code) only the cards one optimal "
                           "meld set leaves unmelded (all cards when none is)"),
    )

    def dataset(self) -> str:
        """The network's training data: ``dataset``, with ``auto`` resolved for the model."""
        dataset = self.params["dataset"]
        if dataset != "auto":
            return dataset
        return DEFAULT_DATASET if self.params["model"] == "dual-inception" else "simple"

    def offensive_score(self) -> OffensiveScore:
        return shared_offensive_score(self.params["model"], self.dataset())

    def estimator(self) -> Estimator:
        return shared_estimator(ESTIMATOR)

    def weight_files(self) -> list:
        return network_files(self.params["model"], self.dataset())

    def prepare(self) -> None:
        prepare_network(self.params["model"], self.dataset())

    def discard_scores(self) -> dict[int, float]:
        """Per legal discard: offensive score of the hand left, minus the blended risk."""
        legal = cards_of(self.candidate_discards())
        likelihood = self.estimator().raw_one(self.knowledge)
        score = self.offensive_score()
        features = score.features if self.params["features"] == "auto" else self.params["features"]
        offence = offence_after_discards(score, self.hand, legal, likelihood, features)
        if self.params["criterion"] == "defence":
            # The document's defence-only player scores unmelded cards; the offence term only breaks ties.
            lowers = {c for c, _ in lowering_discards(self.hand, self.legal_discards())}
            risk = discard_risk(likelihood)[legal]
            return {c: (-float(r) + 1e-9 * float(o) if c in lowers or not lowers else -np.inf)
                    for c, r, o in zip(legal, risk, offence)}
        weight = self.params["defense_weight"]
        if weight:
            offence = offence - weight * discard_risk(likelihood)[legal]
        return dict(zip(legal, offence.tolist()))

    def candidate_discards(self) -> int:
        """The discards scored (a card set): the legal ones, or with ``candidates=unmelded`` those of them that
        one optimal meld set leaves unmelded, as the authors' player does (every legal card when none)."""
        legal = self.legal_discards()
        if self.params["candidates"] == "unmelded":
            unmelded = self.hand & ~union(best_meld_set(self.hand)) & legal
            return unmelded or legal
        return legal

    def discard(self) -> int:
        scores = self.discard_scores()
        return max(scores, key=lambda c: (scores[c], -c))

