"""The four rulesets as OpenSpiel games: rulefront_skirmish, _puzzle, _descent and _octal.

A `RulefrontGame` holds a `Pool` of up to three Engines on the same start (one, the match's
own, for a seat) and the ruleset's action encoding and planes (game.encoding, shared with
game.envs); its states are paths of action ids from that
start (see cursor.py), so `clone` copies a list of ints and never the World. No ruleset draws random numbers, so every game is
deterministic (no chance nodes): sequential, perfect information, terminal rewards;
two-player games are zero-sum (+1 the winner, -1 the loser, 0 a draw), the one-player puzzles
score +1 won, -1 lost, 0 unfinished when `max_moves` runs out.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from components import Moves, Team, UnitClass
from game.data import SIDES
from game.encoding import Encoding, Planes, encoding_for
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.openspiel.cursor import Cursor, Pool
from game.registry import DRAW, LOST
from game.rulesets.octal.ruleset import heap_sizes, parse_heaps, spec_map

if TYPE_CHECKING:
    from game.commands import Command

PARAMS: dict[str, dict[str, Any]] = {
    "skirmish": {"map": "duel", "turn_limit": 0},
    "puzzle": {"level": "first-steps", "index": -1, "max_moves": 200},
    "descent": {"level": "maps/descent/level-01.txt", "max_moves": 200},
    "octal": {"code": "0.137", "heaps": "5,7", "misere": False},
}

# Small parameter sets per game: what the tests and `rulefront bench openspiel` run
# random_sim_test on (the defaults' duel takes minutes of random games).
SMALL: dict[str, dict[str, Any]] = {
    "rulefront_skirmish": {"map": "outpost", "turn_limit": 4},
    "rulefront_puzzle": {"level": "first-steps", "max_moves": 60},
    "rulefront_descent": {"level": "maps/descent/level-01.txt", "max_moves": 60},
    "rulefront_octal": {"code": "0.137", "heaps": "3,4,5"},
}


def game_type(ruleset: str, players: int) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=f"rulefront_{ruleset}",
        long_name=f"Rulefront {ruleset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if players == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMS[ruleset])


class RulefrontGame(pyspiel.Game):
    """One ruleset on one level as an OpenSpiel game; `engine` plays from an Engine's current
    position instead of loading the level named by the parameters (what a seat does)."""

    ruleset = ""
    players = 2

    def __init__(self, params: dict[str, Any] | None = None,
                 engine: Engine | None = None) -> None:
        params = {**PARAMS[self.ruleset], **(params or {})}
        fresh: Callable[[], Engine] | None = None
        if engine is None:
            engine = self.build(params)
            start = engine.map
            assert start is not None
            fresh = functools.partial(Engine.from_game_map, start)  # more Engines, same start
        encoding = encoding_for(engine)
        max_length = self.max_length(engine, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.size, max_chance_outcomes=0,
            num_players=self.players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if self.players == 2 else None, max_game_length=max_length)
        super().__init__(game_type(self.ruleset, self.players), info, params)
        self.pool = Pool(engine, fresh)
        self.encoding: Encoding = encoding
        self.planes = Planes(engine)
        self.max_moves = max_length

    # -- per ruleset ---------------------------------------------------------------------

    def build(self, params: dict[str, Any]) -> Engine:
        raise NotImplementedError

    def max_length(self, engine: Engine, params: dict[str, Any]) -> int:
        raise NotImplementedError

    # -- OpenSpiel -----------------------------------------------------------------------

    def new_initial_state(self) -> RulefrontState:
        return RulefrontState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return GridObserver(self.planes)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class GridObserver:
    """OpenSpiel's PyObserver for one game: `tensor` (flat) and `dict` (a shaped view) of the
    shared planes (game.encoding.planes), as the observing player's side sees them."""

    def __init__(self, planes: Planes) -> None:
        self.planes = planes
        self.tensor = np.zeros(int(np.prod(planes.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(planes.shape)}

    def set_from(self, state: Any, player: int) -> None:
        engine = state.engine()
        sides = engine.ruleset.sides
        self.planes.fill(engine, sides[player % len(sides)], self.dict["observation"])

    def string_from(self, state: Any, player: int) -> str:
        return str(state)


class Core:
    """What a state is: the Cursor it last used, its own path (action ids and commands) and
    what it has worked out about its position (dropped on every action, shared by clones)."""

    __slots__ = ("commands", "cursor", "game", "known", "path")

    def __init__(self, game: RulefrontGame, path: list[int], commands: list[Command],
                 known: dict[str, Any], cursor: Cursor | None = None) -> None:
        self.game, self.cursor = game, cursor
        self.path, self.commands, self.known = path, commands, known

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        return Core(self.game, self.path.copy(), self.commands.copy(), self.known, self.cursor)


class RulefrontState(pyspiel.State):
    """A position: the path of actions from the game's start (or from the seat's Engine)."""

    def __init__(self, game: RulefrontGame) -> None:
        super().__init__(game)
        self._core = Core(game, [], [], {})

    def engine(self) -> Engine:
        """The shared Engine, walked to this state (read it; act through apply_action)."""
        core = self._core
        core.cursor = core.game.pool.goto(core.path, core.commands, core, core.cursor)
        return core.cursor.engine

    def _legal(self) -> dict[int, Command]:
        known = self._core.known
        legal = known.get("legal")
        if legal is None:
            engine = self.engine()
            legal = {} if self._over() else \
                self._core.game.encoding.table(engine.world, engine.legal_actions())
            known["legal"] = legal
        return legal

    def _over(self) -> bool:
        known = self._core.known
        over = known.get("over")
        if over is None:
            core = self._core
            over = len(core.path) >= core.game.max_moves or self.engine().over
            known["over"] = over
        return bool(over)

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._core.game.players == 1:
            return 0
        return SIDES.index(self.engine().side)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal())

    def _apply_action(self, action: int) -> None:
        command = self._legal().get(action)
        if command is None:
            raise ValueError(f"action {action} is not legal here")
        core = self._core
        engine = self.engine()
        engine.apply(command)
        assert core.cursor is not None
        core.cursor.path.append(action)
        core.path.append(action)
        core.commands.append(command)
        core.known = {}

    def _action_to_string(self, player: int, action: int) -> str:
        return self._core.game.encoding.text(action)

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        players = self._core.game.players
        if not self._over():
            return [0.0] * players
        outcome = self.engine().outcome
        if outcome is None or outcome.winner == DRAW:
            return [0.0] * players
        if players == 1:
            return [-1.0 if outcome.winner == LOST else 1.0]
        return [1.0 if outcome.winner == side else -1.0 for side in SIDES]

    def rewards(self) -> list[float]:
        return self.returns()

    def command(self, action: int) -> Command:
        """The Engine command a legal action id stands for."""
        command = self._legal().get(action)
        if command is None:
            raise ValueError(f"action {action} is not legal here")
        return command

    def __str__(self) -> str:
        engine = self.engine()
        board = engine.ruleset.text_board(engine.world)
        return f"{board}\n{engine.ruleset.describe(engine.world)}"


# -- the four games ------------------------------------------------------------------------


def _hero_budget(engine: Engine) -> int:
    """Most actions one side can take in a turn: each hero walks its points and attacks once,
    then the turn ends."""
    world = engine.world
    per_side: dict[str, int] = {}
    for _entity, (moves, team, _cls) in world.query(Moves, Team, UnitClass):
        per_side[team.side] = per_side.get(team.side, 0) + moves.max_mp + 1
    return max(per_side.values(), default=0) + 1


class SkirmishGame(RulefrontGame):
    ruleset = "skirmish"

    def build(self, params: dict[str, Any]) -> Engine:
        game_map = load_game_map(str(params["map"]))
        if game_map.ruleset != "skirmish":
            raise UserError(f"{params['map']}: is a {game_map.ruleset} level, not a skirmish map.")
        limit = int(params["turn_limit"])
        if limit > 0:
            game_map = dataclasses.replace(game_map,
                                           sidecar={**game_map.sidecar, "turn_limit": limit})
        return Engine.from_game_map(game_map)

    def max_length(self, engine: Engine, params: dict[str, Any]) -> int:
        limit = int(engine.ruleset.cfg.turn_limit)  # type: ignore[attr-defined]
        return 2 * limit * _hero_budget(engine)


class PuzzleGame(RulefrontGame):
    ruleset = "puzzle"
    players = 1

    def build(self, params: dict[str, Any]) -> Engine:
        index = int(params["index"])
        game_map = load_game_map(str(params["level"]), index if index >= 0 else None)
        if game_map.ruleset != "puzzle":
            raise UserError(f"{params['level']}: is a {game_map.ruleset} level, not a puzzle.")
        return Engine.from_game_map(game_map)

    def max_length(self, engine: Engine, params: dict[str, Any]) -> int:
        return int(params.get("max_moves", 200))


class DescentGame(PuzzleGame):
    ruleset = "descent"

    def build(self, params: dict[str, Any]) -> Engine:
        game_map = load_game_map(str(params["level"]))
        if game_map.ruleset != "descent":
            raise UserError(f"{params['level']}: is a {game_map.ruleset} level, not descent.")
        return Engine.from_game_map(game_map)


class OctalGame(RulefrontGame):
    ruleset = "octal"

    def build(self, params: dict[str, Any]) -> Engine:
        heaps = parse_heaps(str(params["heaps"]))
        return Engine.from_game_map(spec_map(str(params["code"]), heaps,
                                             bool(params["misere"])))

    def max_length(self, engine: Engine, params: dict[str, Any]) -> int:
        return max(1, sum(heap_sizes(engine.world)))


GAMES: dict[str, type[RulefrontGame]] = {
    game.ruleset: game for game in (SkirmishGame, PuzzleGame, DescentGame, OctalGame)}


def register_all() -> None:
    """Tell OpenSpiel about the four games (once; `import game.openspiel` calls this)."""
    known = set(pyspiel.registered_names())
    for ruleset, cls in GAMES.items():
        if f"rulefront_{ruleset}" not in known:
            pyspiel.register_game(game_type(ruleset, cls.players), cls)


def game_for(engine: Engine) -> RulefrontGame:
    """An OpenSpiel game that plays on from `engine`'s current position (the seat uses it)."""
    cls = GAMES.get(engine.ruleset.name)
    if cls is None:
        raise UserError(f"OpenSpiel has no game for the {engine.ruleset.name} ruleset.")
    return cls(engine=engine)
