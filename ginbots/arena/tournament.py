"""Round-robin tournaments: every bot against every other, resumable, with ratings.

Each pair plays games to 100 on duplicate deals with seats alternated, seeded
from the tournament seed and the pair, in parallel worker processes. Every
finished game is appended to ``games.jsonl`` at once, so an interrupted
tournament continues where it stopped without replaying a game.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable

from ginbots.connect.host import make_player, parse_checked
from ginbots.game.engine import GameConfig
from ginbots.players.registry import PlayerSpec, parse_spec

from .match import (
    CALL_GRACE_S,
    MEMORY_BLOCK,
    GameJob,
    MatchConfig,
    ProgressBar,
    block_chunks,
    chunk_size,
    chunks_of,
    fresh_at_block,
    derive_seed,
    lost_game,
    play_job,
    prepare_players,
    schedule,
    summarize_game,
)
from .keys import judge_dir, run_key_for, seal, sealed
from .ratings import bradley_terry, elo_by_rounds
from .stats import LatencyHistogram, wilson
from .cluster import distribute
from .supervisor import Lost, current_monitor

CONFIG_FILE = "tournament.json"
GAMES_FILE = "games.jsonl"
SUMMARY_FILE = "summary.json"


class TournamentError(ValueError):
    """A tournament that cannot start or resume as asked."""


@dataclass(frozen=True)
class TournamentConfig:
    bots: tuple[str, ...]
    games_per_pair: int = 100
    seed: int = 0
    workers: int = 1
    time_budget: float | None = 30.0
    confidence: float = 0.90
    #: Run bots in their own processes (None: only bots that are not the bundle's own).
    isolate: bool | None = None
    memory_mb: int = 2048
    log_dir: str | None = None
    #: Secret (hex) behind deals, bot seeds and record seals when a bot that is not trusted takes part;
    #: set by ``run_tournament`` from the judge's secret (``ginbots.arena.keys``) unless given.
    run_key: str = ""
    #: Folders no isolated bot may see (the tournament's own, its logs, the judge's key).
    hide: tuple[str, ...] = ()

    def pairs(self) -> list[tuple[str, str]]:
        return list(combinations(self.bots, 2))

    def pair_seed(self, pair: int) -> int:
        """The match seed of pair ``pair``: ``ginbots match A B --seed S --duplicate`` replays its deals."""
        return derive_seed(self.seed, pair)

    def jobs(self) -> list[tuple[int, GameJob]]:
        """(pair index, game) for every game, round-major: game k of every pair, then k+1."""
        per_pair = [schedule(MatchConfig(games=self.games_per_pair, seed=self.pair_seed(p), duplicate=True,
                                         run_key=self.run_key)) for p in range(len(self.pairs()))]
        rounds = max((len(js) for js in per_pair), default=0)
        return [(p, per_pair[p][k]) for k in range(rounds) for p in range(len(per_pair)) if k < len(per_pair[p])]


def _record(pair: int, bots: tuple[str, str], job: GameJob, summary: dict[str, Any],
            times: dict[str, LatencyHistogram]) -> dict[str, Any]:
    return {"pair": pair, "a": bots[0], "b": bots[1], **summary,
            "seed_a": job.seed_a, "seed_b": job.seed_b,
            "times": {role: h.to_json() for role, h in times.items()}}


class _Worker:
    players: dict[tuple[str, int | None], Any] = {}
    specs: dict[str, PlayerSpec] = {}
    remembers: dict[str, bool] = {}
    config: TournamentConfig

    @classmethod
    def setup(cls, config: TournamentConfig) -> None:
        cls.config = config
        cls.specs = {name: parse_spec(name).isolated(config.isolate, config.memory_mb, config.log_dir, config.hide)
                     for name in config.bots}
        cls.players = {}
        cls.remembers = {name: spec.remembers for name, spec in cls.specs.items()}

    @classmethod
    def player(cls, name: str, pair: int, index: int) -> Any:
        """The bot's player for this pair's match: built once per match, as a runner builds the players of
        each match, so what a bot learns of one opponent across games never follows it to the next. A bot in
        its own process (``isolate``) is shared by its matches: a process per match would be too many; one
        that remembers its opponent is not, and starts afresh at each block of the match (``MEMORY_BLOCK``)."""
        spec = cls.specs[name]
        key = (name, None if spec.isolate and not cls.remembers[name] else pair)
        if key not in cls.players:
            cls.players[key] = make_player(spec)
        elif cls.remembers[name]:
            cls.players[key] = fresh_at_block(cls.players[key], spec, index)
        return cls.players[key]

    @classmethod
    def run(cls, item: tuple[int, GameJob]) -> dict[str, Any]:
        p, job = item
        a, b = cls.config.pairs()[p]
        pa, pb = cls.player(a, p, job.index), cls.player(b, p, job.index)
        prepare_players(pa, pb)
        result = play_job(pa, pb, job, GameConfig(time_budget=cls.config.time_budget), monitor=current_monitor())
        times = {"A": LatencyHistogram(), "B": LatencyHistogram()}
        times["A"].add_many(result.decision_times[job.a_seat])
        times["B"].add_many(result.decision_times[job.a_seat ^ 1])
        return _record(p, (a, b), job, summarize_game(job, result), times)


def _todo(config: TournamentConfig, finished: set[tuple[int, int]]) \
        -> tuple[list[tuple[int, GameJob]], Callable[[tuple[int, GameJob]], Any] | None]:
    """The games left to play, and (when a bot remembers its opponent from game to game) what block of
    its match each belongs to. A remembering bot's games go in whole blocks of ``MEMORY_BLOCK``, block k
    of every pair before block k + 1, each block from its first game: a block cut short is played again
    from its start (its finished games are not recorded twice), so resuming gives the same games."""
    remembering = {p for p, pair in enumerate(config.pairs()) if any(parse_spec(n).remembers for n in pair)}
    jobs = config.jobs()
    if not remembering:
        return [(p, job) for p, job in jobs if (p, job.index) not in finished], None

    def block_of(item: tuple[int, GameJob]) -> Any:
        p, job = item
        return (p, job.index // MEMORY_BLOCK) if p in remembering else (p, job.index)

    open_blocks = {block_of((p, job)) for p, job in jobs if (p, job.index) not in finished}
    todo = [(p, job) for p, job in jobs if block_of((p, job)) in open_blocks]
    todo.sort(key=lambda item: (item[1].index // MEMORY_BLOCK, item[0], item[1].index))
    return todo, block_of


def _run_game(item: tuple[int, GameJob]) -> dict[str, Any]:
    return _Worker.run(item)


def load_games(folder: Path, config: TournamentConfig | None = None) -> list[dict[str, Any]]:
    """Finished games of a tournament folder; a torn last line (killed mid-write) is dropped.

    With ``config``, only what this tournament's runner wrote counts: each game of its schedule once,
    and, in a run with a run key, only records whose seal verifies; anything else is reported on
    stderr and left out."""
    path = folder / GAMES_FILE
    if not path.exists():
        return []
    games = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(record, dict):
                games.append(record)
    if config is None:
        return games
    scheduled = {(p, job.index) for p, job in config.jobs()}
    kept: dict[tuple[Any, Any], dict[str, Any]] = {}
    refused = 0
    for record in games:
        where = (record.get("pair"), record.get("index"))
        if where not in scheduled or where in kept or (config.run_key and not sealed(config.run_key, record)):
            refused += 1
            continue
        kept[where] = record
    if refused:
        print(f"ginbots tournament: {refused} record(s) in {path} were not written by this tournament's runner "
              "(outside its schedule, repeated, or with a seal that does not verify) and are not counted",
              file=sys.stderr)
    return list(kept.values())


def prepare(config: TournamentConfig, folder: Path) -> list[dict[str, Any]]:
    """Create or reopen the folder; a resumed tournament must have the same bots and seed."""
    if len(set(config.bots)) != len(config.bots) or len(config.bots) < 2:
        raise TournamentError(f"a tournament needs at least two distinct bots, got {list(config.bots)}")
    for name in config.bots:
        parse_checked(name)  # another package's bot is checked by its own process, never imported here
    folder.mkdir(parents=True, exist_ok=True)
    cfg_path = folder / CONFIG_FILE
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        for key in ("bots", "seed", "time_budget", "run_key"):
            if old.get(key, "") != json.loads(json.dumps(asdict(config)))[key]:
                shown = "a run key" if key == "run_key" else f"{key}={old.get(key)!r}"
                raise TournamentError(f"{folder} holds a tournament with {shown}; asked for "
                                      f"{'another' if key == 'run_key' else repr(asdict(config)[key])}: "
                                      "use another --out folder")
    cfg_path.write_text(json.dumps(asdict(config), indent=2))
    games = load_games(folder, config)
    # Rewrite without a torn line so appends start on a fresh line.
    with open(folder / GAMES_FILE, "w", encoding="utf-8") as fh:
        for g in games:
            fh.write(json.dumps(g, separators=(",", ":")) + "\n")
    return games


LOCK_FILE = ".lock"


def _lock(folder: Path) -> Any:
    """An exclusive lock on the folder for this run; a second writer is refused, naming the holder."""
    folder.mkdir(parents=True, exist_ok=True)
    handle = open(folder / LOCK_FILE, "a+")
    try:
        import fcntl

        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # pragma: no cover - no flock on this platform: no protection, as before
        return handle
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise TournamentError(f"{folder} is being written by another tournament ({holder}); wait for it to "
                              "finish or use another --out folder") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"pid {os.getpid()}")
    handle.flush()
    return handle


def judged(config: TournamentConfig, folder: Path) -> TournamentConfig:
    """With a bot that is not trusted among them: a run key from the judge's secret (unless given), and
    the tournament's folder, its logs and the judge's key out of every isolated bot's sight."""
    if all(parse_spec(name).builtin for name in config.bots) and not config.run_key:
        return config  # the bundle's own bots, isolated or not: public seeds, so its figures replay
    hide = (str(folder.resolve()), *([config.log_dir] if config.log_dir else []), str(judge_dir()))
    return replace(config, run_key=config.run_key or run_key_for(config.seed), hide=hide)


def run_tournament(config: TournamentConfig, folder: str | Path, progress: bool | None = None,
                   cluster: str | None = None) -> dict[str, Any]:
    """Play every missing game, then summarise; Ctrl-C keeps every finished game.

    The folder is locked for the run: a second tournament on it is refused, not interleaved.
    ``cluster`` (a Dask scheduler's address) sends chunks of games to its workers; where the games
    were played is not part of the tournament, so a run may resume on another cluster or locally.
    """
    folder = Path(folder)
    config = judged(config, folder)
    lock = _lock(folder)
    try:
        return _run_locked(config, folder, progress, cluster)
    finally:
        lock.close()


def _run_locked(config: TournamentConfig, folder: Path, progress: bool | None, cluster: str | None) -> dict[str, Any]:
    done = prepare(config, folder)
    finished = {(g["pair"], g["index"]) for g in done}
    todo, block_of = _todo(config, finished)
    bar = ProgressBar(sum((p, job.index) not in finished for p, job in todo), "games", progress)
    size = chunk_size(len(todo), config.workers, 20, cluster)
    chunks = block_chunks(todo, size, block_of) if block_of else chunks_of(todo, size)
    with open(folder / GAMES_FILE, "a", encoding="utf-8") as out:
        def write(record: dict[str, Any]) -> None:
            if (record["pair"], record["index"]) in finished:
                return  # re-played only to bring a remembering bot's block up to where it stopped
            if config.run_key:
                record = seal(config.run_key, record)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            out.flush()
            bar.update(1)

        def on_lost(lost: Lost) -> None:
            p, job = lost.item
            if (p, job.index) in finished:
                return
            a, b = config.pairs()[p]
            empty = {"A": LatencyHistogram(), "B": LatencyHistogram()}
            write(_record(p, (a, b), job, lost_game(job, lost, {"A": a, "B": b}), empty))

        budget = config.time_budget
        try:
            interrupted = distribute(chunks, config.workers, _Worker.setup, (config,), _run_game,
                                    lambda _item, record: write(record), on_lost=on_lost,
                                    call_limit=None if budget is None else budget + CALL_GRACE_S, cluster=cluster)
        finally:
            bar.close()
    summary = summarize(config, load_games(folder, config))
    summary["interrupted"] = interrupted
    (folder / SUMMARY_FILE).write_text(json.dumps(summary, indent=2))
    return summary


def summarize(config: TournamentConfig, games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Pairwise table, per-bot figures, Elo by rounds and Bradley-Terry ratings."""
    games = sorted(games, key=lambda g: (g["index"], g["pair"]))
    bots = list(config.bots)
    pairs = config.pairs()
    pair_rows = []
    per_bot: dict[str, dict[str, Any]] = {b: {"games": 0, "wins": 0, "losses": 0, "hands": 0, "points": 0,
                                              "forfeits": [], "latency": LatencyHistogram()} for b in bots}
    wins: dict[tuple[str, str], float] = {}
    rounds: dict[int, list[tuple[str, str, float]]] = {}
    for p, (a, b) in enumerate(pairs):
        mine = [g for g in games if g["pair"] == p]
        a_wins = sum(1 for g in mine if g["winner"] == "A")
        b_wins = sum(1 for g in mine if g["winner"] == "B")
        hands = [h for g in mine for h in g["hands"]]
        n_h = len(hands) or 1
        lo, hi = wilson(a_wins, a_wins + b_wins, config.confidence)
        pair_rows.append({
            "a": a, "b": b, "games": len(mine), "a_wins": a_wins, "b_wins": b_wins,
            "a_win_rate": a_wins / (a_wins + b_wins) if a_wins + b_wins else 0.0, "ci": [lo, hi],
            "a_points_per_hand": sum(h["points"] for h in hands if h["winner"] == "A") / n_h,
            "b_points_per_hand": sum(h["points"] for h in hands if h["winner"] == "B") / n_h,
            "gin_rate": sum(1 for h in hands if h["result"] == "gin") / n_h,
            "undercut_rate": sum(1 for h in hands if h["result"] == "undercut") / n_h,
            "forfeits": [g["forfeit"]["reason"] for g in mine if "forfeit" in g],
        })
        wins[(a, b)] = a_wins
        wins[(b, a)] = b_wins
        for g in mine:
            for role, name in (("A", a), ("B", b)):
                stats = per_bot[name]
                stats["games"] += 1
                stats["wins"] += g["winner"] == role
                stats["losses"] += g["winner"] not in (role, None)
                stats["hands"] += len(g["hands"])
                stats["points"] += sum(h["points"] for h in g["hands"] if h["winner"] == role)
                stats["latency"].merge(LatencyHistogram.from_json(g["times"][role]))
                if g.get("forfeit", {}).get("role") == role:
                    stats["forfeits"].append(f"game {g['index']} vs {b if role == 'A' else a}: {g['forfeit']['reason']}")
            if g["winner"] is not None:
                score = 1.0 if g["winner"] == "A" else 0.0
                rounds.setdefault(g["index"], []).append((a, b, score))
    elo = elo_by_rounds(bots, [rounds[k] for k in sorted(rounds)])
    bt = bradley_terry(bots, wins, confidence=config.confidence)
    bot_rows = []
    for name in bots:
        s = per_bot[name]
        lat = s["latency"]
        lo, hi = wilson(s["wins"], s["wins"] + s["losses"], config.confidence)
        bot_rows.append({
            "bot": name, "games": s["games"], "wins": s["wins"], "losses": s["losses"],
            "win_rate": s["wins"] / (s["wins"] + s["losses"]) if s["wins"] + s["losses"] else 0.0, "ci": [lo, hi],
            "points_per_hand": s["points"] / s["hands"] if s["hands"] else 0.0,
            "elo": elo[name], "bt": bt[name][0], "bt_ci": [bt[name][1], bt[name][2]],
            "decision_ms_p50": lat.quantile(0.5) * 1e3, "decision_ms_p99": lat.quantile(0.99) * 1e3,
            "decisions": lat.total, "forfeits": s["forfeits"],
        })
    bot_rows.sort(key=lambda r: -r["bt"])
    return {"config": asdict(config), "games": len(games), "bots": bot_rows, "pairs": pair_rows}


def summary_text(summary: dict[str, Any]) -> str:
    cfg = summary["config"]
    conf = int(round(cfg["confidence"] * 100))
    lines = [f"round robin of {len(cfg['bots'])} bots, {cfg['games_per_pair']} games per pair "
             f"({summary['games']} games played, seed {cfg['seed']})",
             f"  {'bot':<22}{'BT rating':>10}  {conf}% interval      {'Elo':>7}  {'win rate':>9}  pts/hand  "
             f"decision ms p50/p99  forfeits"]
    for r in summary["bots"]:
        lines.append(f"  {r['bot']:<22}{r['bt']:>10.0f}  [{r['bt_ci'][0]:6.0f}, {r['bt_ci'][1]:6.0f}]  {r['elo']:>7.0f}"
                     f"  {r['win_rate'] * 100:>8.1f}%  {r['points_per_hand']:>8.2f}  "
                     f"{r['decision_ms_p50']:8.3f} / {r['decision_ms_p99']:.3f}  {len(r['forfeits'])}")
    lines.append("  pairs (win rate of the first):")
    for p in summary["pairs"]:
        lines.append(f"    {p['a']} vs {p['b']}: {p['a_win_rate'] * 100:.1f}% [{p['ci'][0] * 100:.1f}, "
                     f"{p['ci'][1] * 100:.1f}] over {p['games']} games"
                     + (f"; {len(p['forfeits'])} forfeits" if p["forfeits"] else ""))
    return "\n".join(lines)


def regenerate_trace(folder: str | Path, a: str, b: str, index: int) -> dict[str, Any]:
    """Replay one tournament game from its recorded seeds and return its full trace.

    Players are reseeded per game, so the game comes out move for move; the
    recorded winner and scores are checked against it.
    """
    folder = Path(folder)
    raw = json.loads((folder / CONFIG_FILE).read_text())
    config = TournamentConfig(**{**raw, "bots": tuple(raw["bots"]), "workers": 1})
    pairs = config.pairs()
    key = (a, b) if (a, b) in pairs else (b, a)
    if key not in pairs:
        raise TournamentError(f"no pair {a} vs {b} in {folder} (bots: {', '.join(config.bots)})")
    p = pairs.index(key)
    record = next((g for g in load_games(folder) if g["pair"] == p and g["index"] == index), None)
    pair_jobs = [j for q, j in config.jobs() if q == p]
    job = next((j for j in pair_jobs if j.index == index), None)
    if job is None:
        raise TournamentError(f"{key[0]} vs {key[1]} has no game {index} in {folder} "
                              f"({config.games_per_pair} games per pair)")
    spec_a, spec_b = parse_spec(key[0]), parse_spec(key[1])
    pa, pb = make_player(spec_a), make_player(spec_b)
    # A bot that remembers its opponent played this game after the earlier games of its block: play them first.
    start = index - index % MEMORY_BLOCK if spec_a.remembers or spec_b.remembers else index
    for before in [j for j in pair_jobs if start <= j.index <= index]:
        result = play_job(pa, pb, before, GameConfig(time_budget=config.time_budget), trace=before.index == index)
    again = summarize_game(job, result)
    # games.jsonl is not committed with a report; without it the game is replayed from its seeds unchecked
    if record is not None and (again["winner"], again["scores"]) != (record["winner"], record["scores"]):
        raise TournamentError(f"game {index} of {key[0]} vs {key[1]} did not replay identically "
                              f"(a player is not deterministic from its seed)")
    trace = result.trace or {}
    trace["game"] = index
    trace["players"] = [key[0] if job.a_seat == 0 else key[1], key[1] if job.a_seat == 0 else key[0]]
    return trace


def default_bots() -> tuple[str, ...]:
    from ginbots.players.registry import available_players
    return tuple(available_players())
