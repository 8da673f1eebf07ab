"""PettingZoo AEC environments for the games of sides: `skirmish_env(map=...)` and
`octal_env(code=..., heaps=...)`.

Agents are the sides ("red", "blue"); the side to play is `agent_selection` (a skirmish side
plays several actions before its EndTurn). Each observation is a dict: `observation` (the
planes of game.encoding, as that side sees them) and `action_mask` (1 for each legal action
number of game.encoding). The winner gets
+1, the loser -1, a draw 0, all at the end. An illegal action is refused: the world stays as
it was, the same side is still to play, and `infos[side]["illegal"]` says why.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from components.match import DRAW
from game.encoding import HIGH, Encoding, Planes, encoding_for
from game.engine import Engine, Impossible
from game.envs.drawing import RENDER_MODES, Drawing
from game.envs.reset import restart
from game.levels.maps import GameMap

MAX_COMMANDS = 100_000  # a safety net: past it the game is truncated


class SidesEnv(AECEnv):
    """One Rulefront game of sides as an AEC environment."""

    metadata = {"render_modes": RENDER_MODES, "name": "rulefront_v0",
                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, game_map: GameMap, render_mode: str | None = None) -> None:
        super().__init__()
        self.game_map = game_map
        self.render_mode = render_mode
        self.drawing = Drawing(render_mode)
        self.engine = Engine.from_game_map(game_map, seed=0)
        self.seed = 0
        self.encoding: Encoding = encoding_for(self.engine)
        self.planes = Planes(self.engine)
        self.possible_agents = list(self.engine.ruleset.sides)
        mask = spaces.Box(0, 1, (self.encoding.size,), dtype=np.int8)
        board = spaces.Box(0.0, HIGH, self.planes.shape, dtype=np.float32)
        self.observation_spaces = {
            side: spaces.Dict({"observation": board, "action_mask": mask})
            for side in self.possible_agents}
        self.action_spaces = {side: spaces.Discrete(self.encoding.size)
                              for side in self.possible_agents}
        self.agents: list[str] = []

    # -- the AEC protocol ------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        wanted = self.seed if seed is None else seed
        self.engine = restart(self.engine, self.game_map, wanted, wanted == self.seed)
        self.seed = wanted
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.engine.side

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent == self.engine.side and not self.engine.over:
            mask = self.encoding.mask(self.engine)
        else:
            mask = np.zeros(self.encoding.size, dtype=np.int8)
        return {"observation": self.planes.observe(self.engine, agent), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        command = self.encoding.legal(self.engine).get(int(action)) if action is not None \
            else None
        if command is None:
            self.infos[agent]["illegal"] = self._refusal(action)
            return
        result = self.engine.submit(command)
        if isinstance(result, Impossible):  # cannot happen for a command from legal()
            self.infos[agent]["illegal"] = result.reason
            return
        outcome = self.engine.outcome
        if outcome is not None:
            for side in self.agents:
                self.terminations[side] = True
                self.rewards[side] = 0.0 if outcome[0] == DRAW else \
                    (1.0 if outcome[0] == side else -1.0)
                self.infos[side]["outcome"] = {"winner": outcome[0], "reason": outcome[1]}
        elif len(self.engine.history) >= MAX_COMMANDS:
            for side in self.agents:
                self.truncations[side] = True
        else:
            self.agent_selection = self.engine.side
        self._accumulate_rewards()

    def _refusal(self, action: int | None) -> str:
        """Why an action number is refused, naming its command when it has one."""
        try:
            if action is not None:
                return f"action {action} ({self.encoding.text(int(action))}) is not legal now."
        except (TypeError, ValueError):
            pass
        return f"action {action} is not legal now."

    def render(self) -> Any:
        return self.drawing.render(self.engine)

    def close(self) -> None:
        self.drawing.close()


class SkirmishEnv(SidesEnv):
    metadata = {**SidesEnv.metadata, "name": "rulefront_skirmish_v0"}


class OctalEnv(SidesEnv):
    metadata = {**SidesEnv.metadata, "name": "rulefront_octal_v0"}

    def __init__(self, game_map: GameMap, render_mode: str | None = None) -> None:
        super().__init__(game_map, render_mode)
        self.start_heaps = list(self.engine.ruleset.report(self.engine.world)["heaps"])


def skirmish_env(map: str = "duel", render_mode: str | None = None) -> SkirmishEnv:
    """A skirmish map (a path or a shipped map's name) as a PettingZoo AEC environment."""
    from game.levels.loader import load_game_map

    game_map = load_game_map(map)
    if game_map.ruleset != "skirmish":
        from game.errors import UserError

        raise UserError(f"{map}: is a {game_map.ruleset} map; skirmish_env takes a skirmish map.")
    return SkirmishEnv(game_map, render_mode)


def octal_env(code: str = "0.137", heaps: str | list[int] = "5,7", misere: bool = False,
              render_mode: str | None = None) -> OctalEnv:
    """An octal take-away game (e.g. code "0.137", heaps "5,7") as a PettingZoo AEC env."""
    from game.rulesets.octal.ruleset import parse_heaps, spec_map

    sizes = parse_heaps(heaps) if isinstance(heaps, str) else list(heaps)
    return OctalEnv(spec_map(code, sizes, misere), render_mode)
