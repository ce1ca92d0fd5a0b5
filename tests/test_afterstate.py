"""The champion's afterstate value: its data, its encoding at play and in training, its network."""

import json

import numpy as np
import pytest

from ginbots.game.cards import NUM_CARDS
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.afterstate_value import (AFTERSTATE_WIDTH, CARD_PLANES, AfterstateValue, candidate_input,
                                             position_input, shared_afterstate_value, suit_columns,
                                             suit_mean_values)
from ginbots.players.baselines import SimplePlayer
from ginbots.players.champion import ChampionPlayer
from ginbots.training.afterstate_data import ExploringChampion, record_games
from ginbots.training.afterstate_train import inputs

TWO_HANDS = GameConfig(time_budget=None, max_hands_per_game=2)


def _hands(result):
    return [(h.winner, h.points) for h in result.hands], result.scores


@pytest.mark.parametrize("recorder_params, champion_params", [
    ({}, {"afterstate_weight": 0.0}),  # the first generation: the champion without the network
    ({"afterstate_weight": 0.6}, {}),  # a later one: today's default champion
])
def test_the_recorder_without_exploring_plays_the_champions_own_games(recorder_params, champion_params):
    plain = play_game([ChampionPlayer(seed=5, worlds=16, **champion_params), SimplePlayer(seed=6)], seed=31,
                      config=TWO_HANDS)
    recorder = ExploringChampion(seed=5, worlds=16, explore=0.0, **recorder_params)
    recorded = play_game([recorder, SimplePlayer(seed=6)], seed=31, config=TWO_HANDS)
    assert _hands(recorded) == _hands(plain)
    assert recorder.rows and not any(r["explored"] for r in recorder.rows)


def test_rows_are_the_positions_after_each_discard_labelled_with_the_hands_points():
    data = record_games([11, 12], explore=0.5, opponents=("simple",))
    assert len(data["points"]) > 20 and data["holds"].shape == (len(data["points"]), NUM_CARDS)
    for after, thrown, pile in zip(data["after"], data["thrown"], data["pile"]):
        assert int(after).bit_count() == 10 and not int(after) >> int(thrown) & 1 and not int(pile) >> int(thrown) & 1
    assert data["explored"].any() and not data["explored"].all()
    # Every row of one hand carries that hand's points; hands differ.
    for episode in np.unique(data["episode"]):
        assert len(set(data["points"][data["episode"] == episode])) == 1
    assert len(set(data["points"])) > 1
    # At most one knock a hand, and only on a hand's last row.
    for episode in np.unique(data["episode"]):
        knocked = data["knocked"][data["episode"] == episode]
        assert knocked.sum() <= 1 and (knocked.sum() == 0 or knocked[-1])


def test_play_and_training_encode_a_position_alike():
    """The row the recorder saved for a discard equals the live encoding of that candidate before the
    discard and of the position after it (at the knock decision)."""
    live = []

    class Checked(ExploringChampion):
        def discard(self):
            card = super().discard()
            row = self.hand_rows[-1]
            live.append((candidate_input(self.knowledge, [card], row["holds"])[0], row))
            return card

        def knock(self):
            row = self.hand_rows[-1]
            live.append((position_input(self.knowledge, row["holds"])[0], row))
            return super().knock()

    play_game([Checked(seed=3, worlds=16, explore=0.0), SimplePlayer(seed=4)], seed=8, config=TWO_HANDS)
    assert live
    for encoded, row in live:
        data = {k: np.array([v]) for k, v in row.items()}
        data["holds"] = row["holds"][None, :]
        assert encoded.shape == (AFTERSTATE_WIDTH,)
        np.testing.assert_array_equal(inputs(data)[0], encoded)


def _recorded_folder(folder, seeds=(21, 22)):
    """Two games' rows against Simple saved as one data folder's single chunk; the rows."""
    from ginbots.arena.chunks import save_chunk

    data = record_games(list(seeds), explore=0.3, opponents=("simple",))
    folder.mkdir()
    save_chunk(folder / "chunk_00000.npz", **data)
    return data


def test_a_trained_network_loads_and_steers_the_champions_discards(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from ginbots.training.afterstate_train import train

    data = _recorded_folder(tmp_path / "data")
    path = train(tmp_path / "data", tmp_path / "net", epochs=2)
    play_on_path = train(tmp_path / "data", tmp_path / "net", epochs=1, play_on=True)
    net = AfterstateValue(str(path))
    predicted = net(inputs(data))
    assert predicted.shape == (len(data["points"]),) and np.isfinite(predicted).all()
    assert np.ptp(predicted) > 0

    monkeypatch.setenv("GINBOTS_WEIGHTS", str(path.parent))
    shared_afterstate_value.cache_clear()

    import ginbots.players.champion as champion_module

    calls, leaves = [], []
    original, original_leaf = champion_module.afterstate_values, champion_module.play_on_value
    monkeypatch.setattr(champion_module, "afterstate_values", lambda *a: calls.append(a) or original(*a))
    monkeypatch.setattr(champion_module, "play_on_value", lambda *a: leaves.append(a) or original_leaf(*a))

    def play(weight):
        # The estimator's worlds (no filter), whose two hands here reach a searched knock, so the leaf is asked.
        bot = ChampionPlayer(seed=2, worlds=16, afterstate_weight=weight, knock_leaf="learned", opponent_filter=False)
        bot.prepare()
        return play_game([bot, SimplePlayer(seed=3)], seed=3, config=TWO_HANDS), bot

    (steered, bot), (again, _) = play(5.0), play(5.0)
    assert steered.forfeit is None and _hands(steered) == _hands(again) and calls and leaves
    assert {str(path), str(play_on_path)} <= set(map(str, bot.weight_files()))
    shared_afterstate_value.cache_clear()


def test_td_targets_bootstrap_within_a_hand_and_end_on_its_points():
    from ginbots.training.afterstate_train import td_targets

    outcome = np.array([10, 10, 10, -4, -4], dtype=np.float32)
    episode = np.array([1, 1, 1, 2, 2])
    values = np.array([0, 2, 6, 0, 8], dtype=np.float32)
    lam = 0.5
    last = 10
    middle = 0.5 * 6 + 0.5 * last
    first = 0.5 * 2 + 0.5 * middle
    np.testing.assert_allclose(td_targets(outcome, episode, values, lam), [first, middle, last, 0.5 * 8 + 0.5 * -4, -4])
    np.testing.assert_allclose(td_targets(outcome, episode, values, 1.0), outcome)


def test_the_held_out_games_cover_every_opponent_of_a_pool_of_five():
    from ginbots.training.afterstate_train import FOLDER_EPISODES, held_out

    games = np.arange(200)
    # Two folders as load numbers them: a pool of four (every fifth game, as always) and one of five.
    episode = np.concatenate([games * 200 + 7, FOLDER_EPISODES + games * 200 + 7])
    game, held = held_out(episode, [4, 5])
    first, second = held[:200], held[200:]
    np.testing.assert_array_equal(first, games % 5 == 0)
    assert second.sum() == 40  # still one game in five
    for opponent in range(5):  # each of the five is both held out and trained on
        mine = games % 5 == opponent
        assert 0 < second[mine].sum() < mine.sum()
    np.testing.assert_array_equal(held_out(episode)[1], game % 5 == 0)  # without pools: every fifth game
    # plain "every fifth game" would hold out only the first opponent of the pool of five
    assert set(games[(game[200:] % 5 == 0)] % 5) == {0}


def test_the_default_champion_reads_and_packs_its_afterstate_network(tmp_path):
    import zipfile
    from pathlib import Path

    from ginbots.connect.package import build_package

    def names(bot):
        return {Path(p).name for p in bot.weight_files()}

    assert ChampionPlayer(seed=0).params["afterstate_weight"] == 0.6
    assert {"afterstate_value.onnx", "afterstate_value.card.json"} <= names(ChampionPlayer(seed=0))
    assert "afterstate_value.onnx" not in names(ChampionPlayer(seed=0, afterstate_weight=0.0))
    archive = build_package("champion", out_dir=tmp_path)
    assert "weights/afterstate_value.onnx" in zipfile.ZipFile(archive).namelist()


def test_the_draw_term_values_the_positions_each_draw_leaves():
    """``draw_values``: the network's best position after taking the face-up card (then any discard but
    that card) less the stock draws' best positions weighted by their chance of lying in the stock,
    each row encoded as the seat would see that position before its discard."""
    import copy

    from ginbots.game.cards import cards_of
    from ginbots.players.afterstate_value import draw_values

    seen = []

    class Asking(ChampionPlayer):
        def draw_term(self, card, stock_cards, in_stock, holds):
            seen.append((copy.copy(self.knowledge), list(self.knowledge.pile), card, stock_cards, in_stock, holds))
            return super().draw_term(card, stock_cards, in_stock, holds)

    play_game([Asking(seed=5, worlds=16, afterstate_draw=1.0), SimplePlayer(seed=6)], seed=9, config=TWO_HANDS)
    assert seen
    net = shared_afterstate_value()
    for k, pile, card, stock_cards, in_stock, holds in seen[:4]:
        k.pile = pile

        def best(hand: int, banned: int, pile_after: list[int], stock: int) -> float:
            view = copy.copy(k)
            view.hand, view.pile, view.stock_size = hand, pile_after, stock
            candidates = [c for c in cards_of(hand) if c != banned]
            return float(net(candidate_input(view, candidates, holds)).max())

        take = best(k.hand | 1 << card, card, pile[:-1], k.stock_size)
        stock = [best(k.hand | 1 << s, -1, pile, k.stock_size - 1) for s in stock_cards]
        expected = take - float(np.dot(stock, in_stock) / in_stock.sum())
        assert draw_values(k, card, stock_cards, in_stock, holds) == pytest.approx(expected, abs=1e-4)


def test_record_games_hands_the_afterstate_weight_to_both_recording_champions(monkeypatch):
    """--afterstate-weight records a later generation: every recording champion (both seats of self-play) plays
    with that weight; the default records the first generation (0), as the shipped network's data was."""
    import ginbots.training.afterstate_data as recorder

    weights: list[float] = []

    class Noting(ExploringChampion):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            weights.append(self.params["afterstate_weight"])

    monkeypatch.setattr(recorder, "ExploringChampion", Noting)
    monkeypatch.setattr(recorder, "play_game", lambda players, seed: None)  # the seats, not the games
    recorder.record_games([1, 2], explore=0.0, opponents=("champion", "simple"), afterstate_weight=1.0)
    assert weights == [1.0, 1.0, 1.0]  # self-play (two recorders), then one against Simple
    weights.clear()
    recorder.record_games([1], explore=0.0, opponents=("champion",))
    assert weights == [0.0, 0.0]


def test_suit_orders_average_the_network_over_suit_permutations():
    """With all 24 suit orders the value no longer depends on which suit is which: a row and the
    same row with its suits renamed get the same mean; one order is the network as it reads."""
    rng = np.random.default_rng(3)
    rows = (rng.random((5, AFTERSTATE_WIDTH)) < 0.2).astype(np.float32)
    plain = shared_afterstate_value()(rows).astype(np.float64)
    assert np.allclose(suit_mean_values(rows, 1), plain)
    renamed = rows[:, suit_columns(24)[17]]  # one of the 23 other orders
    assert not np.allclose(shared_afterstate_value()(renamed), plain, atol=1e-3)  # the network alone cares
    assert np.allclose(suit_mean_values(renamed, 24), suit_mean_values(rows, 24), atol=1e-4)
    four = suit_mean_values(rows, 4)
    by_hand = np.mean([shared_afterstate_value()(rows[:, cols]) for cols in suit_columns(4)], axis=0)
    assert np.allclose(four, by_hand, atol=1e-5)
    scalars = slice(CARD_PLANES * NUM_CARDS, AFTERSTATE_WIDTH)
    assert (renamed[:, scalars] == rows[:, scalars]).all()  # deadwood, stock, turns keep their place


def test_knock_rows_are_labelled_with_the_points_the_engine_pays_a_knock():
    """Every searched knock decision is a row whose label scores knocking against the true hand: where the
    champion did knock, that is exactly what the engine paid (the same melds, its layoffs and bonuses)."""
    from ginbots.training.knock_data import KNOCK_FIELDS, KnockRecorder, play_recorded

    data = play_recorded([1, 2, 3, 4, 5, 6], KnockRecorder, KNOCK_FIELDS, opponents=("simple", "champion"))
    knocked = data["knocked"]
    assert len(knocked) > knocked.sum() > 0
    np.testing.assert_array_equal(data["knock_points"][knocked], data["points"][knocked])
    assert ((data["deadwood"] >= 1) & (data["deadwood"] <= 10)).all()
    # No opponent to label with: the recorder refuses (the engine forfeits it), it never guesses.
    unwatched = play_game([KnockRecorder(seed=1), SimplePlayer(seed=2)], seed=4, config=TWO_HANDS)
    assert unwatched.forfeit is not None and "watch" in unwatched.forfeit.detail


def test_knock_data_records_its_opponents_and_refuses_a_change_or_an_unknown_player(tmp_path):
    """The recorder plays without the knock network whatever the default (a seed keeps its rows); the pool
    is part of a folder's settings, so a resume against other opponents is refused, and an unknown player
    fails before any game."""
    from ginbots.training.knock_data import KnockRecorder, generate

    assert KnockRecorder(seed=1).params["knock_net"] == 0 and KnockRecorder(seed=1, knock_net=1).params["knock_net"] == 1
    generate(tmp_path / "a", 1, chunk=1, opponents=("simple:knock_at=0",), progress=False)
    settings = json.loads((tmp_path / "a" / "settings.json").read_text())
    assert settings["opponents"] == ["simple:knock_at=0"]
    with pytest.raises(ValueError, match="opponents"):
        generate(tmp_path / "a", 2, chunk=1, opponents=("simple",), progress=False)
    with pytest.raises(KeyError, match="nosuch"):
        generate(tmp_path / "b", 1, chunk=1, opponents=("simple", "nosuch"), progress=False)
    assert not (tmp_path / "b").exists()


def test_a_trained_knock_network_enters_the_champions_knock_value(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from ginbots.arena.chunks import save_chunk
    from ginbots.training.afterstate_train import train
    from ginbots.training.knock_data import KNOCK_FIELDS, KnockRecorder, play_recorded

    data = play_recorded([21, 22, 23, 24, 25, 26], KnockRecorder, KNOCK_FIELDS, opponents=("simple",))
    for folder in ("data", "more"):  # two data folders train one network; the card names both
        (tmp_path / folder).mkdir()
        save_chunk(tmp_path / folder / "chunk_00000.npz", **data)
    path = train([tmp_path / "data", tmp_path / "more"], tmp_path / "net", epochs=2, knock=True)
    assert path.name == "afterstate_knock.onnx" and np.isfinite(AfterstateValue(str(path))(inputs(data))).all()
    card = json.loads(path.with_name("afterstate_knock.card.json").read_text())["data"]
    assert card["rows"] == 2 * len(data["points"]) and card["folder"] == str(tmp_path / "data")
    assert [a["folder"] for a in card["also"]] == [str(tmp_path / "more")] and card["sha256"] == card["also"][0]["sha256"]
    monkeypatch.setenv("GINBOTS_WEIGHTS", str(path.parent))
    shared_afterstate_value.cache_clear()

    import ginbots.players.champion as champion_module

    asked = []
    original = champion_module.knock_now_value
    monkeypatch.setattr(champion_module, "knock_now_value", lambda *a: asked.append(original(*a)) or asked[-1])

    def play(blend, **params):
        bot = ChampionPlayer(seed=2, worlds=16, knock_net=blend, **{"opponent_filter": False, **params})
        bot.prepare()
        return play_game([bot, SimplePlayer(seed=3)], seed=3, config=TWO_HANDS), bot

    (blended, bot), (again, _) = play(1.0), play(1.0)
    assert blended.forfeit is None and _hands(blended) == _hands(again) and asked
    assert str(path) in set(map(str, bot.weight_files()))
    asked.clear()
    play(0.0)
    assert not asked  # off: the network is never read
    # With the filter on against Simple its hands are trusted at some knocks: "untrusted" skips the network there.
    counts = {}
    for when in ("always", "untrusted"):
        asked.clear()
        play(1.0, opponent_filter=True, knock_net_when=when)
        counts[when] = len(asked)
    assert counts["always"] > counts["untrusted"]
    shared_afterstate_value.cache_clear()


def test_afterstate_data_records_a_pool_other_than_the_default_and_refuses_an_unknown_player(tmp_path):
    """A folder recorded against another pool keeps the pool in its settings (a resume against other
    opponents is refused); the default pool's folders keep the settings they always had."""
    from ginbots.training.afterstate_data import generate

    generate(tmp_path / "pool", 1, chunk=1, opponents=("keats:tuned",), progress=False)
    assert json.loads((tmp_path / "pool" / "settings.json").read_text())["opponents"] == ["keats:tuned"]
    with pytest.raises(ValueError, match="opponents"):
        generate(tmp_path / "pool", 2, chunk=1, opponents=("simple",), progress=False)
    with pytest.raises(KeyError, match="nosuch"):
        generate(tmp_path / "bad", 1, chunk=1, opponents=("simple", "nosuch"), progress=False)
    assert not (tmp_path / "bad").exists()


def test_fine_tuning_starts_from_the_given_network_and_refuses_one_of_other_widths(tmp_path):
    """``init``: with no epoch that beats the network as given, the export is that network, output for output;
    a network of other widths is refused by name."""
    pytest.importorskip("torch")
    from ginbots.training.afterstate_train import train

    data = _recorded_folder(tmp_path / "data")
    first = train(tmp_path / "data", tmp_path / "first", epochs=1)
    again = train(tmp_path / "data", tmp_path / "again", epochs=0, init=first)
    x = inputs(data)
    assert np.allclose(AfterstateValue(str(again))(x), AfterstateValue(str(first))(x), atol=1e-4)
    card = json.loads(again.with_name("afterstate_value.card.json").read_text())
    assert card["training"]["init"]["file"] == str(first)
    with pytest.raises(ValueError, match="widths"):
        train(tmp_path / "data", tmp_path / "wide", epochs=1, init=first, hidden=(32,))
