"""Never play the same parameters twice, even when several processes share a study.

A sampler may propose parameters a trial already has (small spaces, two processes sampling at
once). The earlier trial's result then stands for the later one. Finished trials are easy to
find; trials still running in another process are not, since the storage has no atomic "claim":
two processes can each write the same parameters and each look before the other has written.
So a trial marks itself once all its parameters are written (``PARAMS_SET``), waits until every
lower-numbered running trial is marked, and then defers only to a lower number. Of two trials
with the same parameters the lower one never waits on the higher and plays; the higher one sees
it and waits for its result. Nothing waits forever on a process that died.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import optuna
from optuna.trial import TrialState

from .storage import FINISHED, abandoned

#: User attribute: this trial's parameters are all written.
PARAMS_SET = "params_set"
#: How long a trial waits for a lower-numbered running trial to finish writing its parameters
#: (milliseconds normally: longer means its process died between asking and suggesting).
MARK_WAIT_S = 60.0
#: How long a trial waits for a running trial with its parameters to finish before playing them itself.
RESULT_WAIT_S = 3600.0


def _trial(study: optuna.Study, number: int) -> optuna.trial.FrozenTrial:
    return study.get_trials(deepcopy=False)[number]


def _wait(study: optuna.Study, number: int, done: Any, limit: float, poll: float) -> optuna.trial.FrozenTrial:
    """Trial ``number`` once ``done(trial)`` holds, it stops running or its process is gone, or ``limit`` passes."""
    deadline = time.monotonic() + limit
    other = _trial(study, number)
    while other.state == TrialState.RUNNING and not done(other) and not abandoned(other) \
            and time.monotonic() < deadline:
        time.sleep(poll)
        other = _trial(study, number)
    return other


def earlier_with_same_params(trial: optuna.Trial, poll: float = 0.2,
                             say: Callable[[str], None] | None = None) -> optuna.trial.FrozenTrial | None:
    """The finished trial whose result stands for ``trial``'s parameters (already suggested), waiting for
    a lower-numbered trial with them that is still running; None when ``trial`` must play them.
    ``say`` hears when it waits."""
    study = trial.study
    trial.set_user_attr(PARAMS_SET, True)
    params = trial.params
    if not params:
        return None
    for other in study.get_trials(deepcopy=False, states=FINISHED):
        if other.number != trial.number and other.params == params:
            return other
    running = study.get_trials(deepcopy=False, states=(TrialState.RUNNING,))
    for number in [t.number for t in running if t.number < trial.number]:
        other = _wait(study, number, lambda t: PARAMS_SET in t.user_attrs, MARK_WAIT_S, poll)
        if other.params != params or other.state not in (TrialState.RUNNING, *FINISHED):
            continue
        if say is not None and other.state == TrialState.RUNNING:
            say(f"trial {trial.number} has the parameters of trial {number}, still running: waiting for its result")
        other = _wait(study, number, lambda t: False, RESULT_WAIT_S, poll)
        if other.state in FINISHED:
            return other
    return None
