"""The same parameters are played once, even by two processes that sample them at the same moment."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

import optuna

from ginbots.tuning.duplicates import PARAMS_SET, earlier_with_same_params

optuna.logging.set_verbosity(optuna.logging.WARNING)


def _tagged(study: optuna.Study, pid: int = os.getpid()) -> optuna.Trial:
    trial = study.ask()
    trial.set_user_attr("worker", f"{socket.gethostname()}:{pid}")
    return trial


def test_a_later_trial_waits_for_an_earlier_one_still_writing_its_parameters_and_takes_its_result() -> None:
    """The race the shared-server test met: the higher-numbered trial looks before the lower one has
    written its parameters. It must wait, see them, and take the lower one's result; the lower one plays."""
    study = optuna.create_study()
    lower, higher = _tagged(study), _tagged(study)
    higher.suggest_int("x", 0, 3)  # the sampler may give anything; the lower trial copies it below
    found: list = []
    waiting = threading.Thread(target=lambda: found.append(earlier_with_same_params(higher, poll=0.01)))
    waiting.start()
    time.sleep(0.2)
    assert waiting.is_alive() and not found  # it waits for the lower trial's mark
    lower.suggest_int("x", higher.params["x"], higher.params["x"])
    assert earlier_with_same_params(lower, poll=0.01) is None  # the lower one never waits on a higher one
    time.sleep(0.2)
    assert waiting.is_alive()  # now for its result
    study.tell(lower, 0.25)
    waiting.join(timeout=10)
    assert found and found[0].number == lower.number and found[0].value == 0.25
    assert PARAMS_SET in study.trials[higher.number].user_attrs


def test_other_parameters_and_a_dead_process_are_not_waited_on() -> None:
    study = optuna.create_study()
    other = _tagged(study)
    other.suggest_float("x", 0.0, 0.0)
    earlier_with_same_params(other)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = _tagged(study, int(dead.stdout))  # its process has exited: RUNNING for ever
    gone.suggest_float("x", 1.0, 1.0)
    trial = _tagged(study)
    trial.suggest_float("x", 1.0, 1.0)
    start = time.monotonic()
    assert earlier_with_same_params(trial, poll=0.01) is None
    assert time.monotonic() - start < 5
    finished = _tagged(study)
    finished.suggest_float("x", 0.0, 0.0)
    study.tell(other, 1.5)
    assert earlier_with_same_params(finished).number == other.number  # a finished twin, any number
