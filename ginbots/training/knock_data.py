"""Training data for the champion's learned value of knocking now (``ginbots.players.afterstate_value``).

The champion plays the games of ``afterstate_data`` (the same pool of opponents); at each knock
decision it searches (deadwood 1-10, within its budget) it records its position as the afterstate
network reads it, and labels it with the points knocking there would pay, scored exactly against the
opponent's true hand (it declares its best melds and lays off, as the engine scores). The label does
not depend on what the champion then chose, so the rows carry no bias from its own knock rule; the
worlds' estimate of the same knock and of playing on are kept beside it, to compare. Only data
generation reads the opponent's hand (``watch``); the network learns to predict it from the view.
Chunked and resumable: ``python -m ginbots.training.knock_data OUT GAMES [--workers N] [--opponents SPEC ...]``.
The recording champion plays without the knock network (``knock_net=0``, the champion that recorded
the shipped data), so that a seed gives the same rows whatever the champion's default.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ginbots.arena.chunks import generate_chunks, save_chunk
from ginbots.arena.match import derive_seed
from ginbots.game.melds import min_deadwood
from ginbots.players.base import Player
from ginbots.search.rollout import knock_points

from .afterstate_data import OPPONENT_POOL, RecordingChampion, checked_pool, play_recorded, position_row

#: Fields of a row: the afterstate network's input (``afterstate_data.FIELDS``' first ten), the exact
#: points of knocking now, the worlds' mean points of knocking now and of playing on, whether it knocked,
#: its deadwood, the hand's signed points and the episode.
KNOCK_FIELDS = ("after", "thrown", "pile", "opp_known", "picked", "declined", "opp_discards", "holds", "stock",
                "opp_turns", "knock_points", "search_knock", "search_play_on", "knocked", "deadwood", "points",
                "episode")


class KnockRecorder(RecordingChampion):
    """The champion, recording each searched knock decision with its exact value against the true hand."""

    def __init__(self, *, seed: int | None = None, **params) -> None:
        # The shipped network learned from a champion that did not read it (the default before it);
        # recording with it (a later generation) is asked for with knock_net.
        params.setdefault("knock_net", 0.0)
        super().__init__(seed=seed, **params)
        self.opponent: Player | None = None
        self.recorded = False  # whether this turn's knock decision was recorded

    def watch(self, opponent: Player) -> None:
        """The opponent whose hand labels the rows (data generation only)."""
        self.opponent = opponent

    def _knock_values(self, hand: int):
        knock_now, play_on, melds, points = super()._knock_values(hand)
        if self.opponent is None:
            raise RuntimeError("KnockRecorder needs its opponent (watch) to label its rows")
        row = position_row(self.knowledge, hand, self.knowledge.pile[-1], self.opponent_view()[0])
        self.hand_rows.append({**row, "knock_points": knock_points(hand, self.opponent.hand, melds),
                               "search_knock": points, "search_play_on": play_on, "knocked": False,
                               "deadwood": min_deadwood(hand)})
        self.recorded = True
        return knock_now, play_on, melds, points

    def knock(self):
        self.recorded = False
        melds = super().knock()
        if melds is not None and self.recorded:
            self.hand_rows[-1]["knocked"] = True
        return melds


def _setup() -> None:
    pass


def _run(job: tuple[int, int, int, str, tuple[str, ...]]) -> int:
    seed, start, size, path, opponents = job
    seeds = [derive_seed(seed, g) for g in range(start, start + size)]
    save_chunk(path, **play_recorded(seeds, KnockRecorder, KNOCK_FIELDS, opponents, first_game=start))
    return size


def generate(out_dir: str | Path, games: int, *, seed: int = 59, chunk: int = 40, workers: int = 1,
             progress: bool | None = None, opponents: tuple[str, ...] = OPPONENT_POOL) -> list[Path]:
    """Record ``games`` games into ``out_dir/chunk_NNNNN.npz``, game g against ``opponents[g % len]``
    (``champion``: the recorder itself, both seats recording); chunks on disk are kept (resumable)."""
    opponents = checked_pool(opponents)
    return generate_chunks(Path(out_dir), games, chunk, lambda start, size, path: (seed, start, size, path, opponents),
                           setup=_setup, run=_run, unit="games", workers=workers, progress=progress,
                           settings={"seed": seed, "recorder": "knock", "opponents": list(opponents)})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("games", type=int)
    parser.add_argument("--seed", type=int, default=59)
    parser.add_argument("--chunk", type=int, default=40)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponents", nargs="+", default=OPPONENT_POOL, metavar="SPEC",
                        help="player specs, game g against the (g mod n)th; champion: itself "
                             f"(default {' '.join(OPPONENT_POOL)})")
    args = parser.parse_args(argv)
    try:
        generate(args.out, args.games, seed=args.seed, chunk=args.chunk, workers=args.workers, progress=True,
                 opponents=args.opponents)
    except (ValueError, KeyError) as exc:  # a folder recorded with other settings, or an unknown player
        parser.error(str(exc))


if __name__ == "__main__":
    main()
