"""EAAI Gin Rummy as a PettingZoo AEC environment, and a Gymnasium one against a bundle bot.

Both play the exact challenge rules of ``ginbots.game.state`` (layoffs, undercuts, the
first-upcard protocol, the two-card stock end). An episode is one hand by default, as RL users
expect; ``single_hand=False`` makes it a whole game to 100. Needs the ``env`` extra:
``pip install 'ginbots[env]'``.

Actions (``Discrete(57)``): 0-51 discard that card; 52 take the face-up card; 53
decline it (draw from the stock, or pass the first upcard); 54 do not knock; 55
knock declaring a least-deadwood meld set; 56 declare a least-deadwood meld set
(when the opponent knocked). The observation's ``action_mask`` marks the legal ones.

Observation (``OBS_SIZE`` floats in [0, 1], one seat's view only): own hand (52),
face-up card (52), every card in the discard pile (52), opponent cards known
because it took them face up (52), the knocker's melds while declaring (52), the
phase (4), the first-upcard flag, stock left / 32, own and opponent score / goal.

Rewards: ``"points"`` (default) pays each seat the hand's points as they are
scored, zero-sum (+points to the winner, -points to the loser; cancelled hands 0);
``"win"`` pays +1 / -1 at the end of the game only.
"""

from __future__ import annotations

import queue
import random
import threading
from typing import Any, Callable

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError("ginbots.connect.env needs the env extra: pip install 'ginbots[env]' "
                      f"(PettingZoo and Gymnasium); {exc}") from None

from ginbots.game.cards import CARD_NAMES, GOAL_SCORE, cards_of
from ginbots.game.melds import best_meld_set
from ginbots.game.state import (
    CONTINUE,
    GAME_OVER,
    HAND_OVER,
    NUM_ACTIONS,
    PHASE_NAMES,
    TAKE_FACE_UP,
    GinState,
    IllegalAction,
    Observation,
)
from ginbots.players.base import HandTrackingPlayer, Player

OBS_SIZE = 52 * 5 + 4 + 1 + 1 + 2
AGENTS = ("player_0", "player_1")
REWARDS = ("points", "win")


def encode(obs: Observation, goal_score: int = GOAL_SCORE) -> np.ndarray:
    """A seat's ``Observation`` as the flat float32 vector described in the module docstring."""
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    for c in cards_of(obs.hand):
        out[c] = 1.0
    if obs.face_up is not None:
        out[52 + obs.face_up] = 1.0
    for c in obs.discard_pile:
        out[104 + c] = 1.0
    for c in cards_of(obs.opponent_known):
        out[156 + c] = 1.0
    for meld in obs.knocker_melds or ():
        for c in cards_of(meld):
            out[208 + c] = 1.0
    if obs.phase < HAND_OVER:
        out[260 + obs.phase] = 1.0
    out[264] = float(obs.first_upcard_offer)
    out[265] = obs.stock_left / 32.0
    out[266] = min(obs.scores[obs.seat] / goal_score, 1.0)
    out[267] = min(obs.scores[obs.seat ^ 1] / goal_score, 1.0)
    return out


def legal_mask(state: GinState, seat: int) -> np.ndarray:
    """1 for each legal action of ``seat`` (all zeros when it is not its turn)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    if state.phase < HAND_OVER and state.current == seat:
        mask[state.legal_actions()] = 1
    return mask


def _observation_space() -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
    })


def _as_action(action: Any) -> int:
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise IllegalAction("bad-answer-type", f"an action must be an int 0-{NUM_ACTIONS - 1}, got {action!r}")


class _GameSeeds:
    """Engine seeds for successive episodes: ``reset(seed=s)`` plays seed s, later resets s+1, s+2...
    (from the system's entropy until a seed is given)."""

    def __init__(self) -> None:
        self.following: int | None = None

    def next(self, seed: int | None) -> int:
        if seed is not None:
            self.following = seed
        if self.following is None:
            self.following = random.SystemRandom().getrandbits(62)
        seed, self.following = self.following, self.following + 1
        return seed


def _check_options(reward: str, goal_score: int) -> None:
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    if goal_score < 1:
        raise ValueError(f"goal_score must be positive, got {goal_score}")


class GinRummyEnv(AECEnv):
    """Two seats, ``player_0`` and ``player_1``; ``reset(seed=s)`` deals as ``play_game(seed=s)``."""

    metadata = {"name": "ginbots_gin_rummy_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, *, single_hand: bool = True, reward: str = "points", goal_score: int = GOAL_SCORE,
                 max_turns_per_hand: int = 1000, max_hands_per_game: int = 1000,
                 render_mode: str | None = None) -> None:
        super().__init__()
        _check_options(reward, goal_score)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.single_hand = single_hand
        self.reward_kind = reward
        self.goal_score = goal_score
        self.max_turns_per_hand = max_turns_per_hand
        self.max_hands_per_game = max_hands_per_game
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._obs_space = _observation_space()
        self._act_space = spaces.Discrete(NUM_ACTIONS)
        self._seeds = _GameSeeds()
        self.state: GinState | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        game_seed = self._seeds.next(seed)
        self.state = GinState(game_seed, goal_score=self.goal_score, max_turns_per_hand=self.max_turns_per_hand,
                              max_hands_per_game=self.max_hands_per_game, single_hand=self.single_hand)
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"game_seed": game_seed} for a in self.agents}
        self.agent_selection = AGENTS[self.state.current]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        return {"observation": encode(self.state.observation(seat), self.goal_score),
                "action_mask": legal_mask(self.state, seat)}

    def step(self, action: Any) -> None:
        if self.state is None:
            raise gymnasium.error.ResetNeeded("GinRummyAEC.step() before reset(): call reset() first")
        if not self.agents:
            raise gymnasium.error.ResetNeeded("every agent of GinRummyAEC is done (the game is over): call reset() "
                                              "for a new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        before = (state.scores[0], state.scores[1])
        state.apply(_as_action(action))  # IllegalAction names the action, phase and legal moves
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.phase == HAND_OVER:
            state.next_hand()
        gained = (state.scores[0] - before[0], state.scores[1] - before[1])
        if self.reward_kind == "points" and gained != (0, 0):
            self.rewards = {AGENTS[0]: float(gained[0] - gained[1]), AGENTS[1]: float(gained[1] - gained[0])}
        if state.phase == GAME_OVER:
            winner = state.winner()
            if self.reward_kind == "win" and winner is not None:
                self.rewards = {a: (1.0 if i == winner else -1.0) for i, a in enumerate(AGENTS)}
            done = {a: True for a in self.agents}
            if state.note:  # max_hands_per_game reached: cut short, not finished
                self.truncations = done
            else:
                self.terminations = done
            for a in self.agents:
                self.infos[a] = {**self.infos[a], "scores": tuple(state.scores), "winner": winner}
        else:
            self.agent_selection = AGENTS[state.current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return describe(self.state)

    def close(self) -> None:
        pass


def describe(state: GinState | None) -> str:
    """A short text picture of the table (both hands: for a spectator, not a player): ``str(state)``."""
    return "(no game)" if state is None else str(state)


# --- single agent against a bundle bot -------------------------------------------------------------
class _Abandon(BaseException):
    """Ends a game thread whose environment was reset or closed."""


class _AgentSeat(HandTrackingPlayer):
    """The learner's seat inside ``play_game``: each decision waits for ``GinRummyVsBot.step``."""

    name = "agent"

    def __init__(self, requests: queue.Queue, replies: queue.Queue) -> None:
        super().__init__(seed=None)
        self.requests = requests
        self.replies = replies

    def _decide(self) -> int:
        self.requests.put("decide")
        action = self.replies.get()
        if action is None:
            raise _Abandon()
        return action

    def will_draw_face_up(self, card: int) -> bool:
        return self._decide() == TAKE_FACE_UP

    def discard(self) -> int:
        return self._decide()

    def knock(self) -> Any:
        return None if self._decide() == CONTINUE else best_meld_set(self.hand)

    def declare_melds(self) -> Any:
        self._decide()
        return best_meld_set(self.hand)


#: Seconds an isolated opponent may take over one decision before it forfeits the game.
DECISION_TIMEOUT = 10.0


class GinRummyVsBot(gymnasium.Env):
    """One seat against a bundle bot, through the engine itself (``play_game``), so the opponent
    gets exactly the callbacks of a real match. ``opponent``: a player spec (``"simple"``,
    ``"heuristic:tuned"``) or a factory returning a ``Player``. An illegal action raises
    ``IllegalAction``, or with ``illegal_penalty`` set earns that reward and changes nothing."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponent: str | Callable[[], Player] = "simple", *, seat: int = 0, single_hand: bool = True,
                 reward: str = "points", goal_score: int = GOAL_SCORE, illegal_penalty: float | None = None,
                 render_mode: str | None = None) -> None:
        _check_options(reward, goal_score)
        self.illegal_penalty = illegal_penalty
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        self.opponent = opponent
        self.seat = seat
        self.single_hand = single_hand
        self.reward_kind = reward
        self.goal_score = goal_score
        self.render_mode = render_mode
        self.observation_space = _observation_space()
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._thread: threading.Thread | None = None
        self._seeds = _GameSeeds()
        self.state: GinState | None = None

    def _make_opponent(self, seed: int) -> Player:
        if callable(self.opponent):
            return self.opponent()
        from .host import make_player, parse_checked

        # Another package's bot plays from its own sandboxed process, with a clock per decision (the
        # environment's game runs in a thread, where the engine's alarm-based budget cannot reach).
        return make_player(parse_checked(self.opponent).isolated(None), seed, decision_timeout=DECISION_TIMEOUT)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        self._stop()
        game_seed = self._seeds.next(seed)
        from ginbots.game.engine import GameConfig, play_game
        self._requests: queue.Queue = queue.Queue()
        self._replies: queue.Queue = queue.Queue()
        agent = _AgentSeat(self._requests, self._replies)
        players = [agent, self._make_opponent(game_seed)]
        if self.seat == 1:
            players.reverse()
        config = GameConfig(time_budget=None, goal_score=self.goal_score,
                            max_hands_per_game=1 if self.single_hand else 1000)
        holder: dict[str, Any] = {}

        def run() -> None:
            try:
                holder["result"] = play_game(players, game_seed, config=config, player_seeds=(game_seed, game_seed + 1),
                                             observer=lambda state: holder.setdefault("state", state))
            finally:
                self._requests.put("done")

        self._holder = holder
        self._thread = threading.Thread(target=run, name="ginbots-env-game", daemon=True)
        self._thread.start()
        self._scores = (0, 0)
        self._wait()
        self.state = holder.get("state")
        return self._obs(), {"game_seed": game_seed}

    def _wait(self) -> None:
        self._last = self._requests.get()

    def _obs(self) -> dict[str, np.ndarray]:
        state = self.state
        return {"observation": encode(state.observation(self.seat), self.goal_score),
                "action_mask": legal_mask(state, self.seat) if self._last == "decide"
                else np.zeros(NUM_ACTIONS, dtype=np.int8)}

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self.state is None:
            raise gymnasium.error.ResetNeeded("GinRummyVsBot.step() before reset(): call reset() first")
        if self._last != "decide":
            raise gymnasium.error.ResetNeeded("GinRummyVsBot: the game is over: call reset() for a new one")
        state = self.state
        try:
            action = _as_action(action)
        except IllegalAction:
            if self.illegal_penalty is None:
                raise
            action = -1
        legal = state.legal_actions()
        if action not in legal:
            if self.illegal_penalty is not None:  # the game stays where it was; the agent is told by the reward
                return self._obs(), float(self.illegal_penalty), False, False, {"illegal_action": action}
            raise state.not_legal(action)
        self._replies.put(action)
        self._wait()
        scores = (state.scores[0], state.scores[1])
        me, them = self.seat, self.seat ^ 1
        reward = 0.0
        if self.reward_kind == "points":
            reward = float((scores[me] - self._scores[me]) - (scores[them] - self._scores[them]))
        self._scores = scores
        info: dict[str, Any] = {}
        terminated = truncated = False
        if self._last == "done":
            self._thread.join()
            result = self._holder.get("result")
            winner = result.winner if result is not None else None
            if self.single_hand:
                winner = state.hands_played[-1].winner if state.hands_played else None
                terminated = True
            elif result is not None and result.note:
                truncated = True
            else:
                terminated = True
            if self.reward_kind == "win" and winner is not None:
                reward = 1.0 if winner == self.seat else -1.0
            info = {"scores": scores, "winner": winner,
                    "forfeit": result.forfeit.reason if result is not None and result.forfeit else None}
        return self._obs(), reward, terminated, truncated, info

    def _stop(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self._replies.put(None)  # the agent's pending decision raises _Abandon: the game ends
            self._thread.join(timeout=10)
        self._thread = None

    def render(self) -> str | None:
        return describe(self.state) if self.render_mode == "ansi" and self._thread else None

    def close(self) -> None:
        self._stop()

