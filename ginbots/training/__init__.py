"""The training wing: how the shipped networks and tables are made (optional extra ``train``).

``offense`` and ``offense_train`` build document 000's datasets and networks; ``selfplay`` is
the compiled self-play core; ``estimator_data``, ``estimator_train``, ``tabular_fit`` and
``calibration`` generate the opponent-hand estimators' data and fit them. Nothing here is
imported by a bot at play time.

Imports: every wing below it, ``arena`` included (data comes from supervised matches).
"""
