"""The README's example bot is real code: it runs, respects its hyperparameter, and never forfeits."""

import re
from pathlib import Path

from ginbots.game.engine import play_game
from ginbots.players.baselines import SimplePlayer


def _readme_bot():
    text = (Path(__file__).parent.parent / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    assert len(code.strip().splitlines()) <= 25
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    return namespace["LowballBot"]


def test_readme_example_bot_plays_without_forfeits():
    bot_class = _readme_bot()
    wins = 0
    for g in range(20):
        res = play_game([bot_class(seed=g), SimplePlayer(seed=g)], seed=g)
        assert res.forfeit is None
        wins += res.winner == 0
    assert 0 < wins < 20


def test_readme_example_bot_waits_for_gin_when_asked():
    bot_class = _readme_bot()
    res = play_game([bot_class(seed=1, knock_at=0), SimplePlayer(seed=2)], seed=3)
    assert all(h.knocker_deadwood == 0 for h in res.hands if h.knocker == 0)
