"""The champion's searched knock decisions by stage of the hand: what knocking would pay, what it predicted, what it did.

Reads the rows ``knock_rows_against.py`` records (every searched knock decision, labelled with the exact
points of knocking now against the opponent's true hand) and groups them by the opponent's turns so far.
Per group: the label's mean; the worlds', the shipped knock network's and the ``knock_net=0.75`` blend's
mean prediction of it; the worlds' value of playing on; how often the champion knocked; and the hand's
realised points where it knocked and where it played on (chosen rows, so the last two are not a clean
comparison of the two actions: the champion picked them).

Usage: python experiments/champion-knock-net/knock_by_turn.py ROWS_FOLDER [--net weights] [--blend 0.75]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ginbots.players.afterstate_value import KNOCK_NET, AfterstateValue
from ginbots.training.afterstate_train import inputs, load
from ginbots.training.knock_data import KNOCK_FIELDS

#: Groups of the opponent's turns so far.
GROUPS = ((0, 4), (4, 6), (6, 8), (8, 10), (10, 12), (12, 99))


def table(rows: dict[str, np.ndarray], net_folder: Path, blend: float) -> str:
    net = AfterstateValue(str(net_folder / KNOCK_NET))(inputs(rows)).astype(float)
    worlds = rows["search_knock"].astype(float)
    mixed = (1 - blend) * worlds + blend * net
    turns, knocked, points = rows["opp_turns"], rows["knocked"].astype(bool), rows["points"].astype(float)
    lines = [f"{len(turns)} rows; blend = {1 - blend:g} x worlds + {blend:g} x network",
             "opp turns  rows  label  worlds  network  blend  play-on (worlds)  knocked  paid: knocked (n)  played on (n)"]
    for lo, hi in GROUPS:
        m = (turns >= lo) & (turns < hi)
        if not m.any():
            continue
        k, p = knocked[m], points[m]
        paid_k = f"{p[k].mean():6.1f} ({k.sum()})" if k.any() else "     - (0)"
        paid_p = f"{p[~k].mean():6.1f} ({(~k).sum()})" if (~k).any() else "     - (0)"
        span = f"{lo}-{hi - 1}" if hi < 99 else f"{lo}+"
        lines.append(f"{span:>9s} {m.sum():5d} {rows['knock_points'][m].mean():6.1f} {worlds[m].mean():7.1f} "
                     f"{net[m].mean():8.1f} {mixed[m].mean():6.1f} {rows['search_play_on'][m].mean():17.1f} "
                     f"{k.mean():8.2f}  {paid_k:>17s}  {paid_p:>13s}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=Path)
    parser.add_argument("--net", type=Path, default=Path("weights"))
    parser.add_argument("--blend", type=float, default=0.75)
    args = parser.parse_args()
    print(table(load(args.rows, KNOCK_FIELDS), args.net, args.blend))


if __name__ == "__main__":
    main()
