"""A challenge entry written in Java, played by the bundle's runner through
experiments/outside-opponents/java/EntryServer.java (the bridge protocol, served for any
ginrummy.GinRummyPlayer), compiled against the project's stand-in ginrummy package."""

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import Passive

from ginbots.connect.host import BridgeStartError, ProcessPlayer
from ginbots.game.engine import GameConfig, play_game
from ginbots.players.baselines import SimplePlayer

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "experiments" / "outside-opponents" / "java"
pytestmark = pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
CONFIG = GameConfig(time_budget=None)


@pytest.fixture(scope="module")
def classes(tmp_path_factory):
    out = tmp_path_factory.mktemp("entries")
    sources = [*(ROOT / "submission" / "java" / "stub" / "ginrummy").glob("*.java"), SERVER / "EntryServer.java",
               ROOT / "ginbots" / "connect" / "shim" / "java" / "ginbots" / "Json.java", SERVER / "test" / "PassiveEntry.java"]
    subprocess.run(["javac", "--release", "8", "-Xlint:all", "-Werror", "-d", str(out), *map(str, sources)], check=True,
                   capture_output=True, text=True)
    return out


def entry(classes, name):
    return ProcessPlayer(["java", "-cp", str(classes), "ginbots.EntryServer", name], label=name)


def played(player, seed, player_seeds=(11, 12)):
    try:
        return play_game([player, SimplePlayer(seed=2)], seed=seed, config=CONFIG, player_seeds=player_seeds,
                         trace=True)
    finally:
        if isinstance(player, ProcessPlayer):
            player.close()


def without_labels(trace):
    return {k: v for k, v in trace.items() if k != "players"}


@pytest.mark.parametrize("seed", [1, 2])
def test_a_java_entry_plays_exactly_as_the_same_policy_written_in_python(classes, seed):
    via_java = played(entry(classes, "PassiveEntry"), seed)
    direct = played(Passive(seed=0), seed)
    assert via_java.forfeit is None and len(via_java.hands) >= 2
    assert without_labels(via_java.trace) == without_labels(direct.trace)


def test_the_games_seed_reseeds_the_entrys_own_random_so_a_match_replays(classes):
    first = played(entry(classes, "PassiveEntry$RandomEntry"), 5)
    again = played(entry(classes, "PassiveEntry$RandomEntry"), 5)
    other_seed = played(entry(classes, "PassiveEntry$RandomEntry"), 5, player_seeds=(13, 12))
    assert first.forfeit is None
    assert without_labels(first.trace) == without_labels(again.trace)
    assert without_labels(first.trace) != without_labels(other_seed.trace)


def test_an_entry_that_orders_cards_by_their_identity_hashes_replays_its_games(classes):
    # PassiveEntry$HashOrderEntry discards the first card of a hash set a parallel stream built; before the
    # server gave every card its identity hash at start, six runs of this seed played six different games.
    traces = {repr(without_labels(played(entry(classes, "PassiveEntry$HashOrderEntry"), 5).trace)) for _ in range(3)}
    assert len(traces) == 1


def test_an_entry_that_throws_forfeits_its_game_with_the_entrys_exception(classes):
    res = played(entry(classes, "PassiveEntry$BrokenEntry"), 1)
    assert res.forfeit is not None and res.forfeit.seat == 0 and res.forfeit.action == "discard"
    assert "protocol error 6" in res.forfeit.detail
    assert "IllegalStateException: no discard here" in res.forfeit.detail


def test_an_entry_that_is_not_on_the_class_path_fails_at_start_naming_it(classes):
    with pytest.raises(BridgeStartError, match="could not load entry NoSuchEntry"):
        entry(classes, "NoSuchEntry")


def test_a_line_that_is_not_a_protocol_message_ends_the_server_with_the_malformed_code(classes):
    done = subprocess.run(["java", "-cp", str(classes), "ginbots.EntryServer", "PassiveEntry"],
                          input='{"type":"hello","protocol":1,"id":1}\n[1, 2\n', capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert '"type":"hello"' in done.stdout.splitlines()[0]
    assert "line 2 is not a protocol message" in done.stdout.splitlines()[-1]
