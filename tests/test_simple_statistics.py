"""Simple vs Simple over a few thousand games matches the Java engine's own figures.

Java engine, same players: win rate 50%, about 10.3 hands per game, roughly 93%
knocks / 4% undercuts / 2% gins / 0.2% cancelled per hand. Bounds are wide
enough for sampling noise at this size (several standard errors) yet would
catch a rule error (e.g. wrong cancellation or starter rotation).
"""

from ginbots.arena.match import MatchConfig, run_match
from ginbots.arena.stats import wilson
from ginbots.players.registry import parse_spec


def test_simple_vs_simple_matches_the_java_engine_figures():
    report = run_match(parse_spec("simple"), parse_spec("simple"),
                       MatchConfig(games=3000, seed=2026, workers=2, duplicate=True), progress=False)
    data = report.to_json()
    lo, hi = wilson(data["A"]["wins"], data["A"]["wins"] + data["A"]["losses"], 0.999)
    assert lo < 0.5 < hi
    assert 9.8 <= data["hands_per_game"] <= 10.8
    rates = data["hand_rates"]
    assert 0.90 <= rates["knock"] <= 0.96
    assert 0.025 <= rates["undercut"] <= 0.06
    assert 0.01 <= rates["gin"] <= 0.035
    assert rates["cancelled"] <= 0.006
    assert rates["forfeit"] == 0


def test_nearest_rank_quantiles():
    from ginbots.arena.stats import nearest_rank

    values = list(range(1, 101))  # 1..100
    assert nearest_rank(values, 0.5) == 50 and nearest_rank(values, 0.99) == 99 and nearest_rank(values, 1.0) == 100
    assert nearest_rank([3.0], 0.99) == 3.0 and nearest_rank([], 0.5) == 0.0
    assert nearest_rank([5, 1, 4, 2, 3], 0.5) == 3  # order does not matter
