"""The arena wing: everything that runs and judges games between bots.

``match`` (head to head, duplicate deals, Wilson intervals) and ``tournament`` (round robins,
``ratings``, an HTML ``report``) run games in supervised worker processes (``supervisor``,
resumable ``chunks``); ``trace`` records and replays games, ``view`` draws them as a page,
``play`` seats a human, ``stats`` and ``bench`` measure.

Imports: every wing below it (``game``, ``search``, ``estimators``, ``players``, ``connect``).
"""
