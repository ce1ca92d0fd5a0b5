"""Head-to-head matches: many seeded games between two players, in parallel, with statistics.

Every game draws its engine seed and both player seeds from the match seed and
its own index, so a match is reproducible whatever the worker count; with
duplicate deals each deal sequence is played twice with the seats swapped.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Callable

from ginbots.connect.host import make_player
from ginbots.game.engine import GameConfig, GameResult, play_game
from ginbots.game.rules import Forfeit
from ginbots.players.registry import PlayerSpec

from .keys import judge_dir, keyed_seed, run_key_for
from .stats import LatencyHistogram, nearest_rank, wilson
from .cluster import distribute
from .supervisor import Lost, current_monitor

_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def derive_seed(*parts: int) -> int:
    """A 48-bit seed mixed from integer parts (match seed, game index, role...)."""
    x = 0x5EED
    for part in parts:
        x = _splitmix64(x ^ (part & _MASK64))
    return x >> 16


@dataclass(frozen=True)
class GameJob:
    index: int
    engine_seed: int
    a_seat: int
    seed_a: int
    seed_b: int


@dataclass(frozen=True)
class MatchConfig:
    games: int = 1000
    seed: int = 0
    workers: int = 1
    duplicate: bool = False
    single_hand: bool = False
    confidence: float = 0.90
    game: GameConfig = field(default_factory=GameConfig)
    trace: bool = False
    #: Secret (hex) behind the deals and bot seeds when a bot that is not trusted takes part
    #: (``ginbots.arena.keys``); empty: both follow from the public seed.
    run_key: str = ""
    #: A Dask scheduler's address: chunks of games go to its workers (``ginbots.arena.cluster``);
    #: None: ``workers`` local processes.
    cluster: str | None = None

    def __post_init__(self) -> None:
        if self.games < 1:
            raise ValueError(f"games must be >= 1, got {self.games}")
        if self.workers < 1:
            raise ValueError(f"workers must be >= 1, got {self.workers}")

    @property
    def total_games(self) -> int:
        return self.games + (self.games % 2 if self.duplicate else 0)


def schedule(config: MatchConfig) -> list[GameJob]:
    """The match's games: seeds and seats, fixed by the match seed (and the run key, when there is one:
    then no bot can work the deal out from its own seed or hand, however it guesses the match seed)."""
    mix = (lambda *parts: keyed_seed(config.run_key, config.seed, *parts)) if config.run_key else \
        (lambda *parts: derive_seed(config.seed, *parts))
    jobs = []
    for i in range(config.total_games):
        deal = i // 2 if config.duplicate else i
        a_seat = i % 2
        jobs.append(GameJob(index=i, engine_seed=mix(deal, 1), a_seat=a_seat, seed_a=mix(i, 2), seed_b=mix(i, 3)))
    return jobs


def judged(config: MatchConfig, *specs: PlayerSpec) -> tuple[MatchConfig, list[PlayerSpec]]:
    """The config and specs for a run with these players: when one is not the bundle's own (so not trusted),
    a run key from the judge's secret (unless one is given) and the judge's key folder out of every isolated
    bot's sight. A run of the bundle's own bots, isolated or not, keeps the public seeds (its figures replay)."""
    if all(s.builtin for s in specs) and not config.run_key:
        return config, list(specs)
    key = config.run_key or run_key_for(config.seed)
    hidden = [s.isolated(s.isolate, hide=(str(judge_dir()),)) if s.isolate else s for s in specs]
    return replace(config, run_key=key), hidden


def summarize_game(job: GameJob, result: GameResult) -> dict[str, Any]:
    """A game result from the match's point of view (roles A and B, not seats)."""
    a = job.a_seat
    role = {a: "A", a ^ 1: "B"}
    hands = []
    for h in result.hands:
        hands.append({
            "result": h.result,
            "knocker": role.get(h.knocker) if h.knocker is not None else None,  # type: ignore[arg-type]
            "winner": role.get(h.winner) if h.winner is not None else None,  # type: ignore[arg-type]
            "points": h.points,
        })
    out: dict[str, Any] = {
        "index": job.index,
        "engine_seed": job.engine_seed,
        "a_seat": a,
        "winner": role[result.winner] if result.winner is not None else None,
        "scores": {"A": result.scores[a], "B": result.scores[a ^ 1]},
        "hands": hands,
        "think_s": {"A": result.think_time[a], "B": result.think_time[a ^ 1]},
    }
    if result.forfeit is not None:
        out["forfeit"] = {"role": role[result.forfeit.seat], **result.forfeit.to_json()}
    if result.note:
        out["note"] = result.note
    return out


class _Worker:
    """Per-process players, built once and reused for every game (as the challenge's runner does); a player
    that remembers its opponent from game to game is built afresh at each block (``MEMORY_BLOCK``)."""

    players: dict[str, Any] = {}
    specs: dict[str, PlayerSpec] = {}
    remembering: list[str] = []
    unplayed: set[str] = set()

    @classmethod
    def setup(cls, spec_a: PlayerSpec, spec_b: PlayerSpec, game: GameConfig, single_hand: bool, trace: bool) -> None:
        cls.specs = {"A": spec_a, "B": spec_b}
        cls.remembering = [role for role, spec in cls.specs.items() if spec.remembers]
        cls.unplayed = set(cls.remembering)  # built just now: fresh for the first block already
        cls.players = {"A": make_player(spec_a), "B": make_player(spec_b)}
        cls.game = game if not single_hand else GameConfig(
            time_budget=game.time_budget, max_turns_per_hand=game.max_turns_per_hand,
            max_hands_per_game=1, goal_score=game.goal_score)
        cls.trace = trace

    @classmethod
    def run(cls, job: GameJob) -> tuple[dict[str, Any], dict[str, LatencyHistogram], dict[str, Any] | None]:
        for role in cls.remembering:
            if role in cls.unplayed:
                cls.unplayed.discard(role)
            else:
                cls.players[role] = fresh_at_block(cls.players[role], cls.specs[role], job.index)
        a, b = cls.players["A"], cls.players["B"]
        prepare_players(a, b)
        result = play_job(a, b, job, cls.game, trace=cls.trace, monitor=current_monitor())
        hists = {"A": LatencyHistogram(), "B": LatencyHistogram()}
        hists["A"].add_many(result.decision_times[job.a_seat])
        hists["B"].add_many(result.decision_times[job.a_seat ^ 1])
        if result.trace is not None:
            result.trace["game"] = job.index
        return summarize_game(job, result), hists, result.trace


def play_job(a: Any, b: Any, job: GameJob, config: GameConfig, **options: Any) -> GameResult:
    """Play ``job`` between role A's player ``a`` and role B's ``b``, seated and seeded as the job says
    (``options``: ``play_game``'s trace and monitor)."""
    seated = [a, b] if job.a_seat == 0 else [b, a]
    seeds = (job.seed_a, job.seed_b) if job.a_seat == 0 else (job.seed_b, job.seed_a)
    return play_game(seated, seed=job.engine_seed, config=config, player_seeds=seeds, **options)


#: Games a remembering player (``PlayerSpec.remembers``: the champion with ``memory_hands``) lives for. A
#: match's games are cut into blocks of this many consecutive games; each block is played in order by one
#: worker, from a fresh player, so what the player carries from game to game, and so every game, is the
#: same with any number of workers and any scheduling. Other players are built once per worker.
MEMORY_BLOCK = 20


def fresh_at_block(player: Any, spec: PlayerSpec, index: int) -> Any:
    """``player``, or (for a player that remembers) a new one from ``spec`` when game ``index`` starts a block."""
    if index % MEMORY_BLOCK:
        return player
    close = getattr(player, "close", None)
    if close is not None:
        close()
    return make_player(spec)


def block_chunks(items: list[Any], size: int, block_of: Callable[[Any], Any]) -> list[list[Any]]:
    """``items`` (in play order) cut into chunks of at least ``size`` (bar the last) made of whole blocks
    (runs of items with the same ``block_of``), so that no worker starts a remembering player mid-block."""
    chunks: list[list[Any]] = []
    for item in items:
        if chunks and (len(chunks[-1]) < size or block_of(chunks[-1][-1]) == block_of(item)):
            chunks[-1].append(item)
        else:
            chunks.append([item])
    return chunks


def prepare_players(*players: Any) -> None:
    """Between games, outside the clock: restart an isolated player whose process died."""
    for player in players:
        restart = getattr(player, "ensure_running", None)
        if restart is not None:
            restart()


def _run_game(job: GameJob) -> Any:
    return _Worker.run(job)


#: Most games in one task sent to a cluster: a task starts a fresh process (about half a second), so
#: tasks are larger than local ones; a worker lost mid-task costs at most this many games, re-run.
CLUSTER_CHUNK = 250
#: Tasks a cluster run is cut into at least (its size is not known here), so that many workers share it.
CLUSTER_TASKS = 16


def chunk_size(items: int, workers: int, cap: int, cluster: str | None) -> int:
    """Items per task: about eight tasks a local worker (at most ``cap``), or on a cluster at least
    ``CLUSTER_TASKS`` tasks of at most ``CLUSTER_CHUNK``."""
    if cluster:
        return max(1, min(CLUSTER_CHUNK, items // CLUSTER_TASKS))
    return max(1, min(cap, items // (workers * 8) or 1))


def chunks_of(items: list[Any], size: int) -> list[list[Any]]:
    """``items`` cut into consecutive lists of ``size`` (the last may be shorter)."""
    return [items[i:i + size] for i in range(0, len(items), size)]


def lost_game(job: GameJob, lost: Lost | None, labels: dict[str, str], note: str = "") -> dict[str, Any]:
    """The record of a game whose worker died, was killed or failed: a forfeit by the acting seat.

    When no player was acting (the runner itself failed) nobody wins and the note says why.
    """
    role = None
    if lost is not None and lost.seat >= 0:
        role = "A" if lost.seat == job.a_seat else "B"
    out: dict[str, Any] = {"index": job.index, "engine_seed": job.engine_seed, "a_seat": job.a_seat,
                           "winner": None if role is None else ("B" if role == "A" else "A"),
                           "scores": {"A": 0, "B": 0}, "hands": [], "think_s": {"A": 0.0, "B": 0.0}}
    if role is not None and lost is not None:
        rule = "time-budget" if lost.cause == "call-limit" else "process-died"
        forfeit = Forfeit(lost.seat, labels[role], lost.action, rule, lost.detail)
        out["forfeit"] = {"role": role, **forfeit.to_json()}
    else:
        out["note"] = note or f"lost: {lost.detail if lost else 'unknown'} while no player was acting"
    return out


@dataclass
class MatchReport:
    spec_a: PlayerSpec
    spec_b: PlayerSpec
    config: MatchConfig
    games: list[dict[str, Any]]  # in the order of their index (run_match sorts them)
    latency: dict[str, LatencyHistogram]
    elapsed_s: float
    interrupted: bool = False

    # --- aggregates ------------------------------------------------------
    def role_stats(self, role: str) -> dict[str, Any]:
        other = "B" if role == "A" else "A"
        single = self.config.single_hand
        hands = [h for g in self.games for h in g["hands"]]
        if single:
            wins = sum(1 for h in hands if h["winner"] == role)
            losses = sum(1 for h in hands if h["winner"] == other)
        else:
            wins = sum(1 for g in self.games if g["winner"] == role)
            losses = sum(1 for g in self.games if g["winner"] == other)
        decided = wins + losses
        lo, hi = wilson(wins, decided, self.config.confidence)
        points = sum(h["points"] for h in hands if h["winner"] == role)
        hist = self.latency[role]
        return {
            "player": (self.spec_a if role == "A" else self.spec_b).display,
            "wins": wins,
            "losses": losses,
            "draws": (len(hands) if single else len(self.games)) - decided,
            "win_rate": wins / decided if decided else 0.0,
            "ci": [lo, hi],
            "points_per_hand": points / len(hands) if hands else 0.0,
            "hands_won": sum(1 for h in hands if h["winner"] == role),
            "knocks": sum(1 for h in hands if h["knocker"] == role),
            "gins": sum(1 for h in hands if h["knocker"] == role and h["result"] == "gin"),
            "undercut_wins": sum(1 for h in hands if h["result"] == "undercut" and h["winner"] == role),
            "forfeits": sum(1 for g in self.games if g.get("forfeit", {}).get("role") == role),
            "decision_ms": {"p50": hist.quantile(0.5) * 1e3, "p99": hist.quantile(0.99) * 1e3,
                            "max": hist.max * 1e3, "decisions": hist.total},
            "think_s_per_game": (sum(g["think_s"][role] for g in self.games) / len(self.games)) if self.games else 0.0,
            "think_s_per_game_p99": nearest_rank([g["think_s"][role] for g in self.games], 0.99),
            "think_s_per_game_max": max((g["think_s"][role] for g in self.games), default=0.0),
        }

    def hand_rates(self) -> dict[str, float]:
        hands = [h for g in self.games for h in g["hands"]]
        n = len(hands) or 1
        return {kind: sum(1 for h in hands if h["result"] == kind) / n
                for kind in ("knock", "gin", "undercut", "cancelled", "forfeit")}

    def to_json(self) -> dict[str, Any]:
        hands = sum(len(g["hands"]) for g in self.games)
        return {
            "players": {"A": self.spec_a.display, "B": self.spec_b.display},
            "specs": {"A": asdict(self.spec_a), "B": asdict(self.spec_b)},
            "games": len(self.games),
            "mode": "single-hand" if self.config.single_hand else "game-to-100",
            "seed": self.config.seed,
            **({"run_key": self.config.run_key} if self.config.run_key else {}),
            "workers": self.config.workers,
            **({"cluster": self.config.cluster} if self.config.cluster else {}),
            "duplicate": self.config.duplicate,
            "confidence": self.config.confidence,
            "time_budget_s": self.config.game.time_budget,
            "interrupted": self.interrupted,
            "A": self.role_stats("A"),
            "B": self.role_stats("B"),
            "hands": hands,
            "hands_per_game": hands / len(self.games) if self.games else 0.0,
            "hand_rates": self.hand_rates(),
            "forfeit_list": [dict(game=g["index"], **g["forfeit"]) for g in self.games if "forfeit" in g],
            "notes": [dict(game=g["index"], note=g["note"]) for g in self.games if "note" in g and not self.config.single_hand],
            "elapsed_s": self.elapsed_s,
            **self.per_game(),
        }

    def per_game(self) -> dict[str, Any]:
        """Each game's outcome in the order of its index, so that two runs on the same deals (same seed,
        duplicate) can be compared game for game: ``game_winners``, one letter a game (A, B, or - where
        none won), and ``game_margins``, A's final score minus B's (in a single-hand match, A's points
        of the hand won or, negative, lost)."""
        margins = []
        for g in self.games:
            if self.config.single_hand:
                margins.append(sum(h["points"] * (1 if h["winner"] == "A" else -1)
                                   for h in g["hands"] if h["winner"] in ("A", "B")))
            else:
                margins.append(g["scores"]["A"] - g["scores"]["B"])
        winners = "".join(g["winner"] or "-" for g in self.games)
        return {"game_winners": winners, "game_margins": margins}

    def to_text(self) -> str:
        data = self.to_json()
        conf = int(round(self.config.confidence * 100))
        unit = "hands" if self.config.single_hand else "games to 100"
        mode = ", duplicate deals" if self.config.duplicate else ""
        where = (f"cluster {self.config.cluster}" if self.config.cluster else
                 f"{self.config.workers} worker{'s' if self.config.workers > 1 else ''}")
        lines = [
            f"{data['players']['A']} vs {data['players']['B']}: {data['games']} {unit} "
            f"(seed {self.config.seed}, {where}{mode})"
            + ("  [INTERRUPTED: partial result]" if self.interrupted else ""),
            f"  {'player':<22}{'wins':>7}{'losses':>8}{'win rate':>10}   {conf}% Wilson CI      pts/hand"
            f"   decision ms p50 / p99",
        ]
        for role in ("A", "B"):
            s = data[role]
            lines.append(
                f"  {role} {s['player']:<20}{s['wins']:>7}{s['losses']:>8}{s['win_rate'] * 100:>9.1f}%"
                f"   [{s['ci'][0] * 100:5.1f}%, {s['ci'][1] * 100:5.1f}%]{s['points_per_hand']:>10.2f}"
                f"   {s['decision_ms']['p50']:8.3f} / {s['decision_ms']['p99']:.3f}"
            )
        rates = data["hand_rates"]
        lines.append(
            f"  hands: {data['hands']} ({data['hands_per_game']:.2f} per game): knock {rates['knock'] * 100:.1f}%, "
            f"gin {rates['gin'] * 100:.1f}%, undercut {rates['undercut'] * 100:.1f}%, "
            f"cancelled {rates['cancelled'] * 100:.2f}%"
        )
        draws = data["A"]["draws"]
        if draws:
            lines.append(f"  undecided: {draws} ({'cancelled hands' if self.config.single_hand else 'unfinished games'})")
        forfeits = data["forfeit_list"]
        if forfeits:
            lines.append(f"  forfeits: {len(forfeits)}")
            for f in forfeits[:10]:
                lines.append(f"    game {f['game']}: {f['reason']}")
            if len(forfeits) > 10:
                lines.append(f"    ... {len(forfeits) - 10} more (see --json)")
        else:
            lines.append("  forfeits: none")
        rate = data["games"] / self.elapsed_s if self.elapsed_s > 0 else 0.0
        unit = "hands" if self.config.single_hand else "games"
        pace = f"{rate:.0f} {unit}/s" if rate >= 10 else f"{rate:.2g} {unit}/s" if rate >= 0.1 else \
            f"{1 / rate:.0f} s per {unit[:-1]}" if rate > 0 else "no finished game"
        lines.append(f"  time: {self.elapsed_s:.1f} s ({pace})")
        return "\n".join(lines)


class ProgressBar:
    """A one-line progress bar with rate and ETA on stderr (only when it is a terminal)."""

    def __init__(self, total: int, label: str = "games", enabled: bool | None = None) -> None:
        self.total = total
        self.label = label
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()
        self.done = 0
        self._last = 0.0

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if not self.enabled or (now - self._last < 0.2 and self.done < self.total):
            return
        self._last = now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {self.label}"
                         f"  {rate:.0f}/s  ETA {eta:.0f}s ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def run_in_workers(chunks: list[Any], workers: int, setup: Callable[..., None], setup_args: tuple[Any, ...],
                   run: Callable[[Any], Any], absorb: Callable[[Any], None], ordered: bool = True,
                   cluster: str | None = None) -> bool:
    """Run ``run(chunk)`` for every chunk in ``workers`` supervised processes (each set up once with
    ``setup(*setup_args)``), handing each result to ``absorb`` as it comes.

    A chunk whose worker dies or fails is reported on stderr and skipped (a resumable caller redoes it
    next time). Returns True when Ctrl-C stopped it; whatever was absorbed stays.
    """
    def warn_lost(lost: Lost) -> None:
        print(f"ginbots: a worker was lost ({lost.detail}); its chunk was not done", file=sys.stderr)

    def warn_error(item: Any, text: str) -> None:
        print(f"ginbots: a chunk failed: {text}", file=sys.stderr)

    return distribute([[c] for c in chunks], workers, setup, setup_args, run, lambda _item, result: absorb(result),
                     on_lost=warn_lost, on_error=warn_error, cluster=cluster)


class MatchAborted(RuntimeError):
    """Every game so far forfeited for the same reason: a broken setup, not a result."""


#: Games after which a match whose every game forfeited alike, for a cause outside the bots' play, stops.
ABORT_AFTER = 10
#: Exceptions that say the set-up is broken (files, imports, weights, a bridge that cannot start), not the bot.
INFRASTRUCTURE_ERRORS = ("FileNotFoundError", "PermissionError", "OSError", "ImportError", "ModuleNotFoundError",
                         "WeightsError", "BridgeStartError")


def infrastructure_cause(forfeit: dict[str, Any] | None) -> str | None:
    """The forfeit's detail when it names a broken set-up rather than the bot's own play."""
    if forfeit and forfeit.get("rule") == "exception" and \
            any(forfeit.get("detail", "").startswith(f"raised {name}") for name in INFRASTRUCTURE_ERRORS):
        return f"{forfeit['player']} in {forfeit['action']}: {forfeit['detail']}"
    return None


def run_match(
    spec_a: PlayerSpec,
    spec_b: PlayerSpec,
    config: MatchConfig,
    *,
    progress: bool | None = None,
    on_traces: Callable[[list[dict[str, Any]]], None] | None = None,
) -> MatchReport:
    """Play the match under supervision and gather its statistics; Ctrl-C returns what finished.

    Raises ``MatchAborted`` when the first games all forfeit for one and the same reason, and
    ``SupervisorError`` when a worker cannot even build the players.
    """
    config, (spec_a, spec_b) = judged(config, spec_a, spec_b)
    jobs = schedule(config)
    size = chunk_size(len(jobs), config.workers, 50, config.cluster)
    if spec_a.remembers or spec_b.remembers:
        chunks = block_chunks(jobs, size, lambda job: job.index // MEMORY_BLOCK)
    else:
        chunks = chunks_of(jobs, size)
    bar = ProgressBar(len(jobs), "hands" if config.single_hand else "games", progress)
    results: dict[int, dict[str, Any]] = {}
    hists = {"A": LatencyHistogram(), "B": LatencyHistogram()}
    labels = {"A": spec_a.display, "B": spec_b.display}
    causes: set[str] = set()
    start = time.perf_counter()

    def record(game: dict[str, Any]) -> None:
        results[game["index"]] = game
        causes.add(infrastructure_cause(game.get("forfeit")) or "")
        if len(results) == min(ABORT_AFTER, len(jobs)) and len(causes) == 1 and "" not in causes:
            raise MatchAborted(f"the first {len(results)} games all forfeited for the same broken set-up: "
                               f"{causes.pop()}")
        bar.update(1)

    def on_result(job: GameJob, part: Any) -> None:
        game, part_hists, trace = part
        for role in ("A", "B"):
            hists[role].merge(part_hists[role])
        if trace is not None and on_traces is not None:
            on_traces([trace])
        record(game)

    def on_lost(lost: Lost) -> None:
        record(lost_game(lost.item, lost, labels))

    def on_error(job: GameJob, text: str) -> None:
        record(lost_game(job, None, labels, note=f"runner error: {text.splitlines()[0] if text else ''}"))

    setup_args = (spec_a, spec_b, config.game, config.single_hand, config.trace or on_traces is not None)
    budget = config.game.time_budget
    try:
        interrupted = distribute(chunks, config.workers, _Worker.setup, setup_args, _run_game, on_result,
                                on_lost=on_lost, on_error=on_error,
                                call_limit=None if budget is None else budget + CALL_GRACE_S, cluster=config.cluster)
    finally:
        bar.close()
    games = [results[i] for i in sorted(results)]
    return MatchReport(spec_a, spec_b, config, games, hists, time.perf_counter() - start, interrupted)


#: How far past the whole per-game budget one callback may run before its worker is killed (the
#: in-process watchdog normally ends it at the budget; this is for a player that defeats it).
CALL_GRACE_S = 2.0


def write_json(report: MatchReport, path: str | os.PathLike[str]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(report.to_json(), fh, indent=2)
