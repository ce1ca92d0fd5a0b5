"""The Optuna harness: search spaces, a study end to end, resume after a kill, two workers, round trip."""

import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import optuna
import pytest

from ginbots.players.base import Hyperparameter
from ginbots.players.baselines import SimplePlayer
from ginbots.players.keats import KeatsPlayer
from ginbots.cli import main as cli_main
from ginbots.players.registry import parse_spec, player_class
from ginbots.tuning.harness import StudyError, TuneConfig, load_study, tune
from ginbots.tuning.space import SearchSpaceError, search_space

ROOT = Path(__file__).resolve().parent.parent


class Knobby(SimplePlayer):
    name = "knobby"
    hyperparameters = (
        Hyperparameter("flat", int, 3, 3, 3),
        Hyperparameter("mode", str, "a", choices=("a",)),
        Hyperparameter("weight", float, 1.0, 0.0, 2.0),
    )


def test_search_space_comes_from_the_declarations_and_bad_ones_are_named():
    names = [hp.name for hp in search_space(KeatsPlayer)]
    assert "complete_meld_bonus" in names and "layoff_samples" not in names  # cost knobs stay out
    assert [hp.name for hp in search_space(KeatsPlayer, only=["take_threshold"])] == ["take_threshold"]
    with pytest.raises(SearchSpaceError, match=r"knobby.flat: range \[3, 3\]"):
        search_space(Knobby, only=["flat"])
    with pytest.raises(SearchSpaceError, match="knobby.mode: a categorical"):
        search_space(Knobby, only=["mode"])
    with pytest.raises(SearchSpaceError, match="no such hyperparameter"):
        search_space(KeatsPlayer, only=["bogus"])
    with pytest.raises(ValueError, match="take_threshold"):
        search_space(KeatsPlayer, fixed={"take_threshold": 99})
    assert [hp.name for hp in search_space(Knobby, only=["weight"])] == ["weight"]


def _cfg(tmp_path, **kw):
    base = dict(bot="keats", opponents=["simple"], trials=3, games_per_trial=8, batches=2, heldout_games=8,
                out_dir=str(tmp_path / "tuning"), study="t", quiet=True,
                only=["take_threshold", "mid_range_bonus"])
    base.update(kw)
    return TuneConfig(**base)


def test_tiny_study_end_to_end_writes_best_params_and_plots(tmp_path, monkeypatch):
    out = tune(_cfg(tmp_path))
    best = tmp_path / "tuning" / "best" / "keats.json"
    assert best.exists() and out["bot"] == "keats" and out["trials"]["complete"] + out["trials"]["pruned"] == 3
    assert set(out["params"]) == {"take_threshold", "mid_range_bonus"}
    assert out["heldout"]["games"] >= 8 and 0 <= out["heldout"]["win_rate"] <= 1
    assert out["heldout_defaults"]["games"] == out["heldout"]["games"]
    assert (tmp_path / "tuning" / "plots" / "keats_history.png").stat().st_size > 1000
    # round trip: the file is loadable wherever a bot name is accepted
    assert parse_spec(f"keats:{best}").params == out["params"]
    assert parse_spec("keats", params_file=best).params == out["params"]
    assert parse_spec("keats:tuned").params != out["params"]  # :tuned is the package's own set, untouched
    # rerunning the finished study adds no trial
    tune(_cfg(tmp_path))
    study, _ = load_study(_cfg(tmp_path))
    assert len(study.trials) == 3
    # the first trial plays the declared defaults
    first = study.trials[0]
    assert first.user_attrs.get("defaults") is True
    assert first.params == {"take_threshold": 0.0, "mid_range_bonus": 9.0}


def test_when_the_defaults_win_their_held_out_games_are_played_once(tmp_path, monkeypatch):
    from ginbots.tuning import harness

    played = []
    real = harness.heldout
    monkeypatch.setattr(harness, "heldout", lambda cfg, params, label: played.append(label) or real(cfg, params, label))
    out = tune(_cfg(tmp_path, trials=1))       # one trial: the enqueued defaults, so they are the best
    assert played == ["keats:tuned"]
    assert out["heldout_defaults"] == out["heldout"]
    played.clear()
    tune(_cfg(tmp_path, trials=1, fixed={"take_threshold": 5.0}, study="fixed"))
    assert played == ["keats:tuned"]            # the fixed value is part of both settings


def test_resuming_with_other_settings_is_refused(tmp_path):
    tune(_cfg(tmp_path, trials=1))
    with pytest.raises(StudyError, match="games_per_trial was 8, now 12"):
        load_study(_cfg(tmp_path, games_per_trial=12))


def _cli(tmp_path, trials, extra=()):
    return [sys.executable, "-m", "ginbots.tuning", "keats", "--trials", str(trials), "--games-per-trial", "24",
            "--batches", "2", "--heldout-games", "8", "--study", "killme", "--only", "take_threshold",
            "--out-dir", str(tmp_path / "tuning"), *extra]


def _left_behind(tmp_path):
    """Live processes still running the killed command (its forked workers), read from /proc."""
    marker = str(tmp_path / "tuning").encode()
    pids = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{entry}/stat", "rb") as fh:
                zombie = fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
        except (OSError, IndexError):
            continue
        if marker in cmd and not zombie:
            pids.append(int(entry))
    return pids


def _finished(tmp_path, name="killme"):
    study, _ = load_study(TuneConfig(bot="keats", opponents=["simple"], games_per_trial=24, batches=2,
                                     study=name, out_dir=str(tmp_path / "tuning"), only=["take_threshold"]))
    return study


def test_a_killed_worker_loses_no_finished_trial_and_its_trial_is_retried(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(_cli(tmp_path, 8), cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    journal = tmp_path / "tuning" / "studies" / "killme.journal"
    deadline = time.time() + 120
    while time.time() < deadline:
        if journal.exists():
            trials = _finished(tmp_path).trials
            if len([t for t in trials if t.state.is_finished()]) >= 2 and \
                    any(t.state == optuna.trial.TrialState.RUNNING for t in trials):
                break
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # Its match workers notice and exit instead of waiting for ever on their pipes.
    deadline = time.time() + 15
    while _left_behind(tmp_path) and time.time() < deadline:
        time.sleep(0.2)
    assert not _left_behind(tmp_path)
    before = {t.number: (t.value, t.params) for t in _finished(tmp_path).trials
              if t.state == optuna.trial.TrialState.COMPLETE}
    running = [t.number for t in _finished(tmp_path).trials if t.state == optuna.trial.TrialState.RUNNING]
    assert len(before) >= 2 and running
    done = subprocess.run(_cli(tmp_path, 8), cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    study = _finished(tmp_path)
    after = {t.number: (t.value, t.params) for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE}
    assert all(after[n] == v for n, v in before.items())           # nothing finished was lost or redone
    finished = [t for t in study.trials if t.state.is_finished() and t.state != optuna.trial.TrialState.FAIL]
    assert len(finished) == 8
    played = [t for t in finished if "duplicate_of" not in t.user_attrs and "retry_of" not in t.user_attrs]
    assert len({json.dumps(t.params, sort_keys=True) for t in played}) == len(played)  # no repeats after resume
    for n in running:                                               # the interrupted trial ran again
        retry = [t for t in study.trials if t.user_attrs.get("retry_of") == n]
        # a worker killed between creating its trial and sampling it leaves no parameters to repeat
        assert len(retry) == 1 and retry[0].params == (study.trials[n].params or retry[0].params)
        assert study.trials[n].state == optuna.trial.TrialState.FAIL


def test_two_workers_share_one_study_and_record_each_trial_once(tmp_path):
    out = tune(_cfg(tmp_path, trials=6, workers=2, study="pair"))
    study, _ = load_study(_cfg(tmp_path, trials=6, workers=2, study="pair"))
    numbers = [t.number for t in study.trials]
    assert numbers == list(range(len(numbers)))                     # no gaps, no duplicates
    finished = [t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE,
                                                       optuna.trial.TrialState.PRUNED)]
    assert len(finished) == 6                                        # exactly --trials, never one more
    assert len({t.user_attrs["worker"] for t in finished}) == 2      # both processes worked
    assert out["trials"]["complete"] + out["trials"]["pruned"] == len(finished)
    assert json.loads((tmp_path / "tuning" / "best" / "keats.json").read_text())["study"] == "pair"


def test_sampler_seeds_differ_per_process_and_per_resume():
    from ginbots.tuning.harness import sampler_seed

    seeds = {sampler_seed(0, 0) for _ in range(50)}
    assert len(seeds) == 50


def test_two_concurrent_processes_on_a_fresh_sqlite_study_propose_only_distinct_parameters(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    url = f"sqlite:///{tmp_path / 'study.db'}"
    cmd = [sys.executable, "-m", "ginbots.tuning", "keats", "--trials", "5", "--games-per-trial", "8", "--batches", "1",
           "--heldout-games", "4", "--study", "twin", "--only", "take_threshold,mid_range_bonus",
           "--storage", url, "--out", str(tmp_path / "out")]
    procs = [subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
             for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].decode() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    study = optuna.load_study(study_name="twin", storage=url)
    played = [t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
              and "duplicate_of" not in t.user_attrs]
    assert len([t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE,
                                                         optuna.trial.TrialState.PRUNED)]) == 5
    assert len({json.dumps(t.params, sort_keys=True) for t in played}) == len(played)


def test_stale_journal_locks_and_untagged_running_trials_are_recovered(tmp_path):
    from ginbots.tuning.harness import recover_interrupted

    cfg = _cfg(tmp_path, trials=2, study="stale")
    tune(cfg)
    journal = Path(cfg.storage)
    lock = Path(str(journal) + ".lock")
    lock.write_text("left by a killed process")
    old = time.time() - 60
    os.utime(lock, (old, old))
    study, storage = load_study(cfg)  # would wait on the lock if it were not recognised as stale
    assert not lock.exists()
    trial = study.ask()  # created, then "killed" before it was tagged with its worker
    frozen = study.trials[trial.number]
    assert frozen.state == optuna.trial.TrialState.RUNNING and "worker" not in frozen.user_attrs
    import ginbots.tuning.storage as storage_module

    storage_module.UNTAGGED_AFTER_S, saved = -1.0, storage_module.UNTAGGED_AFTER_S
    try:
        requeued = recover_interrupted(study, storage)
    finally:
        storage_module.UNTAGGED_AFTER_S = saved
    assert trial.number in requeued
    assert study.trials[trial.number].state == optuna.trial.TrialState.FAIL


def test_results_never_go_over_the_shipped_tuned_parameters(tmp_path):
    with pytest.raises(ValueError, match="would write over the tuned parameters the package ships"):
        TuneConfig(bot="keats", opponents=["simple"], out_dir=str(ROOT / "tuning"))


def test_each_shipped_study_file_is_the_study_its_best_parameters_record():
    """tuning/studies/BOT.toml holds the settings the shipped tuning/best/BOT.json was found with."""
    from ginbots.tuning.studies import load_study_file

    studies = sorted((ROOT / "tuning" / "studies").glob("*.toml"))
    assert {p.stem for p in studies} == {p.stem for p in (ROOT / "tuning" / "best").glob("*.json")}
    for path in studies:
        settings = load_study_file(path)
        record = json.loads((ROOT / "tuning" / "best" / f"{path.stem}.json").read_text())
        assert settings["bot"] == record["bot"] == path.stem
        assert settings["opponents"] == record["opponents"]
        command = record["command"].split()
        for key, flag in (("trials", "--trials"), ("games_per_trial", "--games-per-trial"), ("seed", "--seed"),
                          ("workers", "--workers")):
            assert str(settings[key]) == command[command.index(flag) + 1], (path.name, key)
        if "--only" in command:
            assert settings["only"] == command[command.index("--only") + 1].split(",")
        player_class(settings["bot"])


def test_a_study_file_runs_and_the_command_line_overrides_it(tmp_path):
    study = tmp_path / "tiny.toml"
    study.write_text('bot = "keats"\nopponents = ["simple"]\ntrials = 2\ngames_per_trial = 8\nbatches = 2\n'
                     'heldout_games = 8\nseed = 3\nonly = ["take_threshold"]\n'
                     '[ranges]\ntake_threshold = [2.0, 4.0]\n')
    out_dir = tmp_path / "out"
    assert cli_main(["tune", str(study), "--trials", "3", "--out", str(out_dir), "--no-progress"]) == 0
    record = json.loads((out_dir / "best" / "keats.json").read_text())
    assert record["trials"]["complete"] + record["trials"]["pruned"] == 3  # the command line won
    study_obj, _ = load_study(TuneConfig(bot="keats", opponents=["simple"], trials=3, games_per_trial=8, batches=2,
                                         heldout_games=8, seed=3, only=["take_threshold"],
                                         ranges={"take_threshold": [2.0, 4.0]}, out_dir=str(out_dir)))
    assert all(2.0 <= t.params["take_threshold"] <= 4.0 for t in study_obj.trials if t.params)


@pytest.mark.parametrize("text, words", [
    ("bot = 'keats'\ntrails = 3\n", "unknown key(s) trails"),
    ("opponents = ['simple']\n", "must name its bot"),
    ("bot = 'keats'\ntrials = 'many'\n", "trials must be int"),
    ("bot = 'keats'\ntrials = [\n", "not valid TOML"),
])
def test_a_broken_study_file_is_named_with_the_rule(tmp_path, text, words):
    from ginbots.tuning.studies import StudyFileError, load_study_file

    path = tmp_path / "s.toml"
    path.write_text(text)
    with pytest.raises(StudyFileError, match=re.escape(words)) as info:
        load_study_file(path)
    assert str(path) in str(info.value)


def test_a_range_outside_the_declaration_is_refused():
    with pytest.raises(SearchSpaceError, match="take_threshold"):
        search_space(KeatsPlayer, only=["take_threshold"], ranges={"take_threshold": [-50, 3]})
    with pytest.raises(SearchSpaceError, match="not tuned here"):
        search_space(KeatsPlayer, only=["take_threshold"], ranges={"mid_range_bonus": [1, 2]})
    narrowed = search_space(KeatsPlayer, only=["take_threshold"], ranges={"take_threshold": [2, 4]})
    assert (narrowed[0].low, narrowed[0].high) == (2.0, 4.0)


def test_a_torn_last_journal_record_is_set_aside_and_the_study_resumes(tmp_path, capsys):
    tune(_cfg(tmp_path, trials=2))
    journal = Path(_cfg(tmp_path).storage)
    whole = journal.read_bytes()
    journal.write_bytes(whole[:-25])  # a writer killed mid-record
    out = tune(_cfg(tmp_path, trials=3))
    assert out["trials"]["complete"] + out["trials"]["pruned"] == 3
    assert "torn" in capsys.readouterr().err and Path(str(journal) + ".torn").exists()


@pytest.mark.parametrize("content, storage, words", [
    (bytes(range(256)) * 4, "study.journal", "binary data"),
    (b"hello\nworld\n", "study.journal", ":1: not an Optuna journal record"),
    (b"not a database at all", "sqlite:///{}", "is not an SQLite database"),
])
def test_a_storage_that_is_not_a_study_is_named(tmp_path, content, storage, words):
    path = tmp_path / "store"
    path.write_bytes(content)
    target = storage.format(path) if "{}" in storage else str(path)
    with pytest.raises(StudyError, match=re.escape(words)) as info:
        tune(_cfg(tmp_path, storage=target))
    assert str(path) in str(info.value)


def test_an_opponents_forfeits_are_counted_and_named(tmp_path, monkeypatch, capsys):
    """A study against an opponent that forfeits every game says so (it once showed 100% and 'forfeits: 0')."""
    from ginbots.players import registry

    monkeypatch.syspath_prepend(str(ROOT / "tests"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT / "tests"))
    monkeypatch.setattr(registry, "BUILTIN_PLAYERS", {**registry.BUILTIN_PLAYERS, "sys-exits": "hostile:SysExits"})
    out = tune(_cfg(tmp_path, opponents=["sys-exits"], trials=1, quiet=False))
    assert out["heldout"]["opponent_forfeits"] == {"sys-exits": out["heldout"]["games"]}
    assert f"sys-exits {out['heldout']['games']} by opponents" in capsys.readouterr().out


def test_opponents_with_several_parameters_are_separated_by_semicolons(tmp_path, capsys):
    assert cli_main(["tune", "keats", "--opponents", "simple:knock_at=3,;random:take_probability=0.2",
                     "--trials", "1", "--games-per-trial", "8", "--batches", "1", "--heldout-games", "4",
                     "--only", "take_threshold", "--out", str(tmp_path), "--no-progress"]) == 2
    assert "simple:knock_at=3," in capsys.readouterr().err  # the stray comma is named, not split on
    assert cli_main(["tune", "keats", "--opponents", "simple:knock_at=3;random:take_probability=0.2",
                     "--trials", "1", "--games-per-trial", "8", "--batches", "1", "--heldout-games", "4",
                     "--only", "take_threshold", "--out", str(tmp_path), "--no-progress"]) == 0
    record = json.loads((tmp_path / "best" / "keats.json").read_text())
    assert record["opponents"] == ["simple:knock_at=3", "random:take_probability=0.2"]


def test_a_trial_left_untagged_by_a_killed_process_is_replayed_not_waited_on_for_ever(tmp_path, monkeypatch):
    """A process killed between asking for a trial and tagging it leaves a RUNNING trial with no owner; the
    next run waits for it only until it counts as stale, then plays it (it once waited for an hour)."""
    import ginbots.tuning.storage as storage_module

    cfg = _cfg(tmp_path, trials=3)
    study, _ = load_study(cfg)
    study.ask()  # the dead process's trial: RUNNING, no worker tag, just started
    monkeypatch.setattr(storage_module, "UNTAGGED_AFTER_S", 3.0)
    start = time.monotonic()
    out = tune(cfg)
    assert time.monotonic() - start < 120
    study, _ = load_study(cfg)
    finished = [t for t in study.trials if t.state in (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)]
    assert len(finished) == 3 and out["trials"]["complete"] + out["trials"]["pruned"] == 3
    assert not [t for t in study.trials if t.state == optuna.trial.TrialState.RUNNING]
