"""Finding players by name: the bundle's own plus any registered by other packages.

Third-party packages add a bot through the ``ginbots.players`` entry-point
group (``mybot = "mypkg.bots:MyBot"``); it then shows up in ``ginbots list``
and can be named in ``ginbots match``. A spec names a bot and its parameters:
``keats``, ``keats:tuned`` (``tuning/best/keats.json``, shipped), ``keats:path.json`` or
``keats:knock_threshold=6,late_game_stock=12``.
"""

from __future__ import annotations

import importlib
import json
import warnings
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence

from .base import Hyperparameter, Player, resolve_params

ENTRY_POINT_GROUP = "ginbots.players"

#: The bundle's own players, found even when the package is not installed.
BUILTIN_PLAYERS = {
    "simple": "ginbots.players.baselines:SimplePlayer",
    "random": "ginbots.players.baselines:RandomPlayer",
    "greedy": "ginbots.players.baselines:GreedyPlayer",
    "keats": "ginbots.players.keats:KeatsPlayer",
    "planner": "ginbots.players.planner:PlannerPlayer",
    "safe": "ginbots.players.safe:SafeDiscarderPlayer",
    "heuristic": "ginbots.players.heuristic:HeuristicUtilityPlayer",
    "dual-inception": "ginbots.players.dual_inception:DualInceptionPlayer",
    "champion": "ginbots.players.champion:ChampionPlayer",
}

def shipped_tuning_dirs() -> list[Path]:
    """Where the shipped tuning (``studies/``, ``best/``) lives: the checkout's top-level ``tuning/``,
    then the installed copy (package ``ginbots.tuned``)."""
    dirs = [Path(__file__).resolve().parents[2] / "tuning"]
    try:
        from importlib.resources import files

        dirs.append(Path(str(files("ginbots.tuned"))))
    except (ImportError, ModuleNotFoundError, TypeError):
        pass
    return list(dict.fromkeys(d.resolve() for d in dirs if (d / "best").is_dir()))


def tuned_dirs() -> list[Path]:
    """Where ``NAME:tuned`` looks for ``NAME.json``: the parameters the package ships."""
    return [d / "best" for d in shipped_tuning_dirs()]


def tuned_params_path(name: str) -> Path | None:
    for folder in tuned_dirs():
        path = folder / f"{name}.json"
        if path.exists():
            return path
    return None


def _load(target: str) -> type[Player]:
    module_name, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module_name), attr)
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise TypeError(f"{target} is not a ginbots Player subclass")
    return cls


def available_players() -> dict[str, str]:
    """Registered name -> ``module:Class`` (built-ins first, then entry points)."""
    found = dict(BUILTIN_PLAYERS)
    try:
        entry_points = metadata.entry_points(group=ENTRY_POINT_GROUP)
    except TypeError:  # Python < 3.10 API shape
        entry_points = metadata.entry_points().get(ENTRY_POINT_GROUP, [])  # type: ignore[attr-defined]
    for ep in entry_points:
        found.setdefault(ep.name, ep.value)
    return found


def is_trusted(name: str) -> bool:
    """The bundle's own bots are trusted (run in process, imported by the runner); an entry point of
    any other distribution is not, whatever module path it names."""
    return BUILTIN_PLAYERS.get(name, "").startswith("ginbots.")


def player_class(name: str) -> type[Player]:
    """The class registered as ``name``; KeyError lists the known names."""
    players = available_players()
    if name not in players:
        raise KeyError(f"no player named {name!r}; registered: {', '.join(sorted(players))}")
    try:
        return _load(players[name])
    except Exception as exc:  # a broken plugin: say which, and why
        raise ValueError(f"player {name!r} ({players[name]}) failed to load: {type(exc).__name__}: {exc}") from exc


def load_params_file(path: str | Path) -> dict[str, Any]:
    """Parameters from a JSON file: a plain object, or one with a ``params`` key
    (the shape of ``tuning/best/BOT.json``)."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ValueError(f"parameter file {path} does not exist") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"parameter file {path} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
    if isinstance(data, dict) and isinstance(data.get("params"), dict):
        data = data["params"]
    if not isinstance(data, dict):
        raise ValueError(f"parameter file {path} must hold a JSON object of name: value")
    return data


@dataclass(frozen=True)
class PlayerSpec:
    """A picklable recipe for a player: registry name plus parameters.

    ``isolate`` says the bot runs in its own process behind the bridge (``ginbots.connect.host.make_player``),
    with an address-space cap of ``memory_mb`` and its stderr in a log under ``log_dir``.
    """

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    label: str = ""
    isolate: bool = False
    memory_mb: int = 2048
    log_dir: str | None = None
    #: Folders of the run (results, logs) an isolated bot must not see.
    hidden: tuple[str, ...] = ()

    @property
    def display(self) -> str:
        return self.label or self.name

    @property
    def builtin(self) -> bool:
        """Whether the bot is one of this package's own, the only code trusted to run in the runner's
        process (every other package's bot is isolated by default)."""
        return is_trusted(self.name)

    @property
    def remembers(self) -> bool:
        """Whether the bot carries what it learned of its opponent from game to game (``Player.remembers_for``);
        only the bundle's own bots are asked (another package's bot is a process the runner cannot inspect)."""
        if not self.builtin:
            return False
        cls = player_class(self.name)
        return cls.remembers_for(resolve_params(cls, self.params))

    def make(self, seed: int | None = None) -> Player:
        """The bot, built in this process. An isolated spec is started by the arena's
        ``ginbots.connect.host.make_player`` instead: this wing knows nothing of processes."""
        if self.isolate:
            raise RuntimeError(f"{self.display} is isolated: start it with ginbots.connect.host.make_player, "
                               "which runs it in its own process behind the bridge")
        return player_class(self.name)(seed=seed, **self.params)

    def isolated(self, isolate: bool | None = None, memory_mb: int | None = None,
                 log_dir: str | None = None, hide: tuple[str, ...] = ()) -> "PlayerSpec":
        """This spec run in its own process (``isolate`` None: only when the bot is not the bundle's own),
        with the run's folders ``hide`` out of its sight."""
        flag = (not self.builtin) if isolate is None else isolate
        return replace(self, isolate=flag, memory_mb=memory_mb or self.memory_mb, log_dir=log_dir or self.log_dir,
                       hidden=tuple(dict.fromkeys((*self.hidden, *(str(h) for h in hide)))))


#: Asks a bot that is not the bundle's own to describe itself from its own (sandboxed) process:
#: ``describe(name, params) -> {"summary", "hyperparameters", "params", "weight_files"}``, ValueError
#: with the bot's message when it refuses the parameters. ``ginbots.connect.host.describe_bot`` is one.
Describe = Callable[[str, dict[str, Any]], dict[str, Any]]


def parse_spec(text: str, params_file: str | Path | None = None, describe: Describe | None = None,
               own_process: bool = False) -> PlayerSpec:
    """A spec string (see module doc) as a ``PlayerSpec``, its parameters checked against the bot's
    declaration. The bundle's own bots are imported to check them; any other bot never is (its code
    is not trusted in this process): ``describe`` asks its own process, and without it the check is
    left to the bot's process when it starts. ``own_process``: this process is the bot's own (the
    bridge), so it may import it."""
    name, _, extra = text.partition(":")
    players = available_players()
    if name not in players:
        raise KeyError(f"no player named {name!r}; registered: {', '.join(sorted(players))}")
    params: dict[str, Any] = {}
    if params_file is not None:
        params.update(load_params_file(params_file))
    if extra == "tuned":
        path = tuned_params_path(name)
        if path is None:
            where = " or ".join(str(d / f"{name}.json") for d in tuned_dirs()) or "tuning/best"
            raise ValueError(f"{text}: no shipped tuned parameters at {where}; `:tuned` names the parameters "
                             f"this package ships; for your own study's, give the file: {name}:PATH.json "
                             f"(ginbots tune writes results/tuning/best/{name}.json)")
        params.update(load_params_file(path))
    elif extra.endswith(".json"):
        params.update(load_params_file(extra))
    elif extra:
        for item in extra.split(","):
            key, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"{text}: expected NAME:key=value,... or NAME:tuned or NAME:file.json")
            params[key.strip()] = _parse_value(value.strip())
    if is_trusted(name) or own_process:
        resolve_params(player_class(name), params)  # fail now, with the bot's own message
    elif describe is not None:
        describe(name, params)  # its own process checks them, and says why not
    return PlayerSpec(name=name, params=params, label=text if extra else name)


@dataclass(frozen=True)
class BotInfo:
    """What a bot declares: read from its class (the bundle's own) or asked of its own process."""

    name: str
    target: str
    summary: str
    hyperparameters: tuple[Hyperparameter, ...]
    trusted: bool


def hyperparameters_json(hyperparameters: Sequence[Hyperparameter]) -> list[dict[str, Any]]:
    return [{"name": hp.name, "type": hp.kind.__name__, "default": hp.default, "low": hp.low, "high": hp.high,
             "log": hp.log, "choices": list(hp.choices) if hp.choices else None, "doc": hp.doc,
             "tunable": hp.tunable} for hp in hyperparameters]


_KINDS = {"int": int, "float": float, "bool": bool, "str": str}


def hyperparameters_from_json(rows: Any, who: str) -> tuple[Hyperparameter, ...]:
    """Declarations a bot's process sent; ValueError naming the bot and the broken row."""
    if not isinstance(rows, list):
        raise ValueError(f"{who}: hyperparameters must be a list, got {type(rows).__name__}")
    out = []
    for row in rows:
        try:
            out.append(Hyperparameter(row["name"], _KINDS[row["type"]], row["default"], row.get("low"),
                                      row.get("high"), bool(row.get("log")),
                                      tuple(row["choices"]) if row.get("choices") else None,
                                      str(row.get("doc", "")), bool(row.get("tunable", True))))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{who}: hyperparameter declaration {str(row)[:120]} is not valid: {exc}") from None
    return tuple(out)


def bot_info(name: str, describe: Describe | None = None) -> BotInfo:
    """The bot's declaration: from its class when it is the bundle's own, else from ``describe``."""
    target = available_players().get(name)
    if target is None:
        raise KeyError(f"no player named {name!r}; registered: {', '.join(sorted(available_players()))}")
    if is_trusted(name):
        cls = player_class(name)
        doc = (cls.__doc__ or "").strip().splitlines()
        return BotInfo(name, target, doc[0] if doc else "", tuple(cls.hyperparameters), True)
    if describe is None:
        raise ValueError(f"{name} ({target}) is not this package's own bot: its declaration is asked of its own "
                         "process (ginbots.connect.host.describe_bot), never imported here")
    described = describe(name, {})
    return BotInfo(name, target, str(described.get("summary", "")),
                   hyperparameters_from_json(described.get("hyperparameters"), name), False)


def _parse_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def describe_players(describe: Describe | None = None) -> list[dict[str, Any]]:
    """Every registered player with its docstring summary and hyperparameters. A bot that is not the
    bundle's own is described by its own process (``describe``), or listed without details."""
    out = []
    for name, target in available_players().items():
        if not is_trusted(name) and describe is None:
            out.append({"name": name, "target": target, "summary": "(another package's bot: not loaded here)",
                        "hyperparameters": []})
            continue
        try:
            info = bot_info(name, describe)
        except Exception as exc:  # a broken plugin must not hide the others
            warnings.warn(f"player {name!r} ({target}) failed to load: {exc}")
            out.append({"name": name, "target": target, "error": str(exc), "hyperparameters": []})
            continue
        row = {"name": name, "target": target, "summary": info.summary,
               "hyperparameters": hyperparameters_json(info.hyperparameters)}
        if info.trusted:
            runtime = player_class(name).runtime_for({})
            if runtime:
                row["runtime"] = runtime
        out.append(row)
    return out
