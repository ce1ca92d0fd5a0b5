"""Study definitions: a small TOML file per study (``tuning/studies/BOT.toml``) that ``ginbots tune FILE`` runs.

Keys are ``TuneConfig``'s fields (``ginbots tune``'s options with underscores). A file holds what
makes a study reproducible (bot, opponents, trials, games, seed, search-space overrides); where to
write and how to show progress stay on the command line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

#: Key -> the types its value may have.
STUDY_KEYS: dict[str, tuple[type, ...]] = {
    "bot": (str,), "opponents": (list,), "trials": (int,), "games_per_trial": (int,), "batches": (int,),
    "study": (str,), "storage": (str,), "workers": (int,), "objective": (str,), "pruner": (str,),
    "seed": (int,), "heldout_games": (int,), "only": (list,), "fixed": (dict,), "ranges": (dict,),
    "timeout": (int, float),
}


class StudyFileError(ValueError):
    """A study file that cannot be read: names the file and the rule broken."""


def is_study_file(text: str) -> bool:
    return text.endswith(".toml")


def load_study_file(path: str | Path) -> dict[str, Any]:
    """The settings of a study file, checked key by key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StudyFileError(f"study file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StudyFileError(f"study file {path} cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise StudyFileError(f"study file {path} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - set(STUDY_KEYS))
    if unknown:
        raise StudyFileError(f"study file {path}: unknown key(s) {', '.join(unknown)} "
                             f"(known: {', '.join(STUDY_KEYS)})")
    if "bot" not in data:
        raise StudyFileError(f"study file {path} must name its bot (bot = \"keats\")")
    for key, value in data.items():
        kinds = STUDY_KEYS[key]
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise StudyFileError(f"study file {path}: {key} must be {' or '.join(k.__name__ for k in kinds)}, "
                                 f"got {value!r}")
        if key in ("opponents", "only") and not all(isinstance(v, str) for v in value):
            raise StudyFileError(f"study file {path}: {key} must be a list of strings, got {value!r}")
    return data
