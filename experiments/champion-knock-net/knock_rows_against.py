"""The knock rows of ``ginbots.training.knock_data`` against one opponent, any opponent: evaluation only.

The champion plays games to 100 against OPPONENT (one player object for the whole run, as a match
keeps it, so a Java entry is one process and the champion's memory of the opponent grows as in a
match) and records each searched knock decision labelled with the points knocking there would pay
against the opponent's true hand. The opponent's hand is followed from the engine's own messages to it
(the deal, its draws and discards), never asked of it, so any bot, in-process or behind the bridge,
can be scored. The rows then score how well the worlds and knock networks predict those points
against an opponent outside the data's pool (``--nets``, and their blends with the worlds as
``knock_net`` weighs them): mean squared error and bias.

Usage: python experiments/champion-knock-net/knock_rows_against.py OPPONENT --games N --seed S --out FOLDER
       [--spec champion:...] [--nets NET_FOLDER ...] [--json OUT]
(FOLDER receives chunk_00000.npz; with the chunk already there, it is scored again without playing.)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np

from ginbots.arena.chunks import save_chunk
from ginbots.arena.match import derive_seed
from ginbots.game.engine import play_game
from ginbots.players.afterstate_value import KNOCK_NET, AfterstateValue
from ginbots.players.champion import ChampionPlayer
from ginbots.players.registry import parse_spec
from ginbots.training.afterstate_data import row_arrays
from ginbots.training.afterstate_train import inputs, load
from ginbots.training.knock_data import KNOCK_FIELDS, KnockRecorder


#: Weights of the network in the blends scored (knock_net's values).
BLENDS = (0.25, 0.5, 0.75, 1.0)


class HandFollower:
    """An opponent whose hand is followed from what the engine tells it (for the labels only)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.hand = 0
        self.seat = -1

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def start_hand(self, seat: int, starter: int, hand: int) -> None:
        self.seat, self.hand = seat, hand
        self.inner.start_hand(seat, starter, hand)

    def report_draw(self, seat: int, card: int | None) -> None:
        if seat == self.seat and card is not None:
            self.hand |= 1 << card
        self.inner.report_draw(seat, card)

    def report_discard(self, seat: int, card: int) -> None:
        if seat == self.seat:
            self.hand &= ~(1 << card)
        self.inner.report_discard(seat, card)


def record(opponent: str, games: int, seed: int, spec: str) -> dict[str, np.ndarray]:
    """Games to 100 against one ``opponent`` object, the seats alternating; the recorder's rows."""
    params = parse_spec(spec).params
    # The champion as it plays (its default knock network), unless the spec says otherwise.
    bot = KnockRecorder(seed=seed, **{"knock_net": ChampionPlayer._defaults()["knock_net"], **params})
    bot.prepare()
    other = HandFollower(parse_spec(opponent).make(seed=derive_seed(seed, 1)))
    bot.watch(other)
    wins = 0
    try:
        for g in range(games):
            seats = (bot, other) if g % 2 == 0 else (other, bot)
            result = play_game(seats, derive_seed(seed, 2 + g))
            wins += result.winner == seats.index(bot)
    finally:
        if hasattr(other.inner, "close"):
            other.inner.close()
    print(f"{spec} vs {opponent}: won {wins} of {games}; {len(bot.rows)} knock rows")
    return row_arrays(bot.rows, KNOCK_FIELDS)


def score(data: dict[str, np.ndarray], nets: list[str]) -> dict[str, Any]:
    """Mean squared error and bias of the worlds' and each network's points of knocking now, and of the
    blends ``knock_net`` makes of the two ((1 - w) x worlds + w x network)."""
    truth = data["knock_points"].astype(float)
    worlds = data["search_knock"].astype(float)
    guesses = {"worlds": worlds}
    for net in nets:
        values = AfterstateValue(str(Path(net) / KNOCK_NET))(inputs(data)).astype(float)
        for w in BLENDS:
            guesses[f"{Path(net).name}_{round(100 * w)}"] = (1 - w) * worlds + w * values  # weights_75: 0.75
    report: dict[str, Any] = {"rows": int(len(truth)), "knocked": int(data["knocked"].sum()),
                              "label_mean": float(truth.mean()), "label_var": float(truth.var())}
    for name, guess in guesses.items():
        error = guess - truth
        report[name] = {"mse": float((error ** 2).mean()), "bias": float(error.mean()),
                        "bias_se": float(error.std() / np.sqrt(len(error)))}
        print(f"  {name:40s} mse {report[name]['mse']:7.1f}  bias {report[name]['bias']:+6.2f} "
              f"+- {report[name]['bias_se']:.2f}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponent")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=3000)
    parser.add_argument("--spec", default="champion")
    parser.add_argument("--out", required=True)
    parser.add_argument("--nets", nargs="*", default=[], help="knock network folders to score beside the worlds")
    parser.add_argument("--json")
    args = parser.parse_args()
    folder = Path(args.out)
    chunk = folder / "chunk_00000.npz"
    if not chunk.exists():
        folder.mkdir(parents=True, exist_ok=True)
        save_chunk(chunk, **record(args.opponent, args.games, args.seed, args.spec))
    report = {"opponent": args.opponent, "games": args.games, "seed": args.seed, "spec": args.spec,
              **score(load(folder, KNOCK_FIELDS), args.nets)}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
