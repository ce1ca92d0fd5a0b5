"""The search wing: what search players share, on top of the rules.

``rollout`` plays the rest of a hand fast under Simple's rule with per-seat knock thresholds;
``playouts`` plays a decision's options out over its sampled worlds, in compiled code
(``playout_kernels`` on the meld solver of ``kernels``, numba, extra ``fast``) or in pure Python;
``equity`` turns points into game-winning chances at a score, and ``opponent_model`` keeps a
particle filter over the opponent's hand, weighed by how well minimum-deadwood play explains
its actions (its hot loops compiled in ``filter_kernels``).

Imports: ``ginbots.game`` only (and numba, optionally).
"""
