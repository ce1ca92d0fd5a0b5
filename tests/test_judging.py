"""Local judging a hostile entrant cannot cheat (docs/robustness.md, threat model).

Each attack is played by a real third-party bot: its own package with its own entry point, found
on the path as an installed distribution is, so the runner isolates it by default. The bot
writes what it learned to its stderr (which the runner keeps in a log); the tests read the logs
and the results and assert each attack failed. The sandbox needs bubblewrap (``.ci/run``
installs Debian's ``bubblewrap``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from ginbots.arena.match import MatchConfig, derive_seed, run_match, schedule
from ginbots.arena.tournament import TournamentConfig, load_games, run_tournament
from ginbots.cli import main
from ginbots.connect import sandbox
from ginbots.connect.host import parse_checked
from ginbots.game.cards import cards_of
from ginbots.game.engine import GameConfig
from ginbots.game.state import GinState
from ginbots.players.baselines import SimplePlayer

#: A marker in the argv of the grandchild the bot leaves behind, so the test can look for it.
ORPHAN_MARK = "97.5310"

EVIL_MODULE = '''
"""A hostile entrant: plays like Simple, and tries every way it knows to learn or change what it must not."""
import ctypes, json, os, random, subprocess, sys
from pathlib import Path

from ginbots.arena.match import derive_seed
from ginbots.game.cards import cards_of
from ginbots.game.state import GinState
from ginbots.players.baselines import SimplePlayer
from ginbots.players.base import Hyperparameter

# Module-level code: if the runner imports this module, Simple in the runner forfeits every game.
def _sabotage(self, *args):
    raise RuntimeError("sabotaged by the evil package's import-time code")
if "bridge" not in sys.argv[0]:  # anywhere but the bot's own process
    SimplePlayer.discard = _sabotage
    SimplePlayer.will_draw_face_up = _sabotage
    print("EVIL module imported in pid", os.getpid(), file=sys.stderr)

TARGETS = json.loads((Path(__file__).parent / "targets.json").read_text())


def log(kind, **fields):
    print("EVIL " + json.dumps({"kind": kind, **fields}), file=sys.stderr, flush=True)


def public_deal(engine_seed):
    state = GinState(engine_seed, deal=False)
    state.next_hand()
    return state.hands


class Evil(SimplePlayer):
    """Simple, plus every attack of the judging tests."""
    name = "evil"
    hyperparameters = SimplePlayer.hyperparameters + (
        Hyperparameter("search", int, 20, 0, 1000, doc="public match seeds tried"),)

    probed = False

    def new_game(self, seed=None):
        super().new_game(seed)
        self.given_seed = seed
        self.first_hand = True

    def recover(self, seat, hand):
        """The opponent's hand, if the public seed derivation gives the deal away."""
        for s in range(self.params["search"]):
            for i in range(64):
                if self.given_seed in (derive_seed(s, i, 2), derive_seed(s, i, 3)):
                    hands = public_deal(derive_seed(s, i // 2, 1))
                    if hands[seat] == hand:
                        return hands[1 - seat]
                hands = public_deal(derive_seed(s, i, 1))
                if hands[seat] == hand:
                    return hands[1 - seat]
        return None

    def start_hand(self, seat, starter, hand):
        super().start_hand(seat, starter, hand)
        if self.first_hand:
            self.first_hand = False
            found = self.recover(seat, hand)
            unknown = [c for c in range(52) if not hand >> c & 1]
            guess = cards_of(found) if found is not None else random.Random(self.given_seed).sample(unknown, 10)
            log("predict", found=found is not None, seat=seat, hand=cards_of(hand), opponent=guess)
        if not Evil.probed:
            Evil.probed = True
            self.probe()

    def probe(self):
        out = {"pid": os.getpid(), "ppid": os.getppid(), "env": sorted(os.environ)}
        procs = {}
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    procs[pid] = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\\0", b" ").decode()[:300]
                except OSError:
                    procs[pid] = None
        out["procs"] = procs
        stolen = {}
        for pid in procs:
            if int(pid) == os.getpid():
                continue
            try:
                with open(f"/proc/{pid}/mem", "rb") as fh:
                    stolen[pid] = "opened mem"
            except OSError:
                pass
            try:
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    try:
                        os.close(os.open(f"/proc/{pid}/fd/{fd}", os.O_WRONLY))
                        stolen[f"{pid}/fd/{fd}"] = "writable"
                    except OSError:
                        pass
            except OSError:
                pass
            try:
                libc = ctypes.CDLL(None, use_errno=True)
                if libc.ptrace(16, int(pid), 0, 0) == 0:  # PTRACE_ATTACH
                    stolen[f"ptrace {pid}"] = "attached"
                    libc.ptrace(17, int(pid), 0, 0)  # PTRACE_DETACH
            except OSError:
                pass
        out["stolen"] = stolen
        files = {}
        for path in TARGETS["folders"]:
            try:
                listed = os.listdir(path)
            except OSError as exc:
                listed = f"error {exc.errno}"
            try:
                with open(os.path.join(path, "games.jsonl"), "a") as fh:
                    fh.write(json.dumps(TARGETS["forged"]) + "\\n")
                wrote = True
            except OSError:
                wrote = False
            files[path] = {"listed": listed, "wrote": wrote}
        for path in TARGETS["files"]:
            try:
                files[path] = {"read": len(Path(path).read_bytes())}
            except OSError:
                files[path] = {"read": None}
        out["files"] = files
        try:
            subprocess.Popen(["setsid", "sleep", "ORPHAN_MARK"], start_new_session=True)
            out["orphan"] = "started"
        except OSError as exc:
            out["orphan"] = f"error {exc}"
        log("probe", **out)
'''


@pytest.fixture
def evil(tmp_path, monkeypatch):
    """The hostile package on the path, as an installed distribution would be; returns its folder."""
    assert sandbox.bubblewrap(), "these tests need bubblewrap (apt install bubblewrap; .ci/run installs it)"
    package = tmp_path / "site"
    package.mkdir()
    (package / "evilpkg.py").write_text(textwrap.dedent(EVIL_MODULE).replace("ORPHAN_MARK", ORPHAN_MARK))
    dist = package / "evilpkg-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: evilpkg\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ginbots.players]\nevil = evilpkg:Evil\n")
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setenv("GINBOTS_JUDGE_DIR", str(tmp_path / "judge"))
    monkeypatch.setenv("GINBOTS_TEST_SECRET", "runner-only")
    yield package
    subprocess.run(["pkill", "-f", f"sleep {ORPHAN_MARK}"], capture_output=True)


def _targets(package: Path, folders: list[Path], files: list[Path]) -> None:
    forged = {"pair": 0, "a": "evil", "b": "simple", "index": 0, "winner": "A", "scores": {"A": 100, "B": 0},
              "hands": [], "think_s": {"A": 0, "B": 0}, "a_seat": 0, "engine_seed": 1}
    (package / "targets.json").write_text(json.dumps({"folders": [str(f) for f in folders],
                                                      "files": [str(f) for f in files], "forged": forged}))


def _evil_lines(logs: Path, kind: str) -> list[dict]:
    out = []
    for path in logs.glob("*.log"):
        for line in path.read_text(errors="replace").splitlines():
            if line.startswith("EVIL {"):
                record = json.loads(line[5:])
                if record["kind"] == kind:
                    out.append(record)
    return out


def test_the_attack_works_where_deals_follow_the_public_seed():
    """The control: with the public derivation (no run key), the bot's hand gives the whole deal away."""
    job = schedule(MatchConfig(games=2, seed=7, duplicate=True))[0]
    state = GinState(job.engine_seed, deal=False)
    state.next_hand()
    found = None
    for s in range(20):
        candidate = GinState(derive_seed(s, 0, 1), deal=False)
        candidate.next_hand()
        if candidate.hands[0] == state.hands[0]:
            found = candidate.hands[1]
    assert found == state.hands[1]


def test_an_isolated_bot_learns_nothing_hidden_and_changes_nothing(evil, tmp_path):
    out, logs = tmp_path / "tournament", tmp_path / "tournament" / "logs"
    _targets(evil, [out, logs, tmp_path / "judge"], [tmp_path / "judge" / "judge.key"])
    config = TournamentConfig(bots=("evil", "simple"), games_per_pair=12, seed=3, workers=1, time_budget=20,
                              log_dir=str(logs))
    summary = run_tournament(config, out, progress=False)
    # Nothing of the evil module ran here, and Simple (in the runner's workers) was never sabotaged.
    assert "evilpkg" not in sys.modules and SimplePlayer.discard.__name__ == "discard"
    games = load_games(out)
    assert summary["games"] == 12 and len(games) == 12
    assert not [g for g in games if "forfeit" in g], [g["forfeit"] for g in games if "forfeit" in g]
    # The deals: the bot's own seed and hand never gave the deal away; its guesses are at chance.
    predictions = _evil_lines(logs, "predict")
    assert len(predictions) == 12 and not any(p["found"] for p in predictions)
    # The probes: no process of the runner or the opponent in sight, nothing of theirs opened, the run's
    # folders empty to it, nothing written there, no runner environment, no key.
    probes = _evil_lines(logs, "probe")
    assert probes
    for probe in probes:
        # Only the sandbox's own processes: its init (bwrap), the bot, what the bot started.
        for pid, cmdline in probe["procs"].items():
            assert cmdline is None or cmdline.startswith(("bwrap", "/usr/bin/bwrap", "setsid", "sleep")) \
                or "ginbots.connect.bridge" in cmdline, (pid, cmdline)
            assert cmdline is None or "--seed" not in cmdline.split(" -- ")[-1], cmdline
        assert not probe["stolen"], probe["stolen"]
        assert "GINBOTS_TEST_SECRET" not in probe["env"] and "GINBOTS_JUDGE_DIR" not in probe["env"]
        for path, seen_file in probe["files"].items():
            listed = seen_file.get("listed")
            # Empty, or only the mount point of another hidden folder (the logs inside the tournament's).
            assert listed is None or str(listed).startswith("error") or set(listed) <= {"logs"}, (path, listed)
            assert not seen_file.get("wrote") and not seen_file.get("read"), (path, seen_file)
    # No record but the runner's own counts, and nothing the bot started outlived the run.
    assert all("mac" in g for g in games)
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", f"sleep {ORPHAN_MARK}"], capture_output=True, text=True).stdout.split()
    assert not left, f"processes left behind: {left}"


def test_guesses_of_the_opponents_hand_are_no_better_than_chance(evil, tmp_path):
    """Over 40 hands the bot's best guess of the opponent's 10 cards hits at chance (10 of 41 unknown)."""
    logs = tmp_path / "logs"
    traces: list[dict] = []
    _targets(evil, [], [])
    spec = parse_checked("evil").isolated(None, log_dir=str(logs))
    report = run_match(spec, parse_checked("simple"), MatchConfig(games=40, seed=0, single_hand=True,
                                                                   game=GameConfig(time_budget=20)),
                       progress=False, on_traces=traces.extend)
    assert report.config.run_key and len(traces) == 40
    truth = {}
    for trace in traces:
        for hand in trace["hands"][:1]:
            dealt = hand["dealt"]
            truth[tuple(sorted(_ids(dealt[0])))] = set(_ids(dealt[1]))
            truth[tuple(sorted(_ids(dealt[1])))] = set(_ids(dealt[0]))
    hits = total = 0
    for p in _evil_lines(logs, "predict"):
        assert not p["found"]
        opponent = truth[tuple(sorted(p["hand"]))]
        hits += len(opponent & set(p["opponent"]))
        total += 10
    assert total >= 400 and hits / total < 0.35  # chance: 10/41 = 0.24; a recovered deal scores 1.0


def _ids(names: list[str]) -> list[int]:
    from ginbots.game.cards import parse_card

    return [parse_card(n) for n in names]


def test_listing_packaging_and_checking_a_bot_never_import_it(evil, tmp_path, capsys):
    _targets(evil, [], [])
    assert main(["list"]) == 0
    assert "evil" in capsys.readouterr().out
    spec = parse_checked("evil:search=3")
    assert spec.params == {"search": 3}
    with pytest.raises(ValueError, match="search"):
        parse_checked("evil:search=-1")  # its own process refused it
    assert main(["package", "evil", "--out", str(tmp_path / "dist")]) == 0
    assert "evilpkg" not in sys.modules and SimplePlayer.discard.__name__ == "discard"


def test_the_same_seed_replays_the_same_games_and_the_run_key_replays_them_anywhere(evil, tmp_path, monkeypatch):
    _targets(evil, [], [])
    spec = parse_checked("evil").isolated(None, log_dir=str(tmp_path / "logs"))
    simple = parse_checked("simple")
    first = run_match(spec, simple, MatchConfig(games=4, seed=5), progress=False).to_json()
    again = run_match(spec, simple, MatchConfig(games=4, seed=5), progress=False).to_json()
    assert first["run_key"] == again["run_key"] and first["hands"] == again["hands"]
    monkeypatch.setenv("GINBOTS_JUDGE_DIR", str(tmp_path / "another-judge"))  # another machine
    other = run_match(spec, simple, MatchConfig(games=4, seed=5), progress=False).to_json()
    assert other["run_key"] != first["run_key"]
    replay = run_match(spec, simple, MatchConfig(games=4, seed=5, run_key=first["run_key"]), progress=False).to_json()
    assert [g for g in replay] and replay["A"]["wins"] == first["A"]["wins"] and replay["hands"] == first["hands"]


def test_a_forged_or_repeated_record_is_never_counted(evil, tmp_path, capsys):
    _targets(evil, [], [])
    out = tmp_path / "t"
    config = TournamentConfig(bots=("evil", "simple"), games_per_pair=4, seed=1, log_dir=str(tmp_path / "logs"))
    run_tournament(config, out, progress=False)
    lines = (out / "games.jsonl").read_text().splitlines()
    forged = json.loads(lines[0])
    forged["winner"] = "B" if forged["winner"] == "A" else "A"
    with open(out / "games.jsonl", "a") as fh:
        fh.write(json.dumps(forged) + "\n" + lines[1] + "\n" + json.dumps({**json.loads(lines[2]), "index": 99}) + "\n")
    summary = run_tournament(config, out, progress=False)
    assert summary["games"] == 4
    assert "3 record(s)" in capsys.readouterr().err


def test_without_bubblewrap_the_runner_says_it_runs_degraded(monkeypatch):
    monkeypatch.setenv(sandbox.SANDBOX_ENV, "none")
    sandbox.bubblewrap.cache_clear()
    monkeypatch.setattr(sandbox, "_warned", False)
    try:
        assert sandbox.degraded_reason() == f"{sandbox.SANDBOX_ENV}=none"
        with pytest.warns(RuntimeWarning, match="without a file-system, PID and network sandbox"):
            sandbox.warn_if_degraded()
        assert sandbox.wrap(["true"], Path("/tmp")) == ["true"]
    finally:
        monkeypatch.delenv(sandbox.SANDBOX_ENV)
        sandbox.bubblewrap.cache_clear()


def test_the_bundles_own_bots_keep_the_public_seeds_even_isolated():
    """Only an untrusted bot brings a run key: an isolated run of bundle bots replays from its seed."""
    from ginbots.arena.match import judged
    from ginbots.players.registry import parse_spec

    config = MatchConfig(games=2, seed=9)
    same, _ = judged(config, parse_spec("simple").isolated(True), parse_spec("keats").isolated(True))
    assert same.run_key == "" and schedule(same) == schedule(config)


def test_an_isolated_bot_gets_a_copy_of_the_compiled_kernels_cache_where_numba_looks(tmp_path):
    """In the sandbox the package's own kernel cache is read-only, which numba will not use: each bot
    gets a copy in its scratch folder, at the folder numba's user-given cache locator reads, and a copy
    (not a link), so nothing a bot writes there reaches the runner's cache."""
    caching = pytest.importorskip("numba.core.caching")
    from ginbots.search import playouts

    playouts.warm_up()  # the kernels compiled (or loaded) and cached beside their sources
    env = sandbox.bot_environment(tmp_path)
    source = Path(playouts.__file__)
    folder = Path(env["NUMBA_CACHE_DIR"]) / caching._CacheLocator.get_suitable_cache_subpath(str(source))
    ours = sorted(f.name for f in (source.parent / "__pycache__").glob("playout_kernels.*.nb[ic]"))
    assert ours and sorted(f.name for f in folder.glob("playout_kernels.*.nb[ic]")) == ours
    copied = folder / ours[0]
    assert copied.stat().st_ino != (source.parent / "__pycache__" / ours[0]).stat().st_ino


def test_runners_starting_together_share_one_whole_judge_key(tmp_path):
    """The judge's key is made on first use; eight runners asking for it at the same moment all get the
    same whole key (written under another name and linked into place), readable by its owner alone."""
    folder = tmp_path / "judge"
    code = ("import sys, time; from ginbots.arena import keys; t = float(sys.argv[1])\n"
            "while time.time() < t: pass\n"
            "print(keys.judge_secret().hex())")
    env = {**os.environ, "GINBOTS_JUDGE_DIR": str(folder)}
    env.pop("GINBOTS_JUDGE_KEY", None)
    start = f"{time.time() + 1.5:.3f}"
    procs = [subprocess.Popen([sys.executable, "-c", code, start], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(8)]
    keys = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(keys) == 1 and len(keys.pop()) == 64
    assert [f.name for f in folder.iterdir()] == ["judge.key"]
    assert (folder / "judge.key").stat().st_mode & 0o777 == 0o600
