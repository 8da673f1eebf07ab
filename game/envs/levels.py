"""The Gymnasium environment of any one-player ruleset: `LevelEnv(ruleset, **params)`, registered
as `rulefront/<Ruleset>-v0` for every such ruleset (game.envs.register_gym_envs), so that
`gymnasium.make("rulefront/Descent-v0")` plays the ruleset's default level.

Keywords are the ruleset's parameters (its `params` edge, e.g. `level`, `max_moves`), or
`source` (any level file or shipped name), with `render_mode`, `max_steps` and
`end_on_illegal`. Actions and observation planes are game.encoding's; `info["action_mask"]`
and `action_masks()` mark the legal actions. Reward: +1 when the level is won, -1 when it is
lost, 0 otherwise, and 0 on any step after the end. An illegal action is refused: the world
stays as it was and `info["illegal"]` says why; with `end_on_illegal` it ends the episode
with -1 instead. Every step counts toward `max_steps`, a refused one too (by default the
ruleset's `max_length` edge, e.g. `max_moves`); past it the episode is truncated.
`reset(options={"level": ...})` moves to another level of the same shape (curricula).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from components.match import PLAYER
from game.encoding import HIGH
from game.envs.drawing import RENDER_MODES
from game.envs.game import RulefrontGame
from game.envs.spaces import MaskedDiscrete


class LevelEnv(RulefrontGame, gymnasium.Env):
    """One level of a one-player ruleset as a Gymnasium environment."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, ruleset: str, render_mode: str | None = None,
                 max_steps: int | None = None, end_on_illegal: bool = False,
                 source: str | None = None, **params: Any) -> None:
        # always new arrays: Gymnasium's check_env refuses observations that share memory
        self._set_up(ruleset, params, source, render_mode, max_steps)
        self.end_on_illegal = end_on_illegal
        self.ended: tuple[bool, bool] | None = None  # (terminated, truncated) once over
        self.observation_space = spaces.Box(0.0, HIGH, self.planes.shape, dtype=np.float32)
        self.action_space = MaskedDiscrete(self.encoding.size)

    def _observe(self) -> np.ndarray:
        return self.planes.observe(self.engine, PLAYER)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._restart(seed, options)
        self.ended = None
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.ended is not None:  # stepping past the end changes nothing and pays nothing
            info = self._info()
            info["ended"] = "the episode is over; call reset() to play again."
            return self._observe(), 0.0, *self.ended, info
        refused = self._play(action)
        info = self._info()
        reward, terminated = 0.0, False
        if refused is not None:
            info["illegal"] = refused
            if self.end_on_illegal:
                reward, terminated = -1.0, True
        outcome = self.engine.outcome
        if outcome is not None:
            reward, terminated = (1.0 if outcome[0] == PLAYER else -1.0), True
            info["outcome"] = {"winner": outcome[0], "reason": outcome[1]}
        truncated = not terminated and self.steps >= self.max_steps
        if terminated or truncated:
            self.ended = (terminated, truncated)
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def render(self) -> Any:
        return self.drawing.render(self.engine)

    def close(self) -> None:
        self.drawing.close()
