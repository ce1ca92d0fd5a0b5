"""Opponent-hand estimators: per card, the probability that the opponent holds it.

``make_estimator(name)`` builds one from the frozen weights in ``weights/``;
``ESTIMATOR_NAMES`` lists them.  See ``base.Estimator`` for the interface.
"""
