import pytest

from ginbots.players.base import Hyperparameter, Player, resolve_params
from ginbots.players.baselines import RandomPlayer
from ginbots.players.registry import (
    PlayerSpec,
    load_params_file,
    parse_spec,
    player_class,
)


@pytest.mark.parametrize("kwargs, message", [
    (dict(name="x", kind=int, default=5, low=10, high=1), "empty"),
    (dict(name="x", kind=int, default=50, low=0, high=10), "outside"),
    (dict(name="x", kind=float, default=1.0, low=0.0, high=2.0, log=True), "log-scale"),
    (dict(name="x", kind=str, default="a"), "choices"),
    (dict(name="x", kind=str, default="z", choices=("a", "b")), "not one of"),
    (dict(name="bad name", kind=bool, default=True), "identifier"),
    (dict(name="x", kind=list, default=[]), "kind"),
    (dict(name="x", kind=float, default=1.0, low=0.0, high=float("inf")), "not finite"),
])
def test_bad_hyperparameter_declarations_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Hyperparameter(**kwargs)


def test_values_are_checked_against_the_declaration():
    hp = Hyperparameter("depth", int, 1, 1, 3)
    assert hp.coerce(2) == 2 and hp.coerce(2.0) == 2
    for bad in (0, 4, 1.5, "2", True):
        with pytest.raises(ValueError, match="depth"):
            hp.coerce(bad)


def test_resolve_params_fills_defaults_and_rejects_unknown_names():
    assert resolve_params(RandomPlayer, {}) == {"take_probability": 0.5}
    assert RandomPlayer(seed=1, take_probability=0.25).params["take_probability"] == 0.25
    with pytest.raises(ValueError, match="no hyperparameter bogus"):
        RandomPlayer(seed=1, bogus=3)
    with pytest.raises(ValueError, match=r"\[0.0, 1.0\]"):
        RandomPlayer(seed=1, take_probability=2)


def test_specs_parse_names_inline_params_and_files(tmp_path):
    assert parse_spec("simple") == PlayerSpec("simple", {}, "simple")
    spec = parse_spec("random:take_probability=0.1")
    assert spec.params == {"take_probability": 0.1} and isinstance(spec.make(seed=1), RandomPlayer)
    path = tmp_path / "p.json"
    path.write_text('{"params": {"take_probability": 0.9}, "study": "x"}')
    assert parse_spec(f"random:{path}").params == {"take_probability": 0.9}
    assert parse_spec("random", params_file=path).params == {"take_probability": 0.9}
    with pytest.raises(ValueError, match="no shipped tuned parameters.*give the file: random:PATH.json"):
        parse_spec("random:tuned")
    with pytest.raises(KeyError, match="registered"):
        parse_spec("nobody")
    path.write_text("{oops")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_params_file(path)


def test_rng_is_seeded_explicitly():
    a, b = RandomPlayer(seed=4), RandomPlayer(seed=4)
    assert [a.rng.random() for _ in range(3)] == [b.rng.random() for _ in range(3)]
    a.new_game(9)
    b.new_game(9)
    assert a.rng.random() == b.rng.random()
    assert issubclass(player_class("simple"), Player)


def test_simple_knock_at_sets_its_knocking_threshold() -> None:
    from ginbots.game.engine import play_game
    from ginbots.players.registry import parse_spec

    gin_only = parse_spec("simple:knock_at=0")
    assert gin_only.make(seed=1).params == {"knock_at": 0}
    knocks = {0: [], 10: []}
    for game in range(6):
        for knock_at in (0, 10):
            players = [parse_spec(f"simple:knock_at={knock_at}").make(seed=game), parse_spec("simple").make(seed=99)]
            result = play_game(players, seed=game)
            knocks[knock_at] += [h.knocker_deadwood for h in result.hands if h.knocker == 0]
    assert knocks[0] and all(dw == 0 for dw in knocks[0])
    assert any(dw > 0 for dw in knocks[10])
    with pytest.raises(ValueError, match="knock_at"):
        parse_spec("simple:knock_at=11").make(seed=1)


def test_the_engine_skips_only_reports_that_do_nothing() -> None:
    """A report left as the base class's no-op is not called (nothing can happen in it); one that does
    anything, even only store its argument, is called as before."""
    from ginbots.game.engine import _is_no_op, play_game
    from ginbots.players.baselines import SimplePlayer

    class Listening(SimplePlayer):
        def report_scores(self, scores):
            self.heard = scores

    quiet, listening = SimplePlayer(seed=1), Listening(seed=1)
    assert _is_no_op(quiet.report_scores) and not _is_no_op(listening.report_scores)
    assert not _is_no_op(quiet.report_discard)  # Simple tracks its hand there
    result = play_game([listening, SimplePlayer(seed=2)], seed=3)
    assert tuple(listening.heard) == tuple(result.hands[-1].scores_after)
