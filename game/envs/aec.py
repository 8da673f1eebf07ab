"""The PettingZoo AEC environment of any ruleset of two or more sides (`raw_env`; `env` adds
PettingZoo's standard wrappers: game.envs.rulefront_v0).

Agents are the sides (e.g. "red", "blue"); the side to play is `agent_selection` (a side may
play several actions before its turn ends). Each observation is a dict: `observation` (the
planes of game.encoding, as that side sees them) and `action_mask` (1 for each legal action
number of game.encoding); `state()` is the planes as the first side sees them (every game is
perfect-information). The winner gets +1, the loser -1, a draw 0, all at the end.

An illegal action is refused: the world stays as it was, the same side is still to play, and
`infos[side]["illegal"]` says why (`env(..., end_on_illegal=True)` ends the episode instead,
through PettingZoo's TerminateIllegalWrapper). Every step counts toward `max_steps`, a refused
one too; past it the episode is truncated (by default the ruleset's `max_length` edge: the most
actions one game can take).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from components.match import DRAW
from game.encoding import HIGH
from game.envs.drawing import RENDER_MODES
from game.envs.game import RulefrontGame
from game.envs.spaces import MaskedDiscrete


class SidesEnv(RulefrontGame, AECEnv):
    """One Rulefront game of sides as an AEC environment."""

    metadata = {"render_modes": RENDER_MODES, "name": "rulefront_v0",
                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, ruleset: str, render_mode: str | None = None,
                 max_steps: int | None = None, source: str | None = None,
                 copy: bool = True, **params: Any) -> None:
        AECEnv.__init__(self)
        self._set_up(ruleset, params, source, render_mode, max_steps, copy)
        self.metadata = {**self.metadata, "name": f"rulefront_{self.ruleset_spec.name}_v0"}
        self.possible_agents = list(self.engine.ruleset.sides)
        self._declare_spaces()
        self.agents: list[str] = []

    def _declare_spaces(self) -> None:
        mask = spaces.Box(0, 1, (self.encoding.size,), dtype=np.int8)
        board = spaces.Box(0.0, HIGH, self.planes.shape, dtype=np.float32)
        self.state_space = board
        self.observation_spaces = {
            side: spaces.Dict({"observation": board, "action_mask": mask})
            for side in self.possible_agents}
        self.action_spaces = {side: MaskedDiscrete(self.encoding.size)
                              for side in self.possible_agents}

    # -- the AEC protocol ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The game at its start; `options` may name another level of the same shape
        (ruleset parameters, or `source`), e.g. {"heaps": "4 6"}, for curricula."""
        self._restart(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.engine.side
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        engine = self.engine
        playing = agent == engine.side and not engine.over
        mask = self._mask() if playing else np.zeros(self.encoding.size, dtype=np.int8)
        return {"observation": self._observation(agent, playing), "action_mask": mask}

    def state(self) -> np.ndarray:
        return self.planes.observe(self.engine, self.possible_agents[0])

    def action_masks(self) -> np.ndarray:
        """True for each action the side to play may take now (MaskablePPO's question)."""
        if self.agent_selection not in self.agents or self.engine.over:
            return np.zeros(self.encoding.size, dtype=bool)
        return super().action_masks()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        agents = self.agents
        self.rewards = dict.fromkeys(agents, 0.0)
        self.infos = {a: {} for a in agents}
        refused = self._play(action)
        if refused is not None:
            self.infos[agent]["illegal"] = refused
        engine = self.engine
        outcome = engine.outcome
        if outcome is not None:
            for side in agents:
                self.terminations[side] = True
                self.rewards[side] = 0.0 if outcome[0] == DRAW else \
                    (1.0 if outcome[0] == side else -1.0)
                self.infos[side]["outcome"] = {"winner": outcome[0], "reason": outcome[1]}
            self._accumulate_rewards()
        elif self.steps >= self.max_steps:
            for side in agents:
                self.truncations[side] = True
        else:
            self.agent_selection = engine.side
        # a step that ends nothing pays 0 to every side: nothing to add to the sums
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        return self.drawing.render(self.engine)

    def close(self) -> None:
        self.drawing.close()
