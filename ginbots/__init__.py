"""ginbots: Gin Rummy AI players on an exact EAAI-challenge reference engine.

Cards are ints 0-51 (``suit * 13 + rank``), hands and melds 52-bit ints; see
``ginbots.cards``, ``ginbots.melds``, ``ginbots.engine`` and ``ginbots.player``.
"""

__version__ = "0.1.0"
