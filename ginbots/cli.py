"""The ``ginbots`` command: list players, play matches, replay traces, run benchmarks."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from typing import Any, Sequence

from ginbots.arena.cluster import add_cluster_argument
from ginbots.game.engine import GameConfig

from . import __version__


def _budget(text: str) -> float | None:
    if text.lower() in ("off", "none", "0"):
        return None
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("time budget must be positive, or 'off'")
    return value


def _confidence(text: str) -> float:
    value = float(text)
    if value > 1:
        value /= 100
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError("confidence must be in (0, 1) or a percentage")
    return value


def cmd_list(args: argparse.Namespace) -> int:
    from ginbots.connect.host import describe_bot
    from ginbots.players.registry import describe_players, tuned_params_path

    players = describe_players(describe=lambda name, params: describe_bot(name, params))
    for p in players:
        path = tuned_params_path(p["name"])
        if path is not None:
            record = json.loads(path.read_text())  # the shipped record: its params and its held-out check
            held = record.get("heldout") or {}
            p["tuned"] = {"spec": f"{p['name']}:tuned", "params": record.get("params", {}),
                          "heldout": held, "opponents": record.get("opponents", [])}
    if args.json:
        print(json.dumps(players, indent=2, default=str))
        return 0
    width = max(len(p["name"]) for p in players)
    for p in players:
        if "error" in p:
            print(f"{p['name']:<{width}}  [failed to load: {p['error']}]")
            continue
        line = f"{p['name']:<{width}}  {p['summary'].replace('``', '')}"
        print(line if len(line) <= 110 or args.params else line[:107] + "...")
        for key, value in p.get("runtime", {}).items():
            print(f"{'':<{width}}  {key}: {value}")
        tuned = p.get("tuned")
        if tuned:
            held = tuned["heldout"]
            shown = (f": {100 * held['win_rate']:.1f}% of {held['games']:,} held-out games vs "
                     f"{', '.join(tuned['opponents'])}" if held else "")
            print(f"{'':<{width}}  also {tuned['spec']}{shown}")
        if args.params:
            for hp in p["hyperparameters"]:
                print(f"{'':<{width}}    - {_hyperparameter_line(hp)}")
    if not args.params:
        print("\nginbots list --params shows every bot's hyperparameters; docs/bots/ has each bot's page")
    return 0


def _hyperparameter_line(hp: dict[str, Any]) -> str:
    def short(value: Any) -> str:
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    if hp["choices"]:
        space = "{" + ", ".join(map(str, hp["choices"])) + "}"
    elif hp["type"] == "bool":
        space = "{true, false}"
    else:
        space = f"[{short(hp['low'])}, {short(hp['high'])}]{' log' if hp['log'] else ''}"
    return f"{hp['name']} = {short(hp['default'])}  {hp['type']} {space}  {hp['doc']}"


def cmd_match(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ginbots.arena.keys import check_run_key
    from ginbots.arena.match import MEMORY_BLOCK, MatchConfig, run_match, write_json
    from ginbots.arena.trace import write_traces
    from ginbots.connect.host import parse_checked

    from ginbots.connect.sandbox import LOG_ROOT, private_folder

    log_dir = args.log_dir or str(LOG_ROOT)
    # What this run writes is out of every isolated bot's sight.
    hide = tuple(str(Path(f).resolve().parent) for f in (args.json, args.trace) if f)
    spec_a = parse_checked(args.player_a, args.params_a).isolated(args.isolate, args.memory_mb, log_dir, hide)
    spec_b = parse_checked(args.player_b, args.params_b).isolated(args.isolate, args.memory_mb, log_dir, hide)
    if not args.log_dir and (spec_a.isolate or spec_b.isolate):
        private_folder(LOG_ROOT)  # this user's alone: refused by name if another user (or a link) holds it
    config = MatchConfig(
        run_key=check_run_key(args.run_key) if args.run_key else "",
        games=args.games,
        seed=args.seed,
        workers=args.workers,
        duplicate=args.duplicate,
        single_hand=args.single_hand,
        confidence=args.confidence,
        game=GameConfig(time_budget=args.time_budget, max_turns_per_hand=args.max_turns),
        cluster=args.cluster,
    )
    on_traces = None
    if args.trace:
        open(args.trace, "w").close()

        def append_traces(traces: list[dict[str, Any]]) -> None:
            write_traces(args.trace, traces, append=True)
        on_traces = append_traces

    report = run_match(spec_a, spec_b, config, progress=None if args.progress is None else args.progress,
                       on_traces=on_traces)
    print(report.to_text())
    if args.json:
        write_json(report, args.json)
        print(f"  results written to {args.json}")
    if args.trace:
        print(f"  traces written to {args.trace} (ginbots replay {args.trace} --game N --hand K)")
    isolated = [s.display for s in (spec_a, spec_b) if s.isolate]
    if isolated:
        print(f"  isolated in their own processes: {', '.join(isolated)}; their stderr: {log_dir}")
    from ginbots.players.registry import is_trusted

    confined = [s.display for s in (spec_a, spec_b) if s.isolate and not is_trusted(s.name)]
    if confined:
        from ginbots.connect.confine import Confinement

        print(f"  confined, from outside the bundle: {', '.join(confined)} (stopped between its turns; "
              f"{Confinement.describe_host()})")
    remembering = [s.display for s in (spec_a, spec_b) if s.remembers]
    if remembering:
        print(f"  {', '.join(remembering)} carried what it learned of its opponent from game to game: its games "
              f"were played in blocks of {MEMORY_BLOCK}, each from a fresh player (the same games with any --workers)")
    return 130 if report.interrupted else 0


def _add_isolation(p: argparse.ArgumentParser) -> None:
    p.add_argument("--isolate", action=argparse.BooleanOptionalAction, default=None,
                   help="run each bot in its own process behind the bridge, sharing nothing with the engine "
                        "(default: only bots that do not come from this package)")
    p.add_argument("--memory-mb", type=int, default=2048,
                   help="address-space cap of an isolated bot's process, MiB (default 2048)")
    p.add_argument("--log-dir", help="where isolated bots' stderr goes (default: TMPDIR/ginbots-logs-UID)")
    p.add_argument("--run-key", help="replay a run with isolated bots: the run key its results record (by default "
                                     "it comes from the seed and this machine's judge key; see docs/robustness.md)")


def cmd_play(args: argparse.Namespace) -> int:
    from ginbots.arena.play import play

    play(args.bot, seed=args.seed, save=args.save, colour=False if args.no_colour else None, seat=args.seat)
    return 0


def cmd_view(args: argparse.Namespace) -> int:
    from ginbots.arena.view import TraceProblem, view

    try:
        path, problems = view(args.trace, args.output, args.game)
    except TraceProblem as exc:
        print(f"ginbots view: error: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"ginbots view: skipped {problem}", file=sys.stderr)
    print(f"wrote {path} (open it in a browser; arrow keys step through the game)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ginbots.arena.trace import describe_hand, read_traces, replay

    if Path(args.trace).is_dir():
        return _replay_tournament_game(args)
    try:
        records = list(read_traces(args.trace))
    except ValueError as exc:
        print(f"ginbots replay: {exc}", file=sys.stderr)
        return 2
    if not records:
        print(f"{args.trace}: no games", file=sys.stderr)
        return 2
    chosen = [r for r in records if r.get("game", records.index(r)) == args.game] if args.game is not None else records[:1]
    if not chosen:
        print(f"{args.trace}: no game {args.game} (games: {[r.get('game') for r in records][:20]}...)", file=sys.stderr)
        return 2
    record = chosen[0]
    if args.check:
        failures = 0
        for rec in (records if args.game is None else chosen):
            report = replay(rec)
            if not report.ok:
                failures += 1
                print(f"game {rec.get('game', '?')}: {report.mismatches[0]}")
        total = len(records) if args.game is None else 1
        print(f"replayed {total} game(s): {total - failures} identical, {failures} different")
        return 1 if failures else 0
    hands = [args.hand] if args.hand else range(1, len(record["hands"]) + 1)
    for k in hands:
        print(describe_hand(record, k))
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    try:
        from ginbots.tuning.harness import StudyError, TuneConfig, tune
        from ginbots.tuning.space import SearchSpaceError
        from ginbots.tuning.studies import (
            StudyFileError,
            is_study_file,
            load_study_file,
        )
    except ImportError as exc:
        print(f"ginbots tune: needs the tune extra (optuna, matplotlib): pip install 'ginbots[tune]' ({exc})",
              file=sys.stderr)
        return 2
    from ginbots.connect.host import parse_checked

    settings: dict[str, Any] = {}
    if is_study_file(args.bot):
        try:
            settings = load_study_file(args.bot)
        except StudyFileError as exc:
            print(f"ginbots tune: error: {exc}", file=sys.stderr)
            return 2
    else:
        settings["bot"] = args.bot
    # Options given on the command line win over the study file; the rest keep TuneConfig's defaults.
    given = {"trials": args.trials, "games_per_trial": args.games_per_trial, "batches": args.batches,
             "study": args.study, "storage": args.storage, "workers": args.workers, "objective": args.objective,
             "pruner": args.pruner, "seed": args.seed, "heldout_games": args.heldout_games, "timeout": args.timeout}
    settings.update({k: v for k, v in given.items() if v is not None})
    if args.opponents is not None:
        settings["opponents"] = [o.strip() for o in args.opponents.split(";" if ";" in args.opponents else ",")
                                 if o.strip()]
    if args.only:
        settings["only"] = [n.strip() for n in args.only.split(",")]
    if args.fix:
        settings["fixed"] = parse_checked(f"{settings['bot']}:{args.fix}").params
    settings.setdefault("opponents", ["simple"])
    config = TuneConfig(**settings, out_dir=args.out_dir, isolate=args.isolate, progress=args.progress)
    for name in config.opponents:
        parse_checked(name)
    try:
        tune(config)
    except (StudyError, SearchSpaceError) as exc:
        print(f"ginbots tune: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\ninterrupted: finished trials are saved in {config.storage}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from ginbots.arena.keys import check_run_key
    from ginbots.arena.report import build_report
    from ginbots.arena.tournament import (
        TournamentConfig,
        TournamentError,
        default_bots,
        run_tournament,
        summary_text,
    )

    config = TournamentConfig(bots=tuple(args.bots) or default_bots(), games_per_pair=args.games_per_pair,
                              seed=args.seed, workers=args.workers, time_budget=args.time_budget,
                              confidence=args.confidence, isolate=args.isolate, memory_mb=args.memory_mb,
                              log_dir=args.log_dir or os.path.join(args.out, "logs"),
                              run_key=check_run_key(args.run_key) if args.run_key else "")
    try:
        summary = run_tournament(config, args.out, progress=args.progress, cluster=args.cluster)
    except TournamentError as exc:
        print(f"ginbots tournament: error: {exc}", file=sys.stderr)
        return 2
    print(summary_text(summary))
    page, charts = build_report(summary, args.out)
    print(f"  report: {page}" + (f" and {len(charts)} charts" if charts else " (charts need matplotlib)"))
    if summary.get("interrupted"):
        print("  interrupted: run the same command again to finish", file=sys.stderr)
        return 130
    return 0


def _replay_tournament_game(args: argparse.Namespace) -> int:
    from ginbots.arena.tournament import TournamentError, regenerate_trace
    from ginbots.arena.trace import describe_hand, write_traces

    if not args.pair or args.game is None:
        print("ginbots replay: a tournament folder needs --pair A,B and --game N", file=sys.stderr)
        return 2
    a, _, b = args.pair.partition(",")
    try:
        trace = regenerate_trace(args.trace, a, b, args.game)
    except TournamentError as exc:
        print(f"ginbots replay: error: {exc}", file=sys.stderr)
        return 2
    if args.save:
        write_traces(args.save, [trace])
        print(f"trace written to {args.save}")
    for k in ([args.hand] if args.hand else range(1, len(trace["hands"]) + 1)):
        print(describe_hand(trace, k))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from ginbots.connect.bridge import main as bridge_main

    return bridge_main([args.bot] + (["--params", args.params] if args.params else []) + ["--seed", str(args.seed)])


def cmd_package(args: argparse.Namespace) -> int:
    from ginbots.connect.package import PackageError, build_package, verify_package

    if args.rebuild_shim:
        from pathlib import Path

        from ginbots.connect import shim

        try:
            built = shim.rebuild(Path(args.target))
        except RuntimeError as exc:
            print(f"ginbots package: error: {exc}", file=sys.stderr)
            return 2
        print(f"rebuilt {len(built)} shim classes (Java 8 bytecode) in {shim.CLASSES}")
        return 0
    if args.verify:
        report = verify_package(args.target, games=args.games, fresh_env=not args.no_venv)
        print(report.text())
        return 0 if report.ok else 1
    try:
        archive = build_package(args.target, args.params, args.output)
    except PackageError as exc:
        print(f"ginbots package: error: {exc}", file=sys.stderr)
        return 2
    print(f"built {archive} ({archive.stat().st_size:,} bytes); check it with: ginbots package --verify {archive}")
    return 0


def cmd_openspiel(args: argparse.Namespace) -> int:
    try:
        from ginbots.connect.openspiel import GinbotsBot, play_hands, simple_bot
    except ImportError as exc:
        print(f"ginbots openspiel: needs the openspiel extra (pip install 'ginbots[openspiel]'): {exc}",
              file=sys.stderr)
        return 2
    from ginbots.connect.host import make_player, parse_checked

    spec = parse_checked(args.bot, args.params).isolated(None)  # another package's bot in its own process
    result = play_hands(lambda game, p: GinbotsBot(game, p, make_player(spec, seed=args.seed * 2 + p), seed=args.seed),
                        simple_bot, args.hands, seed=args.seed)
    print(openspiel_summary(spec.display, result))
    return 0


def openspiel_summary(name: str, result: Any, confidence: float = 0.90) -> str:
    """One line: points per hand with a normal interval, decided-hand win rate with Wilson's."""
    from statistics import pstdev

    from ginbots.arena.stats import wilson, z_for


    n = result.hands
    half = z_for(confidence) * pstdev(result.points) / n ** 0.5 if n > 1 else float("inf")
    decided = [p for p in result.points if p != 0]
    wins = sum(p > 0 for p in decided)
    lo, hi = wilson(wins, len(decided), confidence)
    falls = ", ".join(f"{k} {v}" for k, v in sorted(result.fallbacks.items())) or "none"
    return (f"{name} vs OpenSpiel simple: {result.points_per_hand:+.2f} points/hand "
            f"[{result.points_per_hand - half:+.2f}, {result.points_per_hand + half:+.2f}] over {n} hands; "
            f"won {wins}/{len(decided)} decided hands = {wins / max(1, len(decided)):.1%} "
            f"[{lo:.1%}, {hi:.1%}] ({confidence:.0%}); fallbacks: {falls}")


def cmd_bench(args: argparse.Namespace) -> int:
    from ginbots.arena.bench import format_results, run_all

    if args.what == "selfplay":
        try:
            from ginbots.training.selfplay.bench import bench_selfplay, format_selfplay

            results = bench_selfplay(hands=500 if args.quick else 2000)
        except ImportError as exc:
            print(f"ginbots bench selfplay: {exc}", file=sys.stderr)
            return 2
        print(format_selfplay(results))
    elif args.what == "isolation":
        from ginbots.arena.bench import bench_isolation, format_isolation

        results = bench_isolation(games=10 if args.quick else 40)
        print(format_isolation(results))
    elif args.what == "champion":
        from ginbots.arena.bench import bench_champion, format_champion

        try:
            results = bench_champion(games=2 if args.quick else 10, spec=args.spec)
        except ValueError as exc:
            print(f"ginbots bench champion: {exc}", file=sys.stderr)
            return 2
        print(format_champion(results))
    else:
        results = run_all(quick=args.quick)
        print(format_results(results))
    if args.json:
        command = ["ginbots", "bench", *([args.what] if args.what != "all" else []), *(["--quick"] if args.quick else []),
                   *(["--spec", args.spec] if args.spec != "champion" else []), "--json", args.json]
        record = {"command": " ".join(command), "date": datetime.date.today().isoformat(),
                  "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the end",
                  **results}
        with open(args.json, "w") as fh:
            json.dump(record, fh, indent=2)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ginbots", description=__doc__,
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ginbots {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    plain_add = sub.add_parser

    def add_parser(*args: Any, **kwargs: Any) -> argparse.ArgumentParser:
        # every command's --help shows its defaults
        kwargs.setdefault("formatter_class", argparse.ArgumentDefaultsHelpFormatter)
        return plain_add(*args, **kwargs)

    sub.add_parser = add_parser  # type: ignore[method-assign]

    _add_play_commands(sub)
    _add_tuning_commands(sub)
    _add_submission_commands(sub)
    from ginbots.training.estimator_cli import add_parser as add_estimators_parser

    add_estimators_parser(sub)
    from ginbots.training.offense_cli import add_parser as add_offense_parser

    add_offense_parser(sub)

    p = sub.add_parser("bench", help="speed benchmarks on this machine")
    p.add_argument("what", nargs="?", choices=("all", "selfplay", "isolation", "champion"), default="all",
                   help="all: melds, engine and decision times (default); selfplay: the compiled self-play core "
                        "against the engine on the same hands (extra train); isolation: what a sandboxed process "
                        "adds to a decision; champion: its CPU per game on pure-Python and compiled playouts, "
                        "the same games")
    p.add_argument("--quick", action="store_true", help="short run (less precise)")
    p.add_argument("--spec", default="champion",
                   help="champion: the spec benched (champion:param=value,...; the bench sets playouts)")
    p.add_argument("--json", help="write the figures as JSON")
    p.set_defaults(func=cmd_bench)
    return parser


def _add_play_commands(sub: Any) -> None:
    """Commands that play, replay and show games: list, match, replay, play, view."""
    p = sub.add_parser("list", help="registered players, one line each (--params: their hyperparameters)")
    p.add_argument("--params", action="store_true", help="every bot's hyperparameters, defaults and ranges")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("match", help="head-to-head match between two players")
    p.add_argument("player_a", help="player spec: NAME, NAME:tuned, NAME:file.json or NAME:k=v,k=v")
    p.add_argument("player_b")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help=f"worker processes (this machine has {os.cpu_count()} cores)")
    add_cluster_argument(p)
    p.add_argument("--duplicate", action="store_true", help="play each deal sequence twice with seats swapped")
    p.add_argument("--single-hand", action="store_true", help="single hands instead of games to 100 (hand win rate)")
    p.add_argument("--confidence", type=_confidence, default=0.90, help="Wilson interval level (default 0.90)")
    p.add_argument("--time-budget", type=_budget, default=30.0, help="thinking seconds per player per game, or off")
    p.add_argument("--max-turns", type=int, default=GameConfig.max_turns_per_hand, help="turn cap per hand (cancels)")
    p.add_argument("--params-a", help="JSON parameter file for player A")
    p.add_argument("--params-b", help="JSON parameter file for player B")
    p.add_argument("--json", help="write the results as JSON")
    p.add_argument("--trace", help="write every game as a JSON Lines trace")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar (default: when stderr is a terminal)")
    _add_isolation(p)
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("replay", help="print or check a recorded game (a trace file or a tournament folder)")
    p.add_argument("trace")
    p.add_argument("--game", type=int, help="game index in the trace file (default: the first)")
    p.add_argument("--hand", type=int, help="hand number, from 1 (default: all)")
    p.add_argument("--check", action="store_true", help="replay through the engine and compare every event")
    p.add_argument("--pair", help="with a tournament folder: the two bots, A,B")
    p.add_argument("--save", help="with a tournament folder: also write the game's trace here")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("play", help="play a game to 100 yourself against a bot, in the terminal")
    p.add_argument("bot", help="player spec of the opponent")
    p.add_argument("--seed", type=int, default=0, help="deal seed (the bot's seed follows from it)")
    p.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat")
    p.add_argument("--save", default="ginbots-play.jsonl",
                   help="where the game is saved as a trace (for ginbots view and replay)")
    p.add_argument("--no-colour", action="store_true", help="plain card names, no colours")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("view", help="a recorded game as one self-contained HTML page to step through")
    p.add_argument("trace", help="a trace file written by ginbots match --trace")
    p.add_argument("--game", type=int, help="game index in the trace (default: the first whole game)")
    p.add_argument("-o", "--output", help="the HTML file (default: TRACE with .html)")
    p.set_defaults(func=cmd_view)



def _add_tuning_commands(sub: Any) -> None:
    """Commands that measure bots against each other at scale: tune, tournament."""
    p = sub.add_parser("tune", help="tune a bot's hyperparameters with Optuna (needs the tune extra)")
    p.add_argument("bot", help="the bot to tune, or a study file (tuning/studies/keats.toml) whose settings "
                               "the options below override")
    p.add_argument("--opponents", help="player specs, separated by commas, or by ';' when a spec has "
                                       "parameters (default: simple)")
    p.add_argument("--trials", type=int, help="finished trials the study should hold (default: 100)")
    p.add_argument("--games-per-trial", type=int, help="games each trial plays (default: 400)")
    p.add_argument("--batches", type=int, help="pruning checkpoints per trial (default: 4)")
    p.add_argument("--study", help="study name (default: BOT-vs-OPPONENTS)")
    p.add_argument("--storage", help="journal file path, or an Optuna RDB URL: sqlite:///study.db, "
                                     "postgresql://user:pass@host/db (needs psycopg2 or psycopg) "
                                     "(default: OUT/studies/STUDY.journal)")
    p.add_argument("--workers", type=int, help="worker processes sharing the study (default: 1)")
    p.add_argument("--objective", choices=("winrate", "points"),
                   help="game win rate (default), or net points per hand")
    p.add_argument("--pruner", choices=("median", "sha", "none"), help="(default: median)")
    p.add_argument("--seed", type=int, help="deal seeds (common to all trials) and sampler seed (default: 0)")
    p.add_argument("--heldout-games", type=int, help="games for the final check (default: max(2000, 4x per trial))")
    p.add_argument("--only", help="comma-separated hyperparameters to tune (default: all tunable ones)")
    p.add_argument("--fix", help="hold hyperparameters fixed: k=v,k=v")
    p.add_argument("--out", "--out-dir", dest="out_dir", default="results/tuning",
                   help="where studies/, best/ and plots/ go (default results/tuning; never the package's own "
                        "tuning/best)")
    p.add_argument("--timeout", type=float, help="stop starting trials after this many seconds")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar for the held-out games (default: when stderr is a terminal)")
    _add_isolation(p)
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser("tournament", help="round robin of bots with ratings and a report (resumable)")
    p.add_argument("bots", nargs="*", help="player specs (default: every registered bot)")
    p.add_argument("--games-per-pair", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--time-budget", type=_budget, default=30.0)
    p.add_argument("--confidence", type=_confidence, default=0.90)
    p.add_argument("--out", default="results/tournament", help="folder for games, summary and report")
    add_cluster_argument(p)
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None)
    _add_isolation(p)
    p.set_defaults(func=cmd_tournament)



def _add_submission_commands(sub: Any) -> None:
    """Commands that run a bot for a harness outside the package: serve, package, openspiel."""
    p = sub.add_parser("serve", help="play a bot over stdin/stdout (the bridge protocol, submission/PROTOCOL.md)")
    p.add_argument("bot")
    p.add_argument("--params")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("package", help="build a submission archive for a bot, or --verify one")
    p.add_argument("target", help="player spec to package, or with --verify the archive")
    p.add_argument("--params", help="JSON parameter file for the bot")
    p.add_argument("-o", "--output", default="submission/dist", help="folder for the archive")
    p.add_argument("--verify", action="store_true", help="unpack, check hashes, play smoke games")
    p.add_argument("--games", type=int, default=4, help="smoke games against simple when verifying")
    p.add_argument("--no-venv", action="store_true",
                   help="verify with this interpreter instead of a fresh virtual environment made from the "
                        "manifest's requirements (faster; the builder's site-packages can then hide a missing file)")
    p.add_argument("--rebuild-shim", action="store_true",
                   help="recompile the shipped Java shim classes (--release 8) from their sources; needs javac and "
                        "the stand-in ginrummy package of a checkout (TARGET: its folder, submission/java/stub/ginrummy)")
    p.set_defaults(func=cmd_package)

    p = sub.add_parser("openspiel", help="play a bot in OpenSpiel's gin_rummy against its simple bot")
    p.add_argument("bot")
    p.add_argument("--params")
    p.add_argument("--hands", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=cmd_openspiel)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except BrokenPipeError:  # output piped into head and closed: not an error
        sys.stderr.close()
        return 0
    except (ValueError, KeyError, OSError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"ginbots {args.command}: error: {message}", file=sys.stderr)
        return 2
    except RuntimeError as exc:
        from ginbots.arena.match import MatchAborted
        from ginbots.arena.supervisor import SupervisorError

        if isinstance(exc, (MatchAborted, SupervisorError)):
            print(f"ginbots {args.command}: stopped: {exc}", file=sys.stderr)
            return 3
        raise


if __name__ == "__main__":
    sys.exit(main())
