"""Training data for the champion's afterstate value (``ginbots.players.afterstate_value``).

The champion plays games to 100 against a pool of opponents (itself, Simple, Simple waiting for
gin, the tuned heuristic); at each of its discards it records the position the discard leaves, as
it sees it, and when the hand is scored every row of that hand gets the signed points it paid the
champion. To show the network positions a little off its own choices, a discard whose heuristic
values were computed is, with chance ``explore``, one of the best three by those values drawn at
random. Rows are single positions; labels are real outcomes of the champion's own continuation.
Generation is chunked and resumable (``python -m ginbots.training.afterstate_data OUT GAMES``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
import random
from pathlib import Path

import numpy as np

from ginbots.arena.chunks import generate_chunks, save_chunk
from ginbots.arena.match import derive_seed
from ginbots.game.engine import play_game
from ginbots.game.knowledge import Knowledge
from ginbots.players.afterstate_value import view_masks
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec

#: Opponents of the data games, one per game in turn: "champion" is self-play (both seats record).
OPPONENT_POOL = ("champion", "simple", "simple:knock_at=0", "heuristic:tuned")
#: Fields of a row, as saved in each chunk.
FIELDS = ("after", "thrown", "pile", "opp_known", "picked", "declined", "opp_discards", "holds", "stock",
          "opp_turns", "knocked", "explored", "points", "episode")


def position_row(k: Knowledge, after: int, thrown: int, holds: np.ndarray) -> dict:
    """The afterstate network's input fields (``FIELDS``' first ten) for the position a seat's discard of
    ``thrown`` leaves (``after``, its ten cards), as that seat sees it: the pile under the thrown card."""
    pile, opp_known, picked, declined, opp_discards = view_masks(k)
    return dict(after=after, thrown=thrown, pile=pile & ~(1 << thrown), opp_known=opp_known, picked=picked,
                declined=declined, opp_discards=opp_discards, holds=np.asarray(holds, dtype=np.float32),
                stock=k.stock_size, opp_turns=k.opp_turns)


class RecordingChampion(ChampionPlayer):
    """The champion keeping rows of each hand (``hand_rows``, filled by a subclass), each given the signed
    points the hand paid it and the hand's number when it is scored (``rows``)."""

    def __init__(self, *, seed: int | None = None, **params) -> None:
        super().__init__(seed=seed, **params)
        self.rows: list[dict] = []
        self.episode = 0

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.hand_rows: list[dict] = []
        self.episode += 1

    def report_scores(self, scores: tuple[int, int]) -> None:
        before = self.last_scores
        super().report_scores(scores)
        signed = (scores[self.seat] - before[self.seat]) - (scores[1 - self.seat] - before[1 - self.seat])
        self.rows += [{**row, "points": signed, "episode": self.episode} for row in self.hand_rows]
        self.hand_rows = []


class ExploringChampion(RecordingChampion):
    """The champion, recording the position after each of its discards (and sometimes exploring)."""

    def __init__(self, *, seed: int | None = None, explore: float = 0.15, **params) -> None:
        # The shipped networks learned from the champion playing without them (the first generation);
        # recording with a network's help (a later generation) is asked for with afterstate_weight.
        params.setdefault("afterstate_weight", 0.0)
        super().__init__(seed=seed, **params)
        self.explore = explore
        self.explore_rng = random.Random(derive_seed(seed or 0, 7))

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        super().start_hand(seat, starter, hand)
        self.last_values: dict[int, float] | None = None
        self.last_holds = None

    def discard_values(self, candidates, opponents, holds=None, prune=True):
        values = super().discard_values(candidates, opponents, holds, prune)
        self.last_values, self.last_holds = values, holds
        return values

    def discard(self) -> int:
        self.last_values = None
        card = super().discard()
        explored = False
        if self.last_values is not None and len(self.last_values) > 1 and self.explore_rng.random() < self.explore:
            best = sorted(self.last_values, key=lambda c: (-self.last_values[c], c))[:3]
            card, explored = self.explore_rng.choice(best), True
        holds = self.last_holds if self.last_holds is not None else self.opponent_view()[0]
        # The card is not on the pile yet: the row is the position it is about to leave.
        row = position_row(self.knowledge, self.hand & ~(1 << card), card, holds)
        self.hand_rows.append({**row, "knocked": False, "explored": explored})
        return card

    def knock(self):
        melds = super().knock()
        if melds is not None and self.hand_rows:
            self.hand_rows[-1]["knocked"] = True
        return melds


def record_games(seeds: list[int], explore: float, opponents: tuple[str, ...] = OPPONENT_POOL,
                 first_game: int = 0, afterstate_weight: float = 0.0) -> dict[str, np.ndarray]:
    """Play one game per seed, game ``first_game + i`` against ``opponents[(first_game + i) % len]``,
    the champion seated by the game's parity; every recorded row, as arrays. ``afterstate_weight``: the
    recording champions' (0: the first generation, which learned from no network)."""
    recorder = partial(ExploringChampion, explore=explore, afterstate_weight=afterstate_weight)
    return play_recorded(seeds, recorder, FIELDS, opponents, first_game)


def play_recorded(seeds: list[int], recorder: Callable[..., RecordingChampion], fields: tuple[str, ...],
                  opponents: tuple[str, ...] = OPPONENT_POOL, first_game: int = 0) -> dict[str, np.ndarray]:
    """The games of ``record_games`` with any recording champion (``recorder(seed=...)``, whose ``rows``
    are dicts of ``fields``): each recorder is told its opponent (``watch``) when it has a use for it."""
    rows: list[dict] = []
    for i, seed in enumerate(seeds):
        g = first_game + i
        opponent = opponents[g % len(opponents)]
        ours = recorder(seed=derive_seed(seed, 0))
        theirs = (recorder(seed=derive_seed(seed, 1)) if opponent == "champion"
                  else parse_spec(opponent).make(seed=derive_seed(seed, 1)))
        for watcher, watched in ((ours, theirs), (theirs, ours)):
            if hasattr(watcher, "watch"):
                watcher.watch(watched)
        players = (ours, theirs) if g % 2 == 0 else (theirs, ours)
        play_game(players, seed=seed)
        for p, offset in ((ours, 0), (theirs, 1)):
            if p is ours or opponent == "champion":
                rows += [{**r, "episode": (2 * g + offset) * 100 + r["episode"]} for r in p.rows]
    return row_arrays(rows, fields)


def row_arrays(rows: list[dict], fields: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Recorded rows (dicts of ``fields``) as the arrays a chunk keeps: card masks as uint64, holds as float32."""
    if not rows:
        return {f: np.zeros(0) for f in fields}
    out = {f: np.array([r[f] for r in rows]) for f in fields if f != "holds"}
    out["holds"] = np.stack([r["holds"] for r in rows]).astype(np.float32)
    for f in ("after", "pile", "opp_known", "picked", "declined", "opp_discards"):
        out[f] = out[f].astype(np.uint64)
    return out


def checked_pool(opponents: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """An opponent pool as a tuple, every spec but ``champion`` (self-play) parsed: an unknown player or
    hyperparameter fails here, before any game is played."""
    opponents = tuple(opponents)
    if not opponents:
        raise ValueError("the opponent pool is empty: name at least one player")
    for spec in opponents:
        if spec != "champion":
            parse_spec(spec)
    return opponents


def _setup() -> None:
    pass


def _run(job: tuple[int, int, int, float, str, float, tuple[str, ...]]) -> int:
    seed, start, size, explore, path, weight, opponents = job
    arrays = record_games([derive_seed(seed, g) for g in range(start, start + size)], explore, opponents,
                          first_game=start, afterstate_weight=weight)
    save_chunk(path, **arrays)
    return size


def generate(out_dir: str | Path, games: int, *, seed: int = 37, explore: float = 0.15, chunk: int = 40,
             workers: int = 1, progress: bool | None = None, afterstate_weight: float = 0.0,
             opponents: tuple[str, ...] = OPPONENT_POOL) -> list[Path]:
    """Record ``games`` games into ``out_dir/chunk_NNNNN.npz``; chunks on disk are kept (resumable).
    ``opponents``: the pool, one per game in turn (every spec is checked before a game is played)."""
    opponents = checked_pool(opponents)
    settings = {"seed": seed, "explore": explore, "afterstate_weight": afterstate_weight}
    if opponents != OPPONENT_POOL:  # folders recorded before the pool was a setting keep their settings
        settings["opponents"] = list(opponents)
    return generate_chunks(Path(out_dir), games, chunk,
                           lambda start, size, path: (seed, start, size, explore, path, afterstate_weight, opponents),
                           setup=_setup, run=_run, unit="games", workers=workers, progress=progress,
                           settings=settings)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("games", type=int)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--chunk", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--afterstate-weight", type=float, default=0.0,
                        help="the recording champion's afterstate_weight: 0 records the first generation (the "
                             "shipped network's data), 1 a second, played with the shipped network's help")
    parser.add_argument("--opponents", nargs="+", default=OPPONENT_POOL, metavar="SPEC",
                        help="player specs, game g against the (g mod n)th; champion: itself "
                             f"(default {' '.join(OPPONENT_POOL)})")
    args = parser.parse_args(argv)
    try:
        generate(args.out, args.games, seed=args.seed, explore=args.explore, chunk=args.chunk, workers=args.workers,
                 progress=True, afterstate_weight=args.afterstate_weight, opponents=args.opponents)
    except (ValueError, KeyError) as exc:  # a folder recorded with other settings, or an unknown player
        parser.error(str(exc))


if __name__ == "__main__":
    main()
