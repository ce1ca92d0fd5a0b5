"""The champion's compiled playouts equal the pure-Python ones, outcome for outcome (issue 37, part 2)."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from ginbots.game import melds, melds_batch  # noqa: E402
from ginbots.game.engine import GameConfig, play_game  # noqa: E402
from ginbots.players.baselines import SimplePlayer  # noqa: E402
from ginbots.players.champion import ChampionPlayer  # noqa: E402
from ginbots.search import playout_kernels as kernels  # noqa: E402
from ginbots.search import playouts, rollout  # noqa: E402
from ginbots.search.playouts import WorldPlayouts  # noqa: E402


def _hand(rng: random.Random, size: int, avoid: int = 0) -> int:
    """A random hand, half of its cards drawn by rank so that sets (the ties' hard cases) are common."""
    cards: set[int] = set()
    while len(cards) < size:
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            for suit in rng.sample(range(4), rng.choice((2, 3, 3, 4))):
                card = suit * 13 + rank
                if len(cards) < size and not avoid >> card & 1:
                    cards.add(card)
        else:
            card = rng.randrange(52)
            if not avoid >> card & 1:
                cards.add(card)
    return sum(1 << c for c in cards)


def test_meld_kernels_equal_the_rules_on_random_hands() -> None:
    rng = random.Random(11)
    work = np.zeros(8, dtype=np.int64)
    for _ in range(4000):
        hand = _hand(rng, rng.choice((10, 11, 12)))
        assert kernels.deadwood_and_melded(hand) == melds.deadwood_and_melded(hand), hex(hand)
        assert kernels.min_deadwood(hand) == melds.min_deadwood(hand), hex(hand)
        assert kernels.discard_deadwoods_list(hand) == [(c, dw) for c, dw, _ in melds.discard_outcomes(hand)]
        n = kernels.best_meld_set(hand, work)
        assert tuple(int(m) for m in work[:n]) == melds.best_meld_set(hand), hex(hand)
        banned = rng.choice([c for c in range(52) if hand >> c & 1] + [-1])
        assert tuple(kernels.simple_discard(hand, banned)) == rollout.simple_discard(hand, banned), hex(hand)
        other = _hand(rng, 10, avoid=hand)
        slack = rng.choice((-1, 0, 5, 30))
        assert tuple(kernels.guarded_discard(hand, banned, other, slack)) == \
            rollout.guarded_discard(hand, banned, other, slack), (hex(hand), hex(other), slack)


def test_meld_solver_beyond_three_candidate_set_ranks() -> None:
    """Hands of 12-20 cards with four or more ranks held in three suits take the solver's general loop;
    it and the nested loops for up to three such ranks both agree with the rules."""
    rng = random.Random(13)
    general = 0
    for _ in range(1500):
        hand = _hand(rng, rng.choice((11, 12, 14, 16, 20)))
        c, h, s, d = (hand >> 13 * suit & 8191 for suit in range(4))
        general += bin((c & h & (s | d)) | (s & d & (c | h))).count("1") > 3
        assert kernels.deadwood_and_melded(hand) == melds.deadwood_and_melded(hand), hex(hand)
        assert kernels.min_deadwood(hand) == melds.min_deadwood(hand), hex(hand)
    assert general > 100


def test_batch_kernel_equals_numpy_batch() -> None:
    rng = random.Random(12)
    hands = np.array([_hand(rng, rng.choice((9, 10, 11, 12, 13))) for _ in range(20000)], dtype=np.uint64)
    saved = melds_batch._BATCH_KERNEL
    melds_batch.use_batch_kernel(None)
    try:
        numpy_dw, numpy_melded = melds_batch.deadwood_and_melded_batch(hands)
    finally:
        melds_batch.use_batch_kernel(saved)
    dw, melded = kernels.deadwood_and_melded_batch(hands)
    assert (dw == numpy_dw).all() and (melded == numpy_melded).all()


def _decision(rng: random.Random, worlds: int = 8) -> tuple[int, int, list[tuple[int, list[int]]]]:
    """Our 10 cards, the face-up card and sampled worlds (opponent hand, stock order of 1-31 cards)."""
    us = _hand(rng, 10)
    rest = [c for c in range(52) if not us >> c & 1]
    top = rest.pop(rng.randrange(len(rest)))
    out = []
    length = rng.randrange(1, 32)
    for _ in range(worlds):
        order = rest[:]
        rng.shuffle(order)
        out.append((sum(1 << c for c in order[:10]), order[11:11 + length]))
    return us, top, out


def test_every_option_kind_scores_the_same_on_thousands_of_worlds() -> None:
    """1,000 decisions x 8 worlds x 5 option kinds (40,000 (world, action) pairs), on whole and partial slices,
    with the opponent on Simple's discard or guarding its discards (several slacks)."""
    rng = random.Random(13)
    for _ in range(1000):
        us, top, worlds = _decision(rng)
        knock_at = (rng.randrange(11), rng.randrange(11))
        defence = rng.choice((-1, -1, 0, 3, 10, 30))
        fast = WorldPlayouts(worlds, knock_at, "compiled", defence)
        slow = WorldPlayouts(worlds, knock_at, "python", defence)
        lo, hi = rng.choice(((0, 8), (0, 3), (3, 8), (5, 5)))
        margin = rng.choice((0.0, 1.5, -2.25))
        deadwood = rng.randrange(20)
        best = melds.best_meld_set(us)
        assert fast.play(us, top, lo, hi) == slow.play(us, top, lo, hi)
        assert fast.play_or_knock(us, top, margin, lo, hi) == slow.play_or_knock(us, top, margin, lo, hi)
        assert fast.after_discard(us, deadwood, top, lo, hi) == slow.after_discard(us, deadwood, top, lo, hi)
        assert fast.after_stock_draw(us, lo, hi) == slow.after_stock_draw(us, lo, hi)
        assert fast.knock(us, best, lo, hi) == slow.knock(us, best, lo, hi)


def test_champion_plays_the_same_games_on_either_path() -> None:
    """Four single hands with every search on (draws, discards, knocks): the same actions and playouts."""
    config = GameConfig(time_budget=None, max_hands_per_game=1)
    for game in range(4):
        runs = []
        for code in ("compiled", "python"):
            champion = ChampionPlayer(seed=game, playouts=code, search_discards="always")
            champion.prepare()
            result = play_game([champion, SimplePlayer(seed=50 + game)], seed=900 + game, config=config, trace=True)
            runs.append((result.trace, champion.playouts))
        assert runs[0] == runs[1]
        assert runs[0][1] > 0  # it searched


def test_the_path_is_named_and_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ChampionPlayer.runtime_for({}) == {"playouts": "compiled (numba)"}
    assert "pure Python" in ChampionPlayer.runtime_for({"playouts": "python"})["playouts"]
    monkeypatch.setattr(playouts, "compiled_available", lambda: False)
    assert playouts.resolve_code("auto") == "python"
    with pytest.raises(ImportError, match=r"ginbots\[fast\]"):
        playouts.resolve_code("compiled")
    with pytest.raises(ValueError, match="playout code must be one of"):
        playouts.resolve_code("gpu")


def test_filter_kernels_equal_their_numpy_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opponent filter's discard likelihood, card picks and card counts, compiled and in numpy, on
    20,000 hands (sets common, the thrown card held or not, a banned card or none)."""
    from ginbots.search import filter_kernels, opponent_model

    rng = random.Random(14)
    hands = np.array([_hand(rng, rng.choice((10, 11, 11, 11, 12))) for _ in range(20000)], dtype=np.uint64)
    monkeypatch.setattr(opponent_model, "_KERNELS", None)
    for start in range(0, len(hands), 500):
        chunk = hands[start:start + 500]
        held = [c for c in range(52) if int(chunk[0]) >> c & 1]
        card = rng.choice(held + [rng.randrange(52)])
        banned = rng.choice(held + [-1, -1])
        twin_policy, twin_after = opponent_model.OpponentFilter._discard_likelihood(chunk, card, banned)
        policy, after = filter_kernels.discard_likelihood(chunk, card, banned)
        assert (after == twin_after).all() and (policy == twin_policy).all(), (card, banned)
        assert (policy > 0).any() and (policy < 1).any()  # ties and misses both occur
        melds_with = opponent_model.completes_meld_batch(card, chunk)
        assert (filter_kernels.completes_meld_batch(card, chunk) == melds_with).all(), card
    masks = np.concatenate([hands, np.zeros(50, dtype=np.uint64), np.array([1 << 51, 0xF], dtype=np.uint64)])
    twin = opponent_model._pick_bit(masks, np.random.default_rng(3))
    assert (filter_kernels.pick_bits(masks, np.random.default_rng(3).random(len(masks))) == twin).all()
    assert (filter_kernels.popcounts(masks) == opponent_model._bit_matrix(masks).sum(axis=1)).all()
    # the largest uniform below 1 picks the highest card on both paths
    top = np.array([np.nextafter(1.0, 0.0)] * 3)
    edge = np.array([0b1110, 1 << 51 | 1, (1 << 52) - 1], dtype=np.uint64)
    assert list(filter_kernels.pick_bits(edge, top)) == [8, 1 << 51, 1 << 51]

    class Fixed:
        def random(self, n):
            return top[:n]
    assert list(opponent_model._pick_bit(edge, Fixed())) == [8, 1 << 51, 1 << 51]


def test_champion_games_are_the_same_with_and_without_the_compiled_filter_and_solver() -> None:
    """Whole games with the opponent filter on (moves, resampling, rejuvenation): the traces with the
    compiled filter kernels, meld solver and hand utility installed equal those with numpy alone."""
    from ginbots.players import hand_utility, hand_utility_kernels
    from ginbots.search import opponent_model

    config = GameConfig(time_budget=None, max_hands_per_game=3)
    playouts.warm_up()
    hand_utility_kernels.warm_up()
    saved = (melds_batch._BATCH_KERNEL, opponent_model._KERNELS, hand_utility._KERNELS)
    runs = []
    from ginbots.search.filter_kernels import PROPOSAL_STATS
    reused_before = int(PROPOSAL_STATS[1])
    try:
        for installed in (True, False):
            if not installed:
                melds_batch.use_batch_kernel(None)
                opponent_model.use_kernels(None)
                hand_utility.use_kernels(None)
            traces = []
            for game in range(2):
                champion = ChampionPlayer(seed=game, opponent_filter=True, worlds=24)
                result = play_game([champion, SimplePlayer(seed=70 + game)], seed=950 + game, config=config,
                                   trace=True)
                traces.append((result.trace, champion.playouts, champion.filter.moves,
                               [h.tolist() for h in champion.filter.history], champion.filter.rho))
                assert champion.filter.moves > 0  # Metropolis moves were made and accepted
            runs.append(traces)
            if installed:  # "keep" events took their deadwood from the discard before them, as they may
                assert PROPOSAL_STATS[1] > reused_before
    finally:
        melds_batch.use_batch_kernel(saved[0])
        opponent_model.use_kernels(saved[1])
        hand_utility.use_kernels(saved[2])
    assert runs[0] == runs[1]


def test_compiled_shuffles_are_pythons_and_leave_the_generator_where_it_would_be() -> None:
    from ginbots.search.random_kernels import shuffle_rows

    for seed in range(200):
        ours, theirs = random.Random(seed), random.Random(seed)
        for _ in range(seed % 5):  # any point of the stream
            ours.random(), theirs.random()
        shape = random.Random(-seed)
        lengths = [shape.randrange(0, 45) for _ in range(shape.randrange(1, 100))]
        lists = [shape.sample(range(52), n) for n in lengths]
        rows = np.zeros((len(lists), 45), dtype=np.int64)
        for row, items in zip(rows, lists):
            row[:len(items)] = items
        for items in lists:
            theirs.shuffle(items)
        shuffle_rows(ours, rows, np.array(lengths))
        assert [row[:n].tolist() for row, n in zip(rows, lengths)] == lists
        assert ours.getstate() == theirs.getstate() and ours.random() == theirs.random()


def test_compiled_hand_utility_equals_numpy_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Document 002's utilities and best-after-discard values, compiled and in numpy, on 12,000 hands:
    random weights, opponent-meld chances, blocked cards and barred face-up cards."""
    from ginbots.players import hand_utility as hu
    from ginbots.players import hand_utility_kernels as hk

    rng, nrng = random.Random(15), np.random.default_rng(15)
    for trial in range(60):
        hands = np.array([_hand(rng, 11) for _ in range(100)], dtype=np.uint64)
        keep = np.array([1 << rng.choice([c for c in range(52) if int(h) >> c & 1]) if rng.random() < 0.3 else 0
                         for h in hands], dtype=np.uint64)
        blocked = sum(1 << c for c in rng.sample(range(52), rng.randrange(15)))
        in_opp_meld = hu.in_opponent_meld_probability(nrng.random(52) * rng.random())
        weights = hu.UtilityWeights(*(round(rng.uniform(0, 20), 3) for _ in range(7))) if trial % 2 \
            else hu.UtilityWeights()
        tens = np.array([_hand(rng, 10) for _ in range(100)], dtype=np.uint64)
        deadwood, melded = melds_batch.deadwood_and_melded_batch(tens)
        results = []
        for twins in (None, hk):
            monkeypatch.setattr(hu, "_KERNELS", twins)
            results.append((hu.best_after_discard(hands, keep, blocked, in_opp_meld, weights),
                            hu.utilities(tens, 10, melded, deadwood, blocked, in_opp_meld, weights)))
        (after_numpy, own_numpy), (after_compiled, own_compiled) = results
        assert (after_numpy == after_compiled).all() and (own_numpy == own_compiled).all(), trial
    stuck = np.array([0b1111 | 0b111 << 13 | 0b1111 << 26], dtype=np.uint64)  # 11 cards, all melded
    for twins in (None, hk):
        monkeypatch.setattr(hu, "_KERNELS", twins)
        results.append(hu.best_after_discard(stuck, np.zeros(1, dtype=np.uint64), 0, np.zeros(53), weights))
    assert results[-1][0] == results[-2][0] and np.isfinite(results[-1][0])


def test_compiled_best_melding_utility_equals_numpy_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The utility of a hand under its best melding (every minimum-deadwood melding scored), compiled in
    one call and in numpy, on 6,000 hands of 10 and 11 cards, many with sets and runs sharing cards."""
    from ginbots.players import hand_utility as hu
    from ginbots.players import hand_utility_kernels as hk

    rng, nrng = random.Random(16), np.random.default_rng(16)
    several = 0
    for trial in range(60):
        weights = hu.UtilityWeights(*(round(rng.uniform(0, 20), 3) for _ in range(7))) if trial % 2 \
            else hu.UtilityWeights()
        in_opp_meld = hu.in_opponent_meld_probability(nrng.random(52) * rng.random())
        for _ in range(100):
            if rng.random() < 0.5:  # a block of ranks in three or four suits: sets and runs compete
                low = rng.randrange(11)
                cards = {13 * suit + rank for suit in rng.sample(range(4), rng.choice((3, 4)))
                         for rank in range(low, low + 3)}
                cards = set(rng.sample(sorted(cards), min(len(cards), 9)))
                while len(cards) < 10:
                    cards.add(rng.randrange(52))
                hand = sum(1 << c for c in cards)
            else:
                hand = _hand(rng, rng.choice((10, 11)))
            blocked = sum(1 << c for c in rng.sample(range(52), rng.randrange(15))) & ~hand
            several += len({sum(m) for m in melds.best_meld_sets(hand)}) > 1
            values = []
            for twins in (None, hk):
                monkeypatch.setattr(hu, "_KERNELS", twins)
                values.append(hu.best_melding_utility(hand, blocked, in_opp_meld, weights))
            assert values[0] == values[1], (trial, hand)
    assert several > 100  # hands with more than one minimum-deadwood melding were among them


def test_worlds_for_gives_the_same_worlds_and_generator_on_both_paths() -> None:
    rng = random.Random(21)
    for _ in range(50):
        ours = _hand(rng, 10)
        unknown = ((1 << 52) - 1) & ~ours & ~(1 << rng.randrange(52))
        unknown &= ~sum(1 << c for c in rng.sample(range(52), rng.randrange(10)))
        opponents = [sum(1 << c for c in rng.sample([c for c in range(52) if unknown >> c & 1], 10))
                     for _ in range(rng.randrange(1, 40))]
        stock = rng.choice((0, 1, rng.randrange(2, 32), 45))  # no stock, and more than the unseen cards
        opponents = opponents if rng.random() < 0.9 else []
        seed = rng.randrange(1 << 30)
        fast, slow = random.Random(seed), random.Random(seed)
        worlds = playouts.worlds_for(opponents, unknown, stock, fast, "compiled")
        assert worlds == playouts.worlds_for(opponents, unknown, stock, slow, "python")
        assert fast.getstate() == slow.getstate()
        # the arrays the playouts read are the worlds themselves
        opps, orders, lens = worlds.arrays
        assert opps.tolist() == [opp for opp, _ in worlds]
        assert [row[:n] for row, n in zip(orders.tolist(), lens.tolist())] == [order for _, order in worlds]


def test_compiled_estimate_rows_equal_numpy_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """One row's pinning and water filling, compiled and in numpy, on 3,000 rows: many cards capped at 1,
    known cards, tiny and NaN-free raw values; and the Gumbel top-k hands on the same draws."""
    from ginbots.estimators import snapshot
    from ginbots.estimators import snapshot_kernels as sk

    rng, nrng = random.Random(31), np.random.default_rng(31)
    for trial in range(3000):
        opp_known = sum(1 << c for c in rng.sample(range(52), rng.choice((0, 0, 1, 3, 9))))
        unknown = (sum(1 << c for c in rng.sample(range(52), rng.randrange(12, 42))) | opp_known)
        raw = (nrng.random(52) ** rng.choice((1, 4, 12)) * rng.choice((0.2, 1.0, 3.0))).astype(np.float32)
        if trial % 7 == 0:
            raw[nrng.random(52) < 0.3] = 0.0  # below the floor of 1e-9
        snap = snapshot.snapshot_rows([_knowledge(unknown, opp_known)])
        results = []
        for twins in (None, sk):
            monkeypatch.setattr(snapshot, "_KERNELS", twins)
            pinned = snapshot.with_known_cards(snap, raw[None])
            probs = snapshot.normalise(snap, pinned)
            hands = snapshot.sample_masks(probs[0], snap, 40, np.random.default_rng(trial))
            results.append((pinned, probs, hands))
        (a_pin, a_probs, a_hands), (b_pin, b_probs, b_hands) = results
        assert a_pin.dtype == b_pin.dtype and (a_pin == b_pin).all(), trial
        assert a_probs.dtype == b_probs.dtype and (a_probs == b_probs).all(), trial
        assert (a_hands == b_hands).all(), trial


def test_compiled_top_k_defers_ties_to_numpy() -> None:
    """Two keys equal at the cut: the kernel declines and numpy's argpartition decides."""
    from ginbots.estimators import snapshot_kernels as sk

    gumbel = np.array([[0.5, 0.1, 0.5, 0.9]])
    assert sk.select_masks(np.zeros(4), gumbel, np.arange(4), 2, 0) is None
    assert sk.select_masks(np.zeros(4), gumbel, np.arange(4), 3, 0).tolist() == [0b1101]


def test_compiled_stock_draws_equal_argsort(monkeypatch: pytest.MonkeyPatch) -> None:
    """The heuristic's stock draws (the highest uniforms among cards neither in the hand nor the pile, in
    argsort's order), compiled and in numpy, on 3,000 batches; the kernel declines where ties or too few
    unseen cards leave argsort to decide."""
    from ginbots.players import hand_utility as hu
    from ginbots.players import hand_utility_kernels as hk

    nrng = np.random.default_rng(32)
    declined = 0
    for trial in range(3000):
        rows, draws = int(nrng.integers(1, 120)), int(nrng.integers(1, 8))
        density = max(0.1, float(nrng.random()))
        opponents = np.array([sum(1 << c for c in range(52) if nrng.random() < density) for _ in range(rows)],
                             dtype=np.uint64)
        pile = sum(1 << int(c) for c in nrng.choice(52, int(nrng.integers(0, 20)), replace=False))
        uniforms = nrng.random((rows, 52))
        if trial % 20 == 0:
            uniforms = np.round(uniforms, 2)  # ties
        monkeypatch.setattr(hu, "_KERNELS", None)
        expected = hu.stock_draw_hands(opponents, pile, uniforms, draws)
        got = hk.stock_draw_hands(opponents, pile, uniforms, draws)
        if got is None:
            declined += 1
            continue
        assert got.dtype == expected.dtype and (got == expected).all(), trial
    assert 0 < declined < 2000


def _knowledge(unknown: int, opp_known: int):
    """A seat's view with the given unknown cards and cards the opponent surely holds."""
    from ginbots.game.knowledge import Knowledge

    k = Knowledge(0, 0, 0)
    k.unknown, k.opp_known = unknown, opp_known
    return k


def test_compiled_knock_layoff_search_picks_the_same_melds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The knock's meld set and order leaving sampled opponents fewest layoffs, compiled and in Python, on
    2,000 knockable hands (many with several optimal meld sets) against 1-40 sampled opponents."""
    from ginbots.game import tactics

    rng = random.Random(41)
    several = 0
    for _ in range(2000):
        hand = _hand(rng, 10)
        while melds.min_deadwood(hand) > 10:
            if rng.random() < 0.5:  # a block of ranks in three or four suits: sets and runs compete
                low = rng.randrange(11)
                block = [13 * suit + rank for suit in rng.sample(range(4), rng.choice((3, 4)))
                         for rank in range(low, low + 3)]
                hand = sum(1 << c for c in rng.sample(block, min(len(block), 9)))
                hand |= _hand(rng, 10 - hand.bit_count(), avoid=hand)
            else:
                hand = _hand(rng, 10)
        several += len(melds.best_meld_sets(hand)) > 1
        rest = [c for c in range(52) if not hand >> c & 1]
        opponents = [_hand(rng, 10, avoid=hand) for _ in range(rng.randrange(1, 41))]
        assert all(not o & hand for o in opponents) and rest
        monkeypatch.setattr(tactics, "_LAYOFF_KERNEL", None)
        expected = tactics.knock_melds_min_layoffs(hand, opponents)
        monkeypatch.setattr(tactics, "_LAYOFF_KERNEL", kernels.knock_melds_min_layoffs)
        assert tactics.knock_melds_min_layoffs(hand, opponents) == expected, hex(hand)
    assert several > 100
