"""The tuning wing: the Optuna harness behind ``ginbots tune`` (needs the ``tune`` extra).

Bots declare their hyperparameters (``ginbots.players.base.Hyperparameter``); ``space`` turns
them into suggestions, ``harness`` owns the study (storage, sampling, pruning, held-out check),
``studies`` reads study files. A run writes its journal, best parameters and plots under
``--out`` (default ``results/tuning``); the shipped ones are the repository's top-level
``tuning/`` (``studies/*.toml``, ``best/*.json`` loaded by ``BOT:tuned``, ``plots/``).

Imports: every wing below it, ``arena`` included (trials are supervised matches).
"""
