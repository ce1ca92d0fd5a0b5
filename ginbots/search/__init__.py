"""The search wing: what search players share, on top of the rules.

``rollout`` plays the rest of a hand fast under Simple's rule with per-seat knock thresholds,
``equity`` turns points into game-winning chances at a score, and ``opponent_model`` infers
the opponent's style (knock threshold, draw rule) from what a seat sees.

Imports: ``ginbots.game`` only.
"""
