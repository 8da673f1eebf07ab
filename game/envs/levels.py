"""Gymnasium environments for the one-player levels: `rulefront/Puzzle-v0` (Keke-style word
puzzles) and `rulefront/Descent-v0` (push blocks down to the exit), made with keyword `level`
(a file, or a shipped level's name; `level_id` picks one level of a Keke JSON set).

Actions are 0..3 (step up, down, left, right) and, in puzzles, 4 (wait); `info["action_mask"]`
marks the legal ones. The observation is the board as planes. Both are game.encoding's. Reward: +1 when the
level is won, -1 when it is lost, 0 otherwise. An illegal action is refused: the world stays
as it was and `info["illegal"]` says why. `max_steps` (default 500) truncates an episode.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from components.match import PLAYER
from game.encoding import HIGH, Planes, encoding_for
from game.encoding.actions import StepEncoding
from game.engine import Engine, Impossible
from game.envs.drawing import RENDER_MODES, Drawing
from game.envs.reset import restart
from game.errors import UserError
from game.levels.maps import GameMap


class LevelEnv(gymnasium.Env):
    """One level of a one-player ruleset as a Gymnasium environment."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}
    RULESET = ""

    def __init__(self, level: str, level_id: str | None = None, render_mode: str | None = None,
                 max_steps: int = 500) -> None:
        from game.levels.loader import load_game_map

        self.game_map: GameMap = load_game_map(level, level_id)
        if self.game_map.ruleset != self.RULESET:
            raise UserError(f"{level}: is a {self.game_map.ruleset} level; "
                            f"rulefront/{self.RULESET.title()}-v0 takes a {self.RULESET} level.")
        self.render_mode = render_mode
        self.drawing = Drawing(render_mode)
        self.max_steps = max_steps
        self.engine = Engine.from_game_map(self.game_map)
        encoding = encoding_for(self.engine)
        assert isinstance(encoding, StepEncoding)
        self.encoding = encoding
        self.planes = Planes(self.engine)
        self.seed = 0
        self.observation_space = spaces.Box(0.0, HIGH, self.planes.shape, dtype=np.float32)
        self.action_space = spaces.Discrete(self.encoding.size)

    def _observe(self) -> np.ndarray:
        return self.planes.observe(self.engine, PLAYER)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.encoding.mask(self.engine)}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        wanted = self.seed if seed is None else seed
        self.engine = restart(self.engine, self.game_map, wanted, wanted == self.seed)
        self.seed = wanted
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        number = int(action)
        if 0 <= number < self.encoding.size:
            result = self.engine.submit(self.encoding.commands[number])
        else:  # not a number of this game (descent has no 4, wait): refused like any illegal one
            result = Impossible(f"action {number} is not one of 0..{self.encoding.size - 1}.")
        info = self._info()
        if isinstance(result, Impossible):
            info["illegal"] = result.reason
        outcome = self.engine.outcome
        reward = 0.0
        if outcome is not None:
            reward = 1.0 if outcome[0] == PLAYER else -1.0
            info["outcome"] = {"winner": outcome[0], "reason": outcome[1]}
        truncated = outcome is None and len(self.engine.history) >= self.max_steps
        return self._observe(), reward, outcome is not None, truncated, info

    def render(self) -> Any:
        return self.drawing.render(self.engine)

    def close(self) -> None:
        self.drawing.close()


class PuzzleEnv(LevelEnv):
    RULESET = "puzzle"


class DescentEnv(LevelEnv):
    RULESET = "descent"
