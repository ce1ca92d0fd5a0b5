"""A third-party package registers a bot through the entry-point group and it just works."""

import textwrap

from ginbots.cli import main
from ginbots.players.registry import available_players, parse_spec


def _install_fake_plugin(tmp_path, monkeypatch):
    (tmp_path / "thirdparty_bot.py").write_text(textwrap.dedent('''
        from ginbots.players.baselines import SimplePlayer
        from ginbots.players.base import Hyperparameter

        class CautiousBot(SimplePlayer):
            """A third-party bot: Simple that never takes the face-up card."""
            name = "cautious"
            hyperparameters = (Hyperparameter("patience", int, 3, 0, 9, doc="unused knob"),)

            def will_draw_face_up(self, card):
                self.face_up = card
                return False
    '''))
    dist = tmp_path / "thirdparty_bot-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: thirdparty-bot\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ginbots.players]\ncautious = thirdparty_bot:CautiousBot\n")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_entry_point_bots_are_listed_and_playable(tmp_path, monkeypatch, capsys):
    _install_fake_plugin(tmp_path, monkeypatch)
    assert available_players()["cautious"] == "thirdparty_bot:CautiousBot"
    assert main(["list", "--params"]) == 0
    listed = capsys.readouterr().out
    assert "cautious" in listed and "patience = 3" in listed
    assert parse_spec("cautious:patience=5").params == {"patience": 5}
    assert main(["match", "cautious", "simple", "--games", "6", "--seed", "1", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "cautious vs simple: 6 games" in out and "forfeits: none" in out


def test_every_bundle_entry_point_is_a_builtin():
    """A submission archive runs without the installed distribution's metadata, so each player the
    package declares must also be in BUILTIN_PLAYERS (the champion once was not, and its archive failed)."""
    from importlib import metadata

    from ginbots.players.registry import BUILTIN_PLAYERS, ENTRY_POINT_GROUP

    declared = {ep.name: ep.value for ep in metadata.distribution("ginbots").entry_points
                if ep.group == ENTRY_POINT_GROUP}
    assert declared == BUILTIN_PLAYERS
