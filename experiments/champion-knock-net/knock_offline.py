"""Would the champion gain by knocking more, or less? An offline look at the rows of ``knock_rows_against.py``.

Each row is a searched knock decision with the points knocking there would have paid against the
opponent's true hand (``knock_points``) and the points the hand finally paid (``points``: after a
decision to play on, what playing on, with the champion's later decisions, brought). Two questions:

* **Knocking more.** The rule "knock when the default blend (``knock_net``) of the network and the worlds exceeds the
  worlds' value of playing on by more than -c" would knock at the first row of a hand where it fires
  and where the champion played on; the hand then pays that row's ``knock_points`` instead of its
  ``points``. The gain per hand is exact for these hands (no model), up to the opponent's replies
  having been the same.
* **Knocking less.** Where the champion knocked, what playing on would have paid is not recorded;
  it is estimated by the mean ``points`` of the rows where it played on with the same deadwood band and
  stock band against the same opponent (an estimate: the hands it knocked in were chosen, not random).

Usage: python experiments/champion-knock-net/knock_offline.py DATA/OPP ... [--out FILE]
(each DATA/OPP holds the chunk_00000.npz of ``knock_rows_against.py --out DATA/OPP``)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from knock_rows_against import inputs  # noqa: E402  (the rows' network inputs, as scored there)

from ginbots.players.afterstate_value import KNOCK_NET, AfterstateValue  # noqa: E402
from ginbots.players.champion import ChampionPlayer  # noqa: E402

#: The margins c of the "knock more" rule: 0 is the bare comparison, larger knocks more.
MARGINS = (0, 2, 4, 6, 8, 12)
#: Deadwood bands of the "knock less" table.
BANDS = ((1, 4), (5, 7), (8, 10))
#: The network's weight in the blend: the champion's default ``knock_net``.
BLEND = ChampionPlayer._defaults()["knock_net"]


def knock_more(rows: dict[str, np.ndarray], blend: np.ndarray, margin: float) -> tuple[int, float]:
    """Knocks added and points gained over all hands by knocking at the first played-on row where
    the blend beats playing on by more than -margin."""
    added, gain, decided = 0, 0.0, set()
    for i in range(len(blend)):
        hand = int(rows["episode"][i])
        if hand in decided:
            continue
        if rows["knocked"][i]:
            decided.add(hand)
        elif blend[i] - rows["search_play_on"][i] > -margin:
            decided.add(hand)
            added += 1
            gain += float(rows["knock_points"][i] - rows["points"][i])
    return added, gain


def knock_less(rows: dict[str, np.ndarray], low: int, high: int) -> tuple[int, float, float, int]:
    """In one deadwood band: knocks, their mean points, the estimated mean of playing on instead
    (played-on rows of the same stock band, weighted as the knocks' stock bands are) and its rows."""
    band = (rows["deadwood"] >= low) & (rows["deadwood"] <= high)
    stock = rows["stock"] // 8
    knocked = band & rows["knocked"]
    played = band & ~rows["knocked"]
    estimate, used = [], np.zeros(len(stock), dtype=bool)
    for i in np.flatnonzero(knocked):
        same = played & (stock == stock[i])
        if same.any():
            estimate.append(rows["points"][same].mean())
            used |= same
    mean_knock = float(rows["knock_points"][knocked].mean()) if knocked.any() else float("nan")
    return int(knocked.sum()), mean_knock, float(np.mean(estimate)) if estimate else float("nan"), int(used.sum())


def report(folder: Path, net: AfterstateValue) -> list[str]:
    rows = dict(np.load(next(folder.glob("*.npz"))))
    blend = BLEND * net(inputs(rows)).astype(float) + (1 - BLEND) * rows["search_knock"]
    hands = len(np.unique(rows["episode"]))
    lines = [f"{folder.name} (rows played by the champion of 2026-11-28 with knock_net=1): {len(blend)} rows, {hands} hands, {int(rows['knocked'].sum())} knocks"]
    more = []
    for margin in MARGINS:
        added, gain = knock_more(rows, blend, margin)
        more.append(f"c={margin}: +{added} knocks {gain / hands:+.2f}")
    lines.append("  knock more (points a hand): " + " | ".join(more))
    for low, high in BANDS:
        count, knock, play_on, used = knock_less(rows, low, high)
        lines.append(f"  knock less, deadwood {low}-{high}: {count} knocks paid {knock:+.1f} a hand; "
                     f"playing on paid {play_on:+.1f} in like rows ({used} rows)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    net = AfterstateValue(str(Path("weights") / KNOCK_NET))
    lines = [line for folder in args.folders for line in report(folder, net)]
    print("\n".join(lines))
    if args.out:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
