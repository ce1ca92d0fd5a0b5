"""Opponent-hand estimators: interface invariants, the plug rule, metrics, weights checks."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from ginbots.estimators import ESTIMATOR_NAMES, make_estimator
from ginbots.estimators.bayes import BayesianEstimator, count_tables
from ginbots.estimators.ensemble import EnsembleEstimator, ranges_from_scores
from ginbots.estimators.features import AMBI_SUPERPERMUTATION, plug_array, shankar_input
from ginbots.estimators.metrics import (
    drift_area,
    integrity_loss,
    mean_squared_difference,
    minimum_top_largest,
    top_n_cards,
)
from ginbots.estimators.snapshot import bits, masks_of, normalise, sample_hands, sample_masks
from ginbots.estimators.weights import (
    OnnxNet,
    WeightsError,
    check_weights,
    find_weights,
)
from ginbots.game.cards import parse_cards
from ginbots.training.estimator_data import record_games

PLAYABLE = [n for n in ESTIMATOR_NAMES if n != "omniscient"]


@pytest.fixture(scope="module")
def recorded():
    return record_games("simple", "simple", list(range(40)))


def test_recorded_rows_are_consistent(recorded) -> None:
    truth, hand, pile = bits(recorded.truth), bits(recorded.hand), bits(recorded.pile)
    assert len(recorded) > 1000
    assert (truth.sum(axis=1) == 10).all()
    assert not (truth * (hand + pile)).any()  # the opponent never holds our cards or pile cards
    assert (truth >= bits(recorded.opp_known)).all()  # what we know it holds, it holds


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_estimator_pins_known_cards_and_sums_to_ten(name: str, recorded) -> None:
    est = make_estimator(name)
    rows = recorded.select(slice(0, 400))
    p = est.probabilities(rows)
    assert p.shape == (len(rows), 52)
    assert np.all((p >= 0) & (p <= 1 + 1e-6))
    np.testing.assert_allclose(p.sum(axis=1), 10, atol=1e-3)
    assert not (p * bits(rows.hand)).any() and not (p * bits(rows.pile)).any()
    np.testing.assert_array_equal(p[bits(rows.opp_known) > 0], 1.0)


def test_omniscient_is_the_truth_and_refuses_live_play(recorded) -> None:
    est = make_estimator("omniscient")
    np.testing.assert_array_equal(est.raw(recorded), bits(recorded.truth))
    with pytest.raises(ValueError, match="evaluation only"):
        est.raw(recorded.select(slice(0, 2)).__class__(**{**recorded.select(slice(0, 2)).to_arrays(),
                                                          "truth": np.array([-1, -1])}))


def test_normalise_water_fills_without_exceeding_one(recorded) -> None:
    row = recorded.select(slice(5, 6))
    raw = bits(row.unknown & ~row.opp_known) * 0.01
    raw[0, np.flatnonzero(raw[0])[:3]] = 50.0  # three cards far more likely than the rest
    p = normalise(row, raw)
    assert p.max() <= 1.0 + 1e-6 and abs(p.sum() - 10) < 1e-4
    assert (p[0, np.flatnonzero(raw[0] == 50.0)] == 1.0).all()


def test_sampled_hands_are_complete_consistent_and_follow_the_estimate(recorded) -> None:
    row = recorded.select(slice(30, 31))
    probs = make_estimator("uniform").probabilities(row)[0]
    favoured = np.flatnonzero(bits(row.unknown & ~row.opp_known)[0])[:4]
    probs = probs.copy()
    probs[favoured] = 0.95
    hands = sample_hands(probs, row, 2000, np.random.default_rng(1))
    assert hands.shape == (2000, 52)
    assert (hands.sum(axis=1) == 10).all()
    assert not (hands & (bits(row.hand | row.pile)[0] > 0)).any()
    assert (hands[:, bits(row.opp_known)[0] > 0]).all()
    others = np.flatnonzero((bits(row.unknown & ~row.opp_known)[0] > 0))
    others = np.setdiff1d(others, favoured)
    assert hands[:, favoured].mean() > 3 * hands[:, others].mean()
    again = sample_hands(probs, row, 2000, np.random.default_rng(1))
    np.testing.assert_array_equal(hands, again)  # seeded


def test_sampled_masks_are_the_sampled_hands_as_card_sets(recorded) -> None:
    rows = [i for i in range(len(recorded)) if recorded.opp_known[i]][:5] + list(range(0, 200, 40))
    assert any(recorded.opp_known[i] for i in rows)  # hands with cards the opponent surely holds too
    for i in rows:
        row = recorded.select(slice(i, i + 1))
        probs = make_estimator("uniform").probabilities(row)[0] * np.linspace(0.5, 1.5, 52)
        hands = sample_hands(probs, row, 300, np.random.default_rng(i))
        np.testing.assert_array_equal(sample_masks(probs, row, 300, np.random.default_rng(i)), masks_of(hands))


def test_network_estimates_follow_the_view_they_are_asked_about(recorded) -> None:
    """The network remembers its last answer; a changed view must not get the old one."""
    from ginbots.game.knowledge import Knowledge

    est, fresh = make_estimator("mlp8"), make_estimator("mlp8")
    knowledge = Knowledge(0, 1, (1 << 10) - 1)
    first = est.estimate(knowledge)
    np.testing.assert_array_equal(est.estimate(knowledge), first)
    knowledge.offered(20)
    knowledge.answered(20, False)
    knowledge.drew(1, None)
    knowledge.discarded(1, 30)
    changed = est.estimate(knowledge)
    np.testing.assert_array_equal(changed, fresh.estimate(knowledge))
    assert not np.array_equal(changed, first)
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    np.testing.assert_array_equal(est.sample_masks(knowledge, 50, rng_a),
                                  masks_of(fresh.sample(knowledge, 50, rng_b)))


def test_plug_rule_reproduces_document_001_worked_example() -> None:
    hand = parse_cards("AC AS 5D 6C 6S 7S 8S JC QD KS")
    # Face-up KH declined by the opponent; it discards 8C; we take 7C, discard it, the opponent picks it up.
    hand_now = hand  # 7C came and went
    out = hand_now | parse_cards("KH 8C")
    opp_known = parse_cards("7C")
    expected = np.array([
        [-2, 0, 0, 0, 0, -2, 1, -1, 0, 0, -2, 0, -1],   # clubs
        [0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, -1],       # hearts
        [-2, 0, 0, 0, 0, -2, -2, -2, 0, 0, 0, 0, -2],   # spades
        [0, 0, 0, 0, -2, 0, 1, 0, 0, 0, 0, -2, -1],     # diamonds
    ])
    np.testing.assert_array_equal(plug_array(hand_now, out, opp_known, parse_cards("8C")), expected)
    # Before the pickup: only the kings are safe, nothing is marked held.
    before = plug_array(hand, hand | parse_cards("KH"), 0, 0)
    assert before[0, 12] == -1 and before[3, 12] == -1 and before[1, 12] == -1
    assert (before == 1).sum() == 0


def test_ambi_superpermutation_rows_hold_every_suit_order() -> None:
    seq = AMBI_SUPERPERMUTATION
    windows = {seq[i:i + 4] for i in range(len(seq) - 3)}
    for perm in itertools.permutations("1234"):
        word = "".join(perm)
        assert word in windows or word[::-1] in windows, word
    assert len(seq) == 17


def test_shankar_input_shape(recorded) -> None:
    x = shankar_input(recorded.select(slice(0, 10)))
    assert x.shape == (10, 1, 17, 13)
    assert set(np.unique(x)) <= {-2.0, -1.0, 0.0, 1.0}


def test_bayesian_tables_raise_same_rank_cards_after_a_pickup(recorded) -> None:
    held, seen = count_tables(recorded)
    est = BayesianEstimator(held, seen, min_observations=5)
    uniform = make_estimator("uniform").raw(recorded)
    raw = est.raw(recorded)
    # rows right after an opponent turn in which it took the face-up card
    ratios = []
    for i in range(len(recorded)):
        t = recorded.opp_turns[i]
        took = np.flatnonzero(recorded.picked[i] == t)
        if len(took) != 1 or t == 0:
            continue
        c = took[0]
        same_rank = [s * 13 + c % 13 for s in range(4) if s * 13 + c % 13 != c]
        same_rank = [x for x in same_rank if (recorded.unknown[i] >> x) & 1 and not (recorded.opp_known[i] >> x) & 1]
        ratios += [raw[i, x] / uniform[i, x] for x in same_rank]
    assert len(ratios) > 20 and np.mean(ratios) > 1.1


def test_metrics_by_hand() -> None:
    truth = np.zeros((1, 52))
    truth[0, :10] = 1
    perfect = truth.copy()
    assert mean_squared_difference(perfect, truth)[0] == 0
    assert integrity_loss(perfect, truth)[0] == 0
    assert minimum_top_largest(perfect, truth)[0] == 10
    assert top_n_cards(perfect, truth)[0] == 10
    assert drift_area(perfect, truth)[0] == 0
    # Ranking: 9 true cards first, then one false card, then the last true card.
    p = np.zeros((1, 52))
    p[0, :9] = np.linspace(1.0, 0.9, 9)
    p[0, 20] = 0.85
    p[0, 9] = 0.8
    assert minimum_top_largest(p, truth)[0] == 11
    assert top_n_cards(p, truth)[0] == 9
    assert drift_area(p, truth)[0] == (11 - 10) * (11 - 10)  # only k = 10 needs i = 11
    assert integrity_loss(np.full((1, 52), 0.25), truth)[0] == pytest.approx(30.0)


def test_ensemble_ranges_and_member_choice(recorded) -> None:
    ranges = ranges_from_scores({1: "bayes", 2: "bayes", 3: "mlp8", 4: "mlp8", 5: "bayes"})
    assert ranges == [[0, 2, "bayes"], [3, 4, "mlp8"], [5, -1, "bayes"]]
    ens = EnsembleEstimator(ranges, {"bayes": make_estimator("bayes"), "mlp8": make_estimator("uniform")})
    assert [ens.member_for(t) for t in (0, 2, 3, 4, 5, 40)] == ["bayes", "bayes", "mlp8", "mlp8", "bayes", "bayes"]
    rows = recorded.select(slice(0, 300))
    raw = ens.raw(rows)
    uni = make_estimator("uniform").raw(rows)
    mid = (rows.opp_turns >= 3) & (rows.opp_turns <= 4)
    np.testing.assert_allclose(raw[mid], uni[mid])


def test_corrupt_or_missing_weights_name_the_file(tmp_path: Path) -> None:
    src = find_weights("mlp8.onnx")
    dst = tmp_path / "mlp8.onnx"
    shutil.copy(src, dst)
    shutil.copy(src.with_name("mlp8.card.json"), tmp_path / "mlp8.card.json")
    OnnxNet(dst)  # intact copy loads
    data = bytearray(dst.read_bytes())
    data[len(data) // 2] ^= 0xFF
    dst.write_bytes(bytes(data))
    expected = json.loads((tmp_path / "mlp8.card.json").read_text())["sha256"]
    with pytest.raises(WeightsError, match=rf"{dst}.*corrupt.*{expected}"):
        check_weights(dst)
    dst.unlink()
    with pytest.raises(WeightsError, match=rf"{dst} is missing \(expected sha256 {expected}\)"):
        OnnxNet(dst)
    (tmp_path / "mlp8.card.json").unlink()
    with pytest.raises(WeightsError, match="model card"):
        check_weights(dst)


def test_live_recurrent_estimate_matches_the_batch_path() -> None:
    """simple-nn keeps its previous output between live calls; that must equal the sequential batch run."""
    from ginbots.estimators.snapshot import Snapshot, snapshot_rows
    from ginbots.game.engine import play_game
    from ginbots.players.baselines import SimplePlayer, TrackingSimplePlayer
    
    est = make_estimator("simple-nn")
    live, rows = [], []

    hands_seen = [0]

    class Watcher(TrackingSimplePlayer):
        def start_hand(self, seat: int, starter: int, hand: int) -> None:
            super().start_hand(seat, starter, hand)
            hands_seen[0] += 1

        def report_discard(self, seat: int, card: int) -> None:
            super().report_discard(seat, card)
            if seat != self.seat and len(rows) < 40:
                rows.append(snapshot_rows([self.knowledge], steps=[self.knowledge.opp_turns - 1],
                                          episodes=[hands_seen[0]]))
                live.append(est.estimate(self.knowledge))

    play_game((Watcher(seed=1), SimplePlayer(seed=2)), seed=5)
    snap = Snapshot.concat(rows)
    batch = normalise(snap, est.raw(snap))
    np.testing.assert_allclose(np.stack(live), batch, atol=1e-5)


def test_every_network_estimator_has_a_weights_file_and_a_name():
    from ginbots.estimators.nets import NET_ESTIMATORS, NET_FILES

    assert set(NET_ESTIMATORS) == set(NET_FILES) and set(NET_ESTIMATORS) <= set(ESTIMATOR_NAMES)


def test_one_live_row_is_the_batch_encoding_of_that_row() -> None:
    """Play's one-row snapshot (built with fewer arrays) holds the values and types of the batch encoder's row."""
    from dataclasses import fields

    from ginbots.estimators.snapshot import snapshot_rows
    from ginbots.game.knowledge import Knowledge

    rng = np.random.default_rng(5)
    for _ in range(200):
        cards = rng.permutation(52)
        k = Knowledge(0, int(rng.integers(2)), sum(1 << int(c) for c in cards[:10]))
        k.pile = [int(c) for c in cards[10:10 + rng.integers(0, 12)]]
        k.opp_known = sum(1 << int(c) for c in cards[25:25 + rng.integers(0, 4)])
        k.unknown = sum(1 << int(c) for c in cards[22:])
        k.opp_picked = [(int(c), int(rng.integers(0, 40))) for c in cards[25:27]]
        k.opp_declined = [(int(c), int(rng.integers(0, 40))) for c in cards[30:33]]
        k.opp_discards = [(int(c), int(rng.integers(0, 40))) for c in cards[10:14]]
        k.opp_turns, k.stock_size = int(rng.integers(0, 40)), int(rng.integers(2, 32))
        one, batch = snapshot_rows([k]), snapshot_rows([k, k]).select(slice(0, 1))
        for field in fields(one):
            a, b = getattr(one, field.name), getattr(batch, field.name)
            assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all(), field.name
