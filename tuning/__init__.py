"""The shipped tuning, installed as ``ginbots.tuned``: study definitions (``studies/*.toml``) and the
best parameters they found (``best/*.json``, loaded by ``BOT:tuned``)."""
