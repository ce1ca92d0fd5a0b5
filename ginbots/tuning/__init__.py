"""Optuna tuning harness for ginbots bots (``ginbots tune``; needs the ``tune`` extra).

Studies live in ``tuning/studies/``, tuned parameters in ``tuning/best/BOT.json``
(loadable as ``BOT:tuned``), plots in ``tuning/plots/``.
"""
