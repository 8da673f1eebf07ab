"""What every environment shares, whatever its library: one game of a registered ruleset,
built from its spec's parameters, with the step budget, the refusals and the copies.

The ruleset is a name looked up in the registry; the level comes from its `params` and
`from_params` edges (or from `source`, any level file, shipped name or described position);
action numbers and planes are its `encoding` and `planes` edges (game.encoding).
"""

from __future__ import annotations

import copy
import numbers
from typing import Any

import numpy as np

from game import registry
from game.encoding import Encoding, Kept, Planes, encoding_for
from game.engine import Engine
from game.envs.drawing import Drawing
from game.envs.reset import restart
from game.errors import UserError
from game.levels.maps import GameMap

OPTIONS = ("source",)  # reset options beside the ruleset's parameters


def action_number(action: Any) -> int:
    """`action` as an int (a Python or NumPy integer, or a one-item integer array); anything
    else, 2.7 or "2" or True, is a TypeError: an action number is never rounded or parsed."""
    if type(action) is int or type(action) is np.int64:  # what samplers hand back
        return int(action)
    if isinstance(action, np.ndarray) and action.size == 1 \
            and np.issubdtype(action.dtype, np.integer):
        return int(action.reshape(()))
    if isinstance(action, numbers.Integral) and not isinstance(action, bool | np.bool_):
        return int(action)
    raise TypeError(f"action {action!r} is not an integer: an action is a number of "
                    f"game.encoding (an int of the action space).")


def text_params(spec: registry.RulesetSpec, given: dict[str, Any]) -> dict[str, Any]:
    """`given`, with a list or tuple for a text parameter written as its items separated by
    spaces (heaps=[3, 4, 5] is heaps="3 4 5"); spec.typed checks the rest."""
    kinds = {param.name: type(param.default) for param in spec.params}
    return {name: " ".join(map(str, value))
            if kinds.get(name) is str and isinstance(value, list | tuple) else value
            for name, value in given.items()}


class RulefrontGame:
    """The game behind an environment: `ruleset_spec`, `params`, `game_map`, `engine`, `encoding`,
    `planes`, and `steps` (every step counts, a refused one too) against `max_steps`.

    `copy` (True by default) makes every observation a new array. With copy=False (games of
    sides: PettingZoo's api_test allows it, Gymnasium's check_env does not) an observation is
    a read-only view of an array the environment keeps per side and brings up to date in
    place, writing only the cells that changed (Planes.refresh): no 205 KB copy a step on
    duel, but the array a side was handed changes with the game, so a learner that keeps
    observations copies them (as Gymnasium's vector environments do with their `copy`)."""

    ruleset_spec: registry.RulesetSpec
    params: dict[str, Any]
    source: str | None
    game_map: GameMap
    engine: Engine
    encoding: Encoding
    planes: Planes
    drawing: Drawing
    render_mode: str | None
    max_steps: int
    steps: int
    seed: int

    def _set_up(self, ruleset: str, params: dict[str, Any], source: str | None,
                render_mode: str | None, max_steps: int | None, copy: bool = True) -> None:
        self.ruleset_spec = registry.spec(ruleset)
        self.copy = bool(copy)
        self._kept: dict[str, Kept] = {}  # copy=False: each side's observation array
        self.render_mode = render_mode
        self.drawing = Drawing(render_mode)
        self._chosen_steps = max_steps
        self.seed = 0
        self._load(params, source)

    def _load(self, params: dict[str, Any], source: str | None,
              fit: tuple[tuple[int, ...], int] | None = None) -> None:
        """Build the level `params` (or `source`) name, and its engine at seed `self.seed`;
        with `fit`, refuse (changing nothing) a level whose planes' shape or action count
        differ from it."""
        from game.levels.loader import load_game_map

        typed = self.ruleset_spec.typed(text_params(self.ruleset_spec, params))
        if source is not None:
            game_map = load_game_map(source)
            if game_map.ruleset != self.ruleset_spec.name:
                raise UserError(f"{source}: is a {game_map.ruleset} level, not a "
                                f"{self.ruleset_spec.name} one.")
        else:
            game_map = self.ruleset_spec.build_map(typed, load_game_map)
        engine = Engine.from_game_map(game_map, seed=self.seed)
        encoding, planes = encoding_for(engine), Planes(engine)
        if fit is not None and (planes.shape, encoding.size) != fit:
            engine.world.close()
            raise UserError(f"{game_map.path}: its observation is {planes.shape} with "
                            f"{encoding.size} actions, but this environment's is {fit[0]} "
                            f"with {fit[1]}: make a new environment for it.")
        if fit is not None:
            self.engine.world.close()
        self.params, self.source, self.game_map, self.engine = typed, source, game_map, engine
        self.encoding, self.planes = encoding, planes
        chosen = self._chosen_steps
        self.max_steps = int(chosen) if chosen is not None else \
            int(self.ruleset_spec.edge("max_length")(engine, typed))
        self.steps = 0

    def _restart(self, seed: int | None, options: dict[str, Any] | None) -> None:
        """The game at its start: on the level `options` name (ruleset parameters over the
        current ones, or `source`), which must fit the spaces this environment declared;
        other keys are ignored."""
        wanted = self.seed if seed is None else seed
        # keys that name neither a parameter nor `source` are other tools' (api_test sends some)
        chosen = {k: v for k, v in (options or {}).items() if k in self.params or k in OPTIONS}
        if chosen:
            params = {**self.params, **{k: v for k, v in chosen.items() if k != "source"}}
            kept = self.seed
            self.seed = wanted
            try:
                self._load(params, chosen.get("source"),
                           fit=(self.planes.shape, self.encoding.size))
            except UserError:
                self.seed = kept
                raise
        else:
            self.engine = restart(self.engine, self.game_map, wanted, wanted == self.seed)
            self.seed = wanted
        self.steps = 0

    def _observation(self, me: str, playing: bool | None = None) -> np.ndarray:
        """The planes as side `me` sees them: a new array, or with copy=False the side's kept
        array brought up to date (read-only)."""
        if self.copy:
            return self.planes.observe(self.engine, me, playing)
        kept = self._kept.get(me)
        if kept is None:
            kept = self._kept[me] = Kept(self.planes.shape)
        self.planes.refresh(self.engine, me, kept, playing)
        return kept.observation

    def action_masks(self) -> np.ndarray:
        """True for each action number legal now (what MaskablePPO asks for)."""
        return self._mask().astype(bool)

    def _mask(self) -> np.ndarray:
        """int8, 1 for each action legal now: a new array, from the numbers of this table of
        legal commands (the encoding keeps the table while the world stays as it is)."""
        legal = self.encoding.legal(self.engine)
        made = self.__dict__.get("_masked")
        if made is None or made[0] is not legal:
            # beside the numbers, a mask of 0s to copy: a copy costs less than np.zeros
            made = self._masked = (legal, np.fromiter(legal, np.intp, len(legal)),
                                   made[2] if made is not None else
                                   np.zeros(self.encoding.size, dtype=np.int8))
        mask = made[2].copy()
        mask[made[1]] = 1
        return mask

    def _refusal(self, number: int) -> str:
        """Why an action number is refused, naming its command when it has one."""
        if 0 <= number < self.encoding.size:
            return f"action {number} ({self.encoding.text(number)}) is not legal now."
        return f"action {number} is not one of 0..{self.encoding.size - 1}."

    def _play(self, action: Any) -> str | None:
        """Count a step and submit the command `action` stands for: None when it was played,
        else why it was refused (the world stays as it was)."""
        number = action_number(action)
        self.steps += 1
        command = self.encoding.legal(self.engine).get(number)
        if command is None:
            return self._refusal(number)
        self.engine.apply(command)
        return None

    # -- copies: the engine replays itself; a window or a cache is not copied -------------

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        encoding = copy.copy(self.encoding)  # numbered from the start: keep it, less its cache
        encoding.__dict__.pop("_cached", None)
        state["encoding"] = encoding
        state.pop("_masked", None)
        state["_kept"] = {}  # arrays of this game's boards: a copy keeps its own
        return state
