"""Document 000's Dual Inception discarder: features by hand, the three architectures'
sizes, the Random-N data rule and the offence/defence blend."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import known_run_position

from ginbots.arena.match import derive_seed
from ginbots.estimators.risk import discard_risk
from ginbots.game.cards import parse_card, parse_cards
from ginbots.game.engine import play_game
from ginbots.game.melds import min_deadwood
from ginbots.players.baselines import SimplePlayer
from ginbots.players.dual_inception import (
    DualInceptionPlayer,
    macro_features,
    network_input,
)
from ginbots.training.offense import (
    SINGLE_ROUND,
    RandomDiscardPlayer,
    _Watcher,
    record_deal,
)
from ginbots.training.offense_train import interaction_pairs
from ginbots.training.selfplay import sample_deck, sample_seeds, stream_players


def test_macro_features_of_a_known_hand() -> None:
    hand = parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S")
    # Deadwood KH + AH + 7D + 2S = 20; one set, one run; 2C and 6C extend the run, 9C completes the set
    # and 8D makes 7D-8D-9D: 4 hits.
    np.testing.assert_allclose(macro_features(np.array([hand], dtype=np.uint64))[0], [2.0, 1, 1, 0.4], rtol=1e-6)


def test_network_input_packs_hand_estimate_and_macro_features() -> None:
    hand = parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S")
    estimate = np.linspace(0, 1, 52)
    rows = network_input(np.array([hand, hand & ~(1 << parse_card("KH"))], dtype=np.uint64), estimate)
    assert rows.shape == (2, 108)
    assert rows[0, :52].sum() == 10 and rows[0, parse_card("KH")] == 1 and rows[1, parse_card("KH")] == 0
    np.testing.assert_allclose(rows[1, 52:104], estimate, rtol=1e-6)
    assert rows[1, 104] == pytest.approx(1.0)  # deadwood 10 without KH


def test_architectures_have_the_documents_parameter_counts() -> None:
    pytest.importorskip("torch")
    from ginbots.training.offense_train import build_model

    counts = {name: sum(p.numel() for p in build_model(name).parameters()) for name in ("dual-inception", "mlp", "mlp-i")}
    assert counts == {"dual-inception": 9057, "mlp": 1761, "mlp-i": 2945}
    pairs = interaction_pairs()
    assert len(pairs) == 126 and len({tuple(p) for p in pairs}) == 126


def test_random_discard_player_throws_only_unmelded_cards() -> None:
    player = RandomDiscardPlayer(seed=2)
    player.start_hand(0, 0, parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S"))
    player.will_draw_face_up(parse_card("QD"))
    player.report_draw(0, parse_card("6S"))
    seen = set()
    for _ in range(60):
        card = player.discard()
        assert min_deadwood(player.hand & ~(1 << card)) < min_deadwood(player.hand)
        seen.add(card)
    assert len(seen) > 2  # random among the unmelded cards, not always the highest


@pytest.mark.parametrize("resample", ["deck", "stock"])
def test_random_n_keeps_the_best_scoring_sample(resample: str) -> None:
    deal_seed = derive_seed(7, 3)
    rp_seat = deal_seed & 1
    kinds = [1 if seat == rp_seat else 0 for seat in (0, 1)]
    scores = []
    for k in range(4):
        deck, starter = sample_deck(deal_seed, k, resample)
        seats = stream_players(kinds, sample_seeds(deal_seed, k), wrap=_Watcher)
        hand = play_game(seats, seed=deal_seed, config=SINGLE_ROUND, decks=[deck], first_starter=starter).hands[0]
        scores.append(0 if hand.winner is None else hand.points * (1 if hand.winner == rp_seat else -1))
    rows = record_deal("random-4", deal_seed, resample=resample)
    assert rows and {r[2] for r in rows} <= {max(scores), -max(scores)}
    assert len(rows) <= 2  # last stage: one row per player that discarded
    assert sum(r[2] for r in rows) == 0 or len(rows) == 1
    # RP's row carries the best score; the Simple seat's row its negation.
    assert all(r[2] == (max(scores) if r[3] else -max(scores)) for r in rows)
    assert sum(r[3] for r in rows) <= 1
    assert not any(r[3] for r in record_deal("simple", deal_seed))
    # Replaying only the chosen sample gives the same rows.
    replay = record_deal("random-4", deal_seed, resample=resample, sample=scores.index(max(scores)))
    assert [(r[0], r[2], r[3]) for r in replay] == [(r[0], r[2], r[3]) for r in rows]


def test_discard_is_the_highest_offensive_score_and_defence_can_override_it() -> None:
    offensive = DualInceptionPlayer(seed=1)
    known_run_position(offensive)
    scores = offensive.discard_scores()
    assert len(scores) == 11
    assert offensive.discard() == max(scores, key=lambda c: (scores[c], -c))
    # The blend subtracts defense_weight x the eq. 5 risk of the ISRU estimate from each offensive score.
    blended = DualInceptionPlayer(seed=1, defense_weight=7.5)
    known_run_position(blended)
    risk = discard_risk(blended.estimator().raw_one(blended.knowledge))
    for card, value in blended.discard_scores().items():
        assert value == pytest.approx(scores[card] - 7.5 * risk[card], abs=1e-4)
    assert len({round(float(risk[c]), 6) for c in scores}) > 3  # the risk does tell the cards apart
    # Defence alone: the lowest-risk card among those whose discard lowers deadwood (here 9H 2C 3D 6C).
    defensive = DualInceptionPlayer(seed=1, criterion="defence")
    known_run_position(defensive)
    unmelded = parse_cards("9H 2C 3D 6C")
    expected = min((c for c in range(52) if unmelded >> c & 1), key=lambda c: float(risk[c]))
    assert defensive.discard() == expected


def test_plays_whole_games_with_each_model() -> None:
    for seed, model in enumerate(("dual-inception", "mlp", "mlp-i")):
        result = play_game((DualInceptionPlayer(seed=seed, model=model, dataset="simple"), SimplePlayer(seed=seed + 10)),
                           seed=seed)
        assert result.forfeit is None


def test_generate_and_train_keep_rps_rows_for_random_data(tmp_path) -> None:
    pytest.importorskip("torch")
    from ginbots.training.offense import generate, load
    from ginbots.training.offense_train import train

    generate(tmp_path / "data", "random-2", 12, seed=5, chunk=5, progress=False)
    data = load(tmp_path / "data" / "random-2")
    assert len(list((tmp_path / "data" / "random-2").glob("chunk_*.npz"))) == 3
    assert 0 < data["rp"].sum() < len(data["rp"])
    card = train("mlp", "random-2", tmp_path / "data", tmp_path / "w", epochs=1, log=lambda _: None)
    assert card["data"]["rows_recorded"] == int(data["rp"].sum()) and card["data"]["rows_kept"] == "RP's rows only"
    assert card["data"]["rows"] + card["data"]["identical_rows_merged"] == card["data"]["rows_recorded"]
    assert card["data"]["resample"] == "stock" and len(card["data"]["sha256"]) == 64
    both = train("mlp", "random-2", tmp_path / "data", tmp_path / "w", epochs=1, rows="all", bias_init="mean",
                 average=False, log=lambda _: None)
    assert both["data"]["rows"] == len(data["rp"]) and both["training"]["output_bias_init"] == "mean"
    generate(tmp_path / "data", "random-2", 5, seed=5, chunk=5, resample="deck", progress=False)
    assert load(tmp_path / "data" / "random-2-deck")["rp"].any()
    with pytest.raises(ValueError, match="bias_init must be"):
        train("mlp", "random-2", tmp_path / "data", tmp_path / "w", bias_init="odd")
    with pytest.raises(ValueError, match="rows must be"):
        train("mlp", "random-2", tmp_path / "data", tmp_path / "w", rows="odd")


def test_identical_states_get_their_mean_label() -> None:
    from ginbots.training.offense_train import average_identical

    x = np.array([[1, 0], [0, 1], [1, 0], [1, 0]], dtype=np.float32)
    data = {"score": np.array([10, 4, 20, 30], dtype=np.float32), "deal": np.array([7, 8, 9, 10])}
    reduced, xr, merged = average_identical(data, x)
    assert merged == 2 and xr.tolist() == [[1, 0], [0, 1]]
    assert reduced["score"].tolist() == [20, 4] and reduced["deal"].tolist() == [7, 8]


def test_training_resumes_from_its_checkpoint(tmp_path) -> None:
    pytest.importorskip("torch")
    from ginbots.training.offense import generate
    from ginbots.training.offense_train import train

    generate(tmp_path / "data", "random-2", 10, seed=3, chunk=10, progress=False)
    full = train("mlp", "random-2", tmp_path / "data", tmp_path / "a", epochs=3, decay_every=2, log=lambda _: None)
    logs: list[str] = []

    class Stop(Exception):
        pass

    def stop_after_two(line: str) -> None:
        logs.append(line)
        if "epoch 2/3" in line:
            raise Stop

    with pytest.raises(Stop):
        train("mlp", "random-2", tmp_path / "data", tmp_path / "b", epochs=3, decay_every=2, log=stop_after_two)
    # Each epoch is logged before its checkpoint is written: the stop leaves epoch 1 on disk.
    resumed = train("mlp", "random-2", tmp_path / "data", tmp_path / "b", epochs=3, decay_every=2,
                    log=logs.append)
    assert any("resuming after epoch 1" in line for line in logs)
    assert resumed["training"]["history"] == full["training"]["history"]
    assert resumed["sha256"] == full["sha256"]


def test_authors_macro_features_follow_their_code() -> None:
    from ginbots.players.dual_inception import authors_macro_features

    hand = parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S")
    # One run, one set, deadwood 20; hits 2C 6C 9C (8D would leave five unmelded cards, not four).
    np.testing.assert_array_equal(authors_macro_features(np.array([hand], dtype=np.uint64))[0], [1, 1, 20, 3])
    # Their run counter is not reset between suits: QC KC AH is a "run" to them.
    wrap = parse_cards("QC KC AH 5S 7S 9D JD 2H 4H 6H")
    assert authors_macro_features(np.array([wrap], dtype=np.uint64))[0][0] == 1
    assert network_input(np.array([hand], dtype=np.uint64), np.zeros(52), "authors")[0, 104:].tolist() == [1, 1, 20, 3]
    with pytest.raises(ValueError, match="features must be one of"):
        network_input(np.array([hand], dtype=np.uint64), np.zeros(52), "raw")


def test_unmelded_candidates_are_the_cards_outside_one_optimal_meld_set() -> None:
    player = DualInceptionPlayer(seed=1, candidates="unmelded")
    player.start_hand(0, 0, parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S"))
    player.hand |= 1 << parse_card("QD")
    assert player.candidate_discards() == parse_cards("KH AH 7D 2S QD")
    legal = DualInceptionPlayer(seed=1)
    legal.start_hand(0, 0, parse_cards("3C 4C 5C 9H 9S 9D KH AH 7D 2S"))
    legal.hand |= 1 << parse_card("QD")
    assert legal.candidate_discards() == legal.hand


def test_worst_samples_are_recorded_beside_the_best(tmp_path) -> None:
    pytest.importorskip("numba")
    from ginbots.training.offense import generate, load

    generate(tmp_path, "random-16", 20, chunk=20, worst=True, progress=False)
    data = load(tmp_path / "random-16-worst")
    rp = data["rp"]
    assert data["worst"].any() and (~data["worst"]).any()
    for deal in np.unique(data["deal"]):
        mine = data["deal"] == deal
        best = data["score"][mine & rp & ~data["worst"]]
        worst = data["score"][mine & rp & data["worst"]]
        if len(best) and len(worst):  # (a hand can end before RP's first discard: no row of it)
            assert worst.max() <= best.min()


def test_a_network_says_which_macro_features_it_was_trained_on(tmp_path) -> None:
    """features=auto (the default) feeds a network the macro features its model card names."""
    import json
    import shutil

    from ginbots.estimators.weights import card_path, find_weights
    from ginbots.players.dual_inception import OffensiveScore, weights_file

    shipped = find_weights(weights_file("dual-inception", "simple"))
    assert OffensiveScore(path=str(shipped)).features == "document"
    copy = tmp_path / shipped.name
    shutil.copy(shipped, copy)
    card = json.loads(card_path(shipped).read_text())
    card_path(copy).write_text(json.dumps({**card, "features": "authors"}))
    assert OffensiveScore(path=str(copy)).features == "authors"
