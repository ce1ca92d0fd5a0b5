"""The Optuna tuning harness: a bot's declared hyperparameters against an opponent pool.

The user names a bot, opponents and a budget; the harness owns storage,
sampling, pruning, parallel workers, resumption and the final held-out check.
Every trial plays the same deals (common random numbers: duplicate deals from
seeds fixed by the study), so trials are compared on the same cards.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

import optuna
from optuna.trial import TrialState

import ginbots
from ginbots.arena.match import MatchConfig, derive_seed, run_match
from ginbots.arena.stats import wilson
from ginbots.connect.host import describe_bot, parse_checked
from ginbots.game.engine import GameConfig
from ginbots.players.base import resolve_params
from ginbots.players.registry import PlayerSpec, bot_info, tuned_dirs

from .duplicates import earlier_with_same_params
from .space import search_space, suggest
from .storage import FINISHED, StorageError, ask_lock, open_storage, recover_interrupted
#: Study settings that must not change when a study is resumed.
PINNED = ("bot", "opponents", "games_per_trial", "batches", "seed", "objective", "space")


class StudyError(RuntimeError):
    """A study that cannot be run or resumed as asked; the message says why."""


@dataclass
class TuneConfig:
    bot: str
    opponents: list[str]
    trials: int = 100
    games_per_trial: int = 400
    batches: int = 4
    study: str = ""
    storage: str = ""
    workers: int = 1
    objective: str = "winrate"
    pruner: str = "median"
    seed: int = 0
    heldout_games: int = 0
    only: list[str] = field(default_factory=list)
    fixed: dict[str, Any] = field(default_factory=dict)
    ranges: dict[str, Any] = field(default_factory=dict)
    out_dir: str = "results/tuning"
    timeout: float | None = None
    quiet: bool = False
    isolate: bool | None = None
    progress: bool | None = None

    def __post_init__(self) -> None:
        if not self.study:
            self.study = f"{self.bot}-vs-{'+'.join(self.opponents)}"
        if not self.storage:
            self.storage = str(Path(self.out_dir) / "studies" / f"{self.study}.journal")
        if self.objective not in ("winrate", "points"):
            raise ValueError(f"objective must be 'winrate' or 'points', got {self.objective!r}")
        if self.pruner not in ("median", "sha", "none"):
            raise ValueError(f"pruner must be 'median', 'sha' or 'none', got {self.pruner!r}")
        if self.trials < 1 or self.batches < 1 or self.workers < 1:
            raise ValueError("trials, batches and workers must be >= 1")
        per_batch = self.games_per_trial / (self.batches * len(self.opponents))
        if per_batch < 2:
            raise ValueError(f"games_per_trial {self.games_per_trial} is too small for {self.batches} batches "
                             f"x {len(self.opponents)} opponents (need >= 2 games, one duplicate pair, each)")
        if not self.heldout_games:
            self.heldout_games = max(2000, 4 * self.games_per_trial)
        for shipped in tuned_dirs():
            if (Path(self.out_dir) / "best").resolve() == shipped.resolve():
                raise ValueError(f"--out {self.out_dir} would write over the tuned parameters the package ships "
                                 f"({shipped}); choose another folder (default results/tuning)")


@dataclass
class Tally:
    """Running totals of a bot's results against the pool."""

    games: int = 0
    wins: int = 0
    decided: int = 0
    hands: int = 0
    points_for: int = 0
    points_against: int = 0
    forfeits: int = 0
    #: Games the opponents forfeited, by opponent: a win over a broken opponent says nothing of the bot.
    opponent_forfeits: dict[str, int] = field(default_factory=dict)

    def add(self, report_json: dict[str, Any], games: list[dict[str, Any]]) -> None:
        a = report_json["A"]
        self.games += report_json["games"]
        self.wins += a["wins"]
        self.decided += a["wins"] + a["losses"]
        self.forfeits += a["forfeits"]
        if report_json["B"]["forfeits"]:
            name = report_json["players"]["B"]
            self.opponent_forfeits[name] = self.opponent_forfeits.get(name, 0) + report_json["B"]["forfeits"]
        for g in games:
            for h in g["hands"]:
                self.hands += 1
                if h["winner"] == "A":
                    self.points_for += h["points"]
                elif h["winner"] == "B":
                    self.points_against += h["points"]

    @property
    def win_rate(self) -> float:
        return self.wins / self.decided if self.decided else 0.0

    @property
    def net_points_per_hand(self) -> float:
        return (self.points_for - self.points_against) / self.hands if self.hands else 0.0

    def value(self, objective: str) -> float:
        return self.win_rate if objective == "winrate" else self.net_points_per_hand

    def summary(self, confidence: float = 0.90) -> dict[str, Any]:
        lo, hi = wilson(self.wins, self.decided, confidence)
        return {"games": self.games, "wins": self.wins, "decided": self.decided, "win_rate": self.win_rate,
                "ci90": [lo, hi], "net_points_per_hand": self.net_points_per_hand, "hands": self.hands,
                "forfeits": self.forfeits, "opponent_forfeits": dict(self.opponent_forfeits)}


def games_per_match(games: int, batches: int, opponents: int) -> int:
    """Games of each (batch, opponent) match: an even number (duplicate deals), at least 2."""
    return max(2, int(round(games / (batches * opponents) / 2)) * 2)


def evaluate(spec: PlayerSpec, opponents: list[str], games: int, seed: int, batches: int,
             workers: int = 1, progress: bool | None = False) -> Iterator[tuple[int, Tally]]:
    """Play ``games`` against the pool in ``batches``; yield the running tally after each.

    Batch b against opponent i always uses the deal seed derived from
    (seed, b, i): every trial, and the defaults, meet the same deals.
    """
    tally = Tally()
    n = games_per_match(games, batches, len(opponents))
    for b in range(batches):
        for i, name in enumerate(opponents):
            config = MatchConfig(games=n, seed=derive_seed(seed, b, i), workers=workers, duplicate=True,
                                 game=GameConfig())
            report = run_match(spec, parse_checked(name).isolated(None), config, progress=progress)
            tally.add(report.to_json(), report.games)
        yield b, tally


def _pruner(name: str) -> optuna.pruners.BasePruner:
    if name == "median":
        return optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=0)
    if name == "sha":
        return optuna.pruners.SuccessiveHalvingPruner()
    return optuna.pruners.NopPruner()


def _settings(cfg: TuneConfig, space_names: list[str]) -> dict[str, Any]:
    return {"bot": cfg.bot, "opponents": cfg.opponents, "games_per_trial": cfg.games_per_trial,
            "batches": cfg.batches, "seed": cfg.seed, "objective": cfg.objective, "space": space_names,
            "fixed": cfg.fixed, **({"ranges": cfg.ranges} if cfg.ranges else {})}


def load_study(cfg: TuneConfig, worker: int = 0) -> tuple[optuna.Study, Any]:
    """Create or resume the study; a resumed study must have been run with the same settings."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    cls = bot_info(cfg.bot, describe_bot)
    space = search_space(cls, cfg.only or None, cfg.fixed, cfg.ranges)
    try:
        storage = open_storage(cfg.storage)
    except StorageError as exc:
        raise StudyError(str(exc)) from None
    sampler = optuna.samplers.TPESampler(seed=sampler_seed(cfg.seed, worker))
    try:
        study = optuna.create_study(study_name=cfg.study, storage=storage, direction="maximize",
                                    sampler=sampler, pruner=_pruner(cfg.pruner), load_if_exists=True)
    except Exception as exc:  # a corrupt journal or unreachable database
        raise StudyError(f"study {cfg.study!r} in {cfg.storage} cannot be opened: {type(exc).__name__}: {exc}") from exc
    wanted = _settings(cfg, [hp.name for hp in space])
    stored = study.user_attrs.get("settings")
    if stored is None:
        study.set_user_attr("settings", wanted)
    else:
        changed = [k for k in PINNED if stored.get(k) != wanted.get(k)]
        if changed:
            raise StudyError(
                f"study {cfg.study!r} was started with other settings ({', '.join(changed)}: "
                + "; ".join(f"{k} was {stored.get(k)!r}, now {wanted.get(k)!r}" for k in changed)
                + "); use another --study name or the original settings")
    return study, storage


def sampler_seed(study_seed: int, worker: int) -> int:
    """A sampler seed from the study seed and what makes this process unique (host, pid, start time):
    two processes, or a process and its resumption, never propose the same sequence."""
    import uuid

    unique = uuid.uuid1().int & ((1 << 64) - 1)
    return derive_seed(study_seed, worker, os.getpid(), time.time_ns() & ((1 << 64) - 1), unique) & 0x7FFFFFFF


def _finished(study: optuna.Study) -> int:
    return sum(1 for t in study.get_trials(deepcopy=False, states=FINISHED) if not t.user_attrs.get("surplus"))


def _evaluate_trial(cfg: TuneConfig, trial: optuna.Trial, space: Any, progress: Any = None) -> float:
    """Play the trial's games against the pool; TrialPruned when the pruner says so."""
    params = {**cfg.fixed, **suggest(trial, space)}
    duplicate = earlier_with_same_params(trial, say=None if cfg.quiet else lambda line: print(line, flush=True))
    if duplicate is not None:
        # Never play the same parameters twice: the earlier trial's result stands for this one.
        trial.set_user_attr("duplicate_of", duplicate.number)
        trial.set_user_attr("result", duplicate.user_attrs.get("result"))
        if duplicate.state == TrialState.PRUNED or duplicate.value is None:
            raise optuna.TrialPruned()
        return float(duplicate.value)
    spec = PlayerSpec(cfg.bot, params, label=f"{cfg.bot}#{trial.number}").isolated(cfg.isolate)
    tally = Tally()
    for step, tally in evaluate(spec, cfg.opponents, cfg.games_per_trial, cfg.seed, cfg.batches):
        trial.report(tally.value(cfg.objective), step)
        if trial.should_prune():
            trial.set_user_attr("result", tally.summary())
            raise optuna.TrialPruned()
    trial.set_user_attr("result", tally.summary())
    return tally.value(cfg.objective)


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"


def _running(study: optuna.Study) -> int:
    return len(study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)))


def _admitted(study: optuna.Study, number: int, trials: int) -> bool:
    """Whether trial ``number`` is one of the study's ``trials``: fewer than that many trials with a smaller
    number are finished or running. Trial numbers are handed out by the storage, so exactly ``trials``
    trials are admitted however many processes (and machines) share the study."""
    earlier = [t for t in study.get_trials(deepcopy=False) if t.number < number and not t.user_attrs.get("surplus")
               and t.state in (TrialState.COMPLETE, TrialState.PRUNED, TrialState.RUNNING)]
    return len(earlier) < trials


def _report_trial(cfg: TuneConfig, study: optuna.Study | None = None) -> Any:
    """A line per finished trial: its number, value (or where it was pruned), parameters, the best so far
    and an ETA for the study from this process's pace."""
    started = time.monotonic()
    first = _finished(study) if study is not None else 0

    def callback(study: optuna.Study, trial: optuna.trial.FrozenTrial) -> None:
        if cfg.quiet:
            return
        done = _finished(study)
        if trial.state == TrialState.COMPLETE:
            what = f"{trial.value:.4f}"
        elif trial.state == TrialState.PRUNED:
            what = f"pruned after {len(trial.intermediate_values)} of {cfg.batches} batches"
        else:
            what = trial.state.name.lower()
        try:
            best = f"best {study.best_value:.4f} (trial {study.best_trial.number})"
        except ValueError:
            best = "no best yet"
        params = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in trial.params.items())
        elapsed, mine = time.monotonic() - started, max(1, done - first)
        eta = f"; ETA {_duration(elapsed / mine * max(0, cfg.trials - done))}" if done < cfg.trials else ""
        print(f"[{done}/{cfg.trials}] trial {trial.number}: {what} ({params}); {best}{eta}", flush=True)
    return callback


def _work(cfg: TuneConfig, worker: int) -> None:
    """One worker process: ask, evaluate and tell trials until the study holds ``cfg.trials`` finished ones."""
    study, _ = load_study(cfg, worker)
    space = search_space(bot_info(cfg.bot, describe_bot), cfg.only or None, cfg.fixed, cfg.ranges)
    worker_id = f"{socket.gethostname()}:{os.getpid()}"
    report = _report_trial(cfg, study)
    started = time.monotonic()
    while _finished(study) < cfg.trials:
        if cfg.timeout is not None and time.monotonic() - started > cfg.timeout:
            return
        # Asking under the storage's lock (a local journal or SQLite file): no process takes a trial past
        # --trials, so no surplus trial is ever written. On a shared server (several machines) the storage
        # numbers trials atomically and one that comes out past --trials is told PRUNED, marked surplus,
        # and counted nowhere.
        with ask_lock(cfg.storage):
            if _finished(study) + _running(study) >= cfg.trials:
                return
            trial = study.ask()
            trial.set_user_attr("worker", worker_id)
        if not _admitted(study, trial.number, cfg.trials):
            trial.set_user_attr("surplus", True)
            study.tell(trial, state=TrialState.PRUNED)
            return
        try:
            value = _evaluate_trial(cfg, trial, space)
        except optuna.TrialPruned:
            frozen = study.tell(trial, state=TrialState.PRUNED)
        except KeyboardInterrupt:
            trial.set_user_attr("interrupted", True)
            study.tell(trial, state=TrialState.FAIL)
            raise
        else:
            frozen = study.tell(trial, value)
        report(study, frozen)


def _worker_entry(cfg: TuneConfig, worker: int) -> None:
    try:
        _work(cfg, worker)
    except KeyboardInterrupt:
        pass


def run_workers(cfg: TuneConfig) -> None:
    """Run ``cfg.workers`` processes on the shared storage (in this process when 1)."""
    if cfg.workers == 1:
        _work(cfg, 0)
        return
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker_entry, args=(cfg, w), name=f"tune-worker-{w}") for w in range(cfg.workers)]
    for p in procs:
        p.start()
    try:
        for p in procs:
            p.join()
    except KeyboardInterrupt:
        for p in procs:
            p.join(timeout=30)
        raise
    failed = [p.name for p in procs if p.exitcode not in (0, None)]
    if failed:
        raise StudyError(f"tuning worker(s) {', '.join(failed)} stopped with an error (see above)")


#: How long to wait for trials that other processes are still running before the held-out check.
WAIT_FOR_OTHERS_S = 3600.0


def _wait_for_others(cfg: TuneConfig, study: optuna.Study, storage: Any) -> bool:
    """When this process stops because the study is full but others still run its last trials, wait for
    them (the held-out check needs the final best trial). A trial whose process died while it ran (one
    killed between asking for a trial and tagging it shows only after ``UNTAGGED_AFTER_S``) is re-queued
    here: True means this process should run workers again to play it."""
    waited = 0.0
    said = False
    while _finished(study) < cfg.trials and waited < WAIT_FOR_OTHERS_S:
        running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
        if not running:
            return False
        if recover_interrupted(study, storage):
            return True
        if not said and not cfg.quiet:
            print(f"waiting for {len(running)} trial(s) other processes are running", flush=True)
            said = True
        time.sleep(1.0)
        waited += 1.0
    return False


def code_version() -> str:
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=5).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev = ""
    return f"ginbots {ginbots.__version__}" + (f" ({rev})" if rev else "")


def heldout(cfg: TuneConfig, params: dict[str, Any], label: str) -> dict[str, Any]:
    """Fresh seeds, many more games: the check against the winner's curse."""
    spec = PlayerSpec(cfg.bot, params, label=label).isolated(cfg.isolate)
    seed = derive_seed(cfg.seed, 0xD1CE)
    tally = Tally()
    if not cfg.quiet:
        print(f"held-out check of {label}: {cfg.heldout_games} games vs {', '.join(cfg.opponents)}", flush=True)
    for _, tally in evaluate(spec, cfg.opponents, cfg.heldout_games, seed, 1, workers=cfg.workers,
                             progress=None if cfg.progress is None and not cfg.quiet else bool(cfg.progress)):
        pass
    return tally.summary()


def write_outputs(cfg: TuneConfig, study: optuna.Study, best: dict[str, Any], default: dict[str, Any]) -> Path:
    """``tuning/best/BOT.json`` and the two plots; returns the JSON path."""
    trial = study.best_trial
    counts = {s.name.lower(): len(study.get_trials(deepcopy=False, states=(s,))) for s in TrialState}
    params = {**cfg.fixed, **trial.params}
    record = {
        "bot": cfg.bot,
        "params": params,
        "study": cfg.study,
        "storage": cfg.storage,
        "opponents": cfg.opponents,
        "objective": cfg.objective,
        "trials": counts,
        "best_trial": trial.number,
        "study_value": trial.value,
        "study_result": trial.user_attrs.get("result"),
        "games_per_trial": cfg.games_per_trial,
        "heldout": best,
        "heldout_defaults": default,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code_version": code_version(),
        "command": " ".join(["ginbots", "tune"] + sys.argv[2:]) if sys.argv[1:2] == ["tune"] else "",
    }
    best_dir = Path(cfg.out_dir) / "best"
    best_dir.mkdir(parents=True, exist_ok=True)
    path = best_dir / f"{cfg.bot}.json"
    path.write_text(json.dumps(record, indent=2) + "\n")
    plot_study(study, Path(cfg.out_dir) / "plots", cfg.bot)
    return path


def plot_study(study: optuna.Study, folder: Path, stem: str) -> list[Path]:
    """Optuna's own optimisation-history and parameter-importance plots, as PNG."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from optuna.visualization import matplotlib as ovm

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, fn in (("history", ovm.plot_optimization_history), ("importances", ovm.plot_param_importances)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                ax = fn(study)
        except (ValueError, RuntimeError) as exc:  # e.g. too few finished trials for importances
            print(f"  plot {name} skipped: {exc}", file=sys.stderr)
            continue
        fig = ax.figure if hasattr(ax, "figure") else plt.gcf()
        fig.set_size_inches(8, 5)
        fig.tight_layout()
        path = folder / f"{stem}_{name}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(path)
    return written


def tune(cfg: TuneConfig) -> dict[str, Any]:
    """Run (or resume) the study to ``cfg.trials`` finished trials, then the held-out check."""
    study, storage = load_study(cfg)
    requeued = recover_interrupted(study, storage)
    if not study.get_trials(deepcopy=False):
        # The defaults are the first trial: a study is then never "best" below the bot's own defaults on its seeds.
        space = search_space(bot_info(cfg.bot, describe_bot), cfg.only or None, cfg.fixed, cfg.ranges)
        study.enqueue_trial({hp.name: hp.default for hp in space}, user_attrs={"defaults": True})
    if requeued and not cfg.quiet:
        print(f"resuming {cfg.study}: re-queued interrupted trial(s) {requeued}")
    already = _finished(study)
    if not cfg.quiet:
        played = games_per_match(cfg.games_per_trial, cfg.batches, len(cfg.opponents)) * cfg.batches * len(cfg.opponents)
        rounding = "" if played == cfg.games_per_trial else \
            (f" (--games-per-trial {cfg.games_per_trial} rounded to {played}: {cfg.batches} batches x "
             f"{len(cfg.opponents)} opponent(s) x an even number of games, for duplicate deals)")
        print(f"study {cfg.study} ({cfg.storage}): {already} of {cfg.trials} trials finished; "
              f"{played} games per trial vs {', '.join(cfg.opponents)}{rounding}, "
              f"objective {cfg.objective}, {cfg.workers} worker(s)", flush=True)
    start = time.perf_counter()
    while True:
        run_workers(cfg)
        study, storage = load_study(cfg)
        if not _wait_for_others(cfg, study, storage):
            break  # full, or the others finished; else a trial left behind was re-queued: run it
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    if not complete:
        raise StudyError(f"study {cfg.study!r} has no completed trial yet")
    if _finished(study) < cfg.trials and cfg.timeout is None:
        raise StudyError(f"study {cfg.study!r} stopped at {_finished(study)} of {cfg.trials} trials")
    best_params = {**cfg.fixed, **study.best_trial.params}
    best = heldout(cfg, best_params, f"{cfg.bot}:tuned")
    cls = bot_info(cfg.bot, describe_bot)
    if resolve_params(cls, best_params) == resolve_params(cls, cfg.fixed):
        # The defaults won the study: their held-out games would be the same games again.
        if not cfg.quiet:
            print(f"held-out check of {cfg.bot}:default: the same settings as {cfg.bot}:tuned", flush=True)
        default = best
    else:
        default = heldout(cfg, dict(cfg.fixed), f"{cfg.bot}:default")
    path = write_outputs(cfg, study, best, default)
    if not cfg.quiet:
        print(summary_text(cfg, study, best, default, path, time.perf_counter() - start))
    return json.loads(path.read_text())


def summary_text(cfg: TuneConfig, study: optuna.Study, best: dict[str, Any], default: dict[str, Any],
                 path: Path, elapsed: float) -> str:
    t = study.best_trial
    fmt = lambda r: (f"{r['win_rate'] * 100:.1f}% [{r['ci90'][0] * 100:.1f}, {r['ci90'][1] * 100:.1f}] "  # noqa: E731
                     f"over {r['games']} games, net {r['net_points_per_hand']:+.2f} pts/hand; "
                     f"forfeits: {r['forfeits']} own, " + (", ".join(f"{n} {k}" for n, k in
                                                                  r.get("opponent_forfeits", {}).items())
                                                        or "0") + " by opponents")
    lines = [
        f"study {cfg.study}: {_finished(study)} trials finished in {elapsed:.0f} s; best trial {t.number}: "
        f"{cfg.objective} {t.value:.4f} on the study's {cfg.games_per_trial} games",
        "  best params: " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in t.params.items()),
        f"  held-out ({cfg.heldout_games} fresh games vs {', '.join(cfg.opponents)}, 90% Wilson):",
        f"    tuned:    {fmt(best)}",
        f"    defaults: {fmt(default)}",
    ]
    if default["win_rate"] >= best["win_rate"] and cfg.objective == "winrate" or \
            default["net_points_per_hand"] >= best["net_points_per_hand"] and cfg.objective == "points":
        lines.append(f"  the defaults did as well or better on the held-out games: {cfg.bot} with no parameters is "
                     "as good a choice as the tuned ones")
    # NAME:tuned reads only the parameters the package ships; a study's own file is named by its path.
    lines.append(f"  written: {path} (use: ginbots match {cfg.bot}:{path} {cfg.opponents[0]})")
    return "\n".join(lines)
