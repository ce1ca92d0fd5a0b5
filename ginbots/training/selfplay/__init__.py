"""Fast self-play of single hands for training data: Simple and RP under the exact EAAI rules.

``ginbots.training.selfplay.core`` plays hands in compiled code (numba, extra ``train``);
``ginbots.training.selfplay.stream`` holds what the engine side shares with it: the random
stream both draw from and the deck each sample is dealt. A hand played by the
core and the same hand played by ``engine.play_game`` with ``stream_players``
agree event for event (``tests/test_selfplay.py``), so the core selects and the
engine records.
"""

from .stream import (
           PLAYER_KINDS,
           SINGLE_ROUND,
           StreamRandom,
           play_sample,
           sample_deck,
           sample_seeds,
           stream_players,
)

__all__ = ["PLAYER_KINDS", "SINGLE_ROUND", "StreamRandom", "play_sample", "sample_deck", "sample_seeds",
           "stream_players"]
