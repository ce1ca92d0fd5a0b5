"""The connect wing: how a bot meets the world outside this package.

``bridge`` serves any bot over stdin/stdout (the protocol in ``submission/PROTOCOL.md``) and
``host.ProcessPlayer`` is its other end, used to isolate bots; ``shim`` holds the Java player
for the challenge's engine and vermouth; ``package`` builds and verifies submission archives;
``openspiel`` and ``env`` seat bots in OpenSpiel, PettingZoo and Gymnasium (optional extras);
``fuzz`` throws malformed messages at the bridge.

Imports: ``ginbots.game``, ``ginbots.search``, ``ginbots.estimators``, ``ginbots.players``.
"""
