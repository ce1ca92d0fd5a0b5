"""Train a small agent on the exact EAAI rules, then play it against `random` and `simple`.

Uses Stable-Baselines3's MaskablePPO (sb3-contrib) on ``ginbots.connect.env.GinRummyVsBot``, one hand
per episode against `random`, with the action mask so that the agent only ever picks legal
moves. The point is the plumbing (masks, seeding, a bundle bot as the opponent), not the
strength: 100,000 steps (8 to 12 CPU minutes) won 57 of 200 games to 100 against `random` and none
of 200 against `simple` (docs/env.md). The games against `random` are the slow part (about 45 minutes
on a busy two-core machine: the agent rarely knocks, so its games run long); progress is printed.

    pip install 'ginbots[env]' sb3-contrib
    python examples/train_maskable_ppo.py --timesteps 100000 --eval-games 200
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np

from ginbots.arena.stats import wilson
from ginbots.connect.env import GinRummyVsBot


class FlatMasked(gym.ObservationWrapper):
    """The observation vector alone, with the mask offered as ``action_masks()`` (MaskablePPO's hook)."""

    def __init__(self, env: GinRummyVsBot) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]
        self._mask = np.ones(env.action_space.n, dtype=bool)

    def observation(self, obs: dict) -> np.ndarray:
        self._mask = obs["action_mask"].astype(bool)
        return obs["observation"]

    def action_masks(self) -> np.ndarray:
        return self._mask


def play_games(model, opponent: str, games: int, seed: int) -> tuple[int, int]:
    """Games to 100 against ``opponent`` (the agent alternates seats); (wins, finished games).
    Prints its progress: a game to 100 takes the agent a few hundred decisions."""
    wins = finished = 0
    start = time.monotonic()
    for g in range(games):
        if g and (g % max(1, games // 10) == 0):
            left = (time.monotonic() - start) / g * (games - g)
            print(f"  vs {opponent}: {g}/{games} games, {wins} won; about {left:.0f} s left", flush=True)
        env = FlatMasked(GinRummyVsBot(opponent, seat=g % 2, single_hand=False, reward="win"))
        obs, _ = env.reset(seed=seed + g)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _reward, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        env.close()
        if info.get("winner") is not None:
            finished += 1
            wins += info["winner"] == g % 2
    return wins, finished


def _has_progress_bar() -> bool:
    """SB3's progress bar needs tqdm and rich; without them training runs without one."""
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default=None, help="where to save the trained model (.zip)")
    parser.add_argument("--json", default=None, help="where to write the run's record (win counts per opponent)")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO

    env = FlatMasked(GinRummyVsBot("random", single_hand=True, reward="points"))
    env.reset(seed=args.seed)
    model = MaskablePPO("MlpPolicy", env, n_steps=min(2048, max(64, args.timesteps)), batch_size=64,
                        seed=args.seed, verbose=0, device="cpu")
    start = time.process_time()
    record = {"timesteps": args.timesteps, "seed": args.seed, "eval_games": args.eval_games, "results": {}}
    print(f"training {args.timesteps} steps against random, one hand an episode (progress bar below)", flush=True)
    model.learn(total_timesteps=args.timesteps, progress_bar=_has_progress_bar())
    record["train_cpu_s"] = round(time.process_time() - start, 1)
    print(f"trained {args.timesteps} steps in {record['train_cpu_s']:.0f} s of CPU")
    if args.save:
        model.save(args.save)
    for opponent in ("random", "simple"):
        print(f"evaluating: {args.eval_games} games to 100 vs {opponent}", flush=True)
        eval_start = time.monotonic()
        wins, finished = play_games(model, opponent, args.eval_games, seed=10_000 + args.seed)
        print(f"  ({time.monotonic() - eval_start:.0f} s)")
        record["results"][opponent] = {"games": finished, "wins": wins, "losses": finished - wins}
        if finished:
            low, high = wilson(wins, finished, 0.90)
            print(f"vs {opponent}: won {wins} of {finished} games to 100 "
                  f"({100 * wins / finished:.1f}% [{100 * low:.1f}, {100 * high:.1f}] 90% Wilson)")
        else:
            print(f"vs {opponent}: no finished game")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(record, fh, indent=1)


if __name__ == "__main__":
    main()
