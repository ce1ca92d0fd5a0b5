"""Document 003's comparison under its own simulator's rules, not the challenge's (issue 17).

The document's simulator (its section V) differs from the EAAI engine: the first
upcard is an ordinary face-up card (no pass protocol), a knock tie goes to the
knocker, nobody calls gin (a zero-deadwood knock scores as a knock), and a round
ends when fewer than two cards are left in the deck. ``Document003Rules`` plays
those rules through the engine's driver (``play_game(..., rules=...)``); the
engine's own rules are untouched. Each deal is played twice with the seats
swapped; a hand's winner is the round's winner, a cancelled hand counts for
neither. Results go to ``experiments/planner-document-rules/results/doc003_document_rules.json``.

    python experiments/planner-document-rules/doc003_document_rules.py --deals 1000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ginbots.arena.stats import wilson
from ginbots.game.engine import GameConfig, play_game
from ginbots.game.state import GinState
from ginbots.players.registry import parse_spec

#: The document's undercut bonus (its section II); gin is never called in its simulator.
DOCUMENT_UNDERCUT_BONUS = 10


class Document003Rules(GinState):
    """The document's simulator rules over the challenge's state machine (see the module doc)."""

    STOCK_END = 51  # the round ends when fewer than two deck cards are left
    FIRST_UPCARD_PROTOCOL = False

    @staticmethod
    def score_knock(knocker_deadwood: int, opponent_deadwood: int) -> tuple[str, bool, int]:
        if knocker_deadwood <= opponent_deadwood:  # ties go to the knocker
            return "knock", True, opponent_deadwood - knocker_deadwood
        return "undercut", False, DOCUMENT_UNDERCUT_BONUS + knocker_deadwood - opponent_deadwood


def play_deals(spec: str, opponent: str, deals: int, seed: int) -> dict:
    """Hand win rate of ``spec`` against ``opponent`` over ``deals`` deals, each with seats swapped."""
    wins = losses = cancelled = 0
    config = GameConfig(time_budget=None, max_hands_per_game=1)
    started = time.process_time()
    for deal in range(deals):
        for ours in (0, 1):
            a, b = parse_spec(spec).make(seed=seed + deal), parse_spec(opponent).make(seed=seed + deal + 7)
            players = [a, b] if ours == 0 else [b, a]
            result = play_game(players, seed + deal, config=config, rules=Document003Rules)
            if result.forfeit is not None:
                raise RuntimeError(result.forfeit.reason)
            winner = result.hands[0].winner
            if winner is None:
                cancelled += 1
            elif winner == ours:
                wins += 1
            else:
                losses += 1
    low, high = wilson(wins, wins + losses, 0.90)
    return {"spec": spec, "opponent": opponent, "deals": deals, "hands": 2 * deals, "wins": wins, "losses": losses,
            "cancelled": cancelled, "win_rate": wins / max(1, wins + losses), "ci90": [low, high],
            "cpu_s": round(time.process_time() - started, 1), "seed": seed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--specs", default="planner,planner:method=forward")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "doc003_document_rules.json"))
    args = parser.parse_args()
    out = Path(args.out)
    results = json.loads(out.read_text()) if out.exists() else {}
    for spec in args.specs.split(","):
        for opponent in ("random", "greedy"):
            key = f"{spec} vs {opponent}"
            if key in results and results[key]["deals"] >= args.deals:
                continue
            results[key] = play_deals(spec, opponent, args.deals, args.seed)
            r = results[key]
            print(f"{key}: {100 * r['win_rate']:.1f}% [{100 * r['ci90'][0]:.1f}, {100 * r['ci90'][1]:.1f}] of "
                  f"{r['wins'] + r['losses']} decided hands ({r['cancelled']} cancelled)", flush=True)
            out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
