"""Search spaces from the bots' own hyperparameter declarations.

A bot declares its constants once (``Player.hyperparameters``); this module
turns them into Optuna suggestions, so a new bot is tunable without touching
the harness.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from ginbots.players.base import Hyperparameter, Player


class SearchSpaceError(ValueError):
    """A search space that cannot be tuned: names the bot, the parameter and the rule."""


def search_space(cls: type[Player], only: Iterable[str] | None = None,
                 fixed: Mapping[str, Any] | None = None,
                 ranges: Mapping[str, Any] | None = None) -> list[Hyperparameter]:
    """The hyperparameters of ``cls`` to tune: its tunable ones, or exactly ``only``,
    minus those held ``fixed``; ``ranges`` narrows one (``[low, high]``, or a list of choices)
    inside what the bot declares."""
    declared = {hp.name: hp for hp in cls.hyperparameters}
    fixed = dict(fixed or {})
    for name, value in fixed.items():
        if name not in declared:
            raise SearchSpaceError(f"{cls.name}: cannot fix {name!r}: no such hyperparameter "
                                   f"(it has: {', '.join(declared) or 'none'})")
        declared[name].coerce(value)
    if only:
        names = list(only)
        unknown = [n for n in names if n not in declared]
        if unknown:
            raise SearchSpaceError(f"{cls.name}: cannot tune {', '.join(unknown)}: no such hyperparameter "
                                   f"(it has: {', '.join(declared) or 'none'})")
        space = [declared[n] for n in names]
    else:
        space = [hp for hp in declared.values() if hp.tunable]
    space = [hp for hp in space if hp.name not in fixed]
    for name in ranges or {}:
        if name not in {hp.name for hp in space}:
            raise SearchSpaceError(f"{cls.name}: a range is given for {name!r}, which is not tuned here "
                                   f"(tuned: {', '.join(hp.name for hp in space) or 'none'})")
    space = [narrowed(cls, hp, (ranges or {})[hp.name]) if hp.name in (ranges or {}) else hp for hp in space]
    for hp in space:
        check_tunable(cls, hp)
    if not space:
        raise SearchSpaceError(f"{cls.name}: nothing to tune (no tunable hyperparameter left)")
    return space


def narrowed(cls: type[Player], hp: Hyperparameter, bounds: Any) -> Hyperparameter:
    """``hp`` with a smaller range (numbers: ``[low, high]``) or fewer choices, inside its declaration."""
    where = f"{cls.name}.{hp.name}"
    if not isinstance(bounds, (list, tuple)):
        raise SearchSpaceError(f"{where}: a range must be a list ([low, high] or choices), got {bounds!r}")
    if hp.kind in (int, float):
        if len(bounds) != 2:
            raise SearchSpaceError(f"{where}: a numeric range is [low, high], got {list(bounds)}")
        try:
            low, high = (hp.coerce(b) for b in bounds)
        except ValueError as exc:
            raise SearchSpaceError(f"{where}: range {list(bounds)} leaves the declared one: {exc}") from None
        if not low < high:
            raise SearchSpaceError(f"{where}: range [{low}, {high}] must have low < high")
        default = min(max(hp.default, low), high)
        return replace(hp, low=low, high=high, default=default)
    if hp.kind is bool:
        raise SearchSpaceError(f"{where}: a true/false hyperparameter has no range to narrow (fix it instead)")
    try:
        choices = tuple(dict.fromkeys(hp.coerce(b) for b in bounds))
    except ValueError as exc:
        raise SearchSpaceError(f"{where}: choices {list(bounds)} leave the declared ones: {exc}") from None
    default = hp.default if hp.default in choices else choices[0]
    return replace(hp, choices=choices, default=default)


def check_tunable(cls: type[Player], hp: Hyperparameter) -> None:
    """A declaration the sampler can use: a non-empty range (or two choices)."""
    where = f"{cls.name}.{hp.name}"
    if hp.kind in (int, float):
        if hp.low is None or hp.high is None or not hp.low < hp.high:
            raise SearchSpaceError(f"{where}: range [{hp.low}, {hp.high}] must have low < high to be tuned")
        if hp.log and hp.low <= 0:
            raise SearchSpaceError(f"{where}: a log-scale range needs low > 0, got {hp.low}")
    elif hp.kind is str and (not hp.choices or len(hp.choices) < 2):
        raise SearchSpaceError(f"{where}: a categorical parameter needs at least two choices")


def suggest(trial: Any, space: list[Hyperparameter]) -> dict[str, Any]:
    """One point of the space from an Optuna trial."""
    params: dict[str, Any] = {}
    for hp in space:
        if hp.kind is bool:
            params[hp.name] = trial.suggest_categorical(hp.name, [False, True])
        elif hp.kind is str:
            params[hp.name] = trial.suggest_categorical(hp.name, list(hp.choices or ()))
        elif hp.kind is int:
            params[hp.name] = trial.suggest_int(hp.name, int(hp.low), int(hp.high), log=hp.log)  # type: ignore[arg-type]
        else:
            params[hp.name] = trial.suggest_float(hp.name, float(hp.low), float(hp.high), log=hp.log)  # type: ignore[arg-type]
    return params
