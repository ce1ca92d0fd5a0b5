"""The players wing: the player interface, the registry of bots, and every bot of the bundle.

``base`` is the interface (the challenge's callbacks on ints, ``Hyperparameter``), ``tracking``
the bases that keep a seat's knowledge, ``registry`` finds bots by name (entry points) and
parses specs (``keats:tuned``). Each other module is one bot or a part shared by bots.

Imports: ``ginbots.game``, ``ginbots.search``, ``ginbots.estimators``. Never an arena, a
connection or a process: an isolated spec is started by ``ginbots.connect.host.make_player``.
"""
