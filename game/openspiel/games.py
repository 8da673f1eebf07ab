"""Every registered ruleset as an OpenSpiel game: `rulefront_<ruleset>`, one class for all.

A `RulefrontGame` reads the ruleset's edges (game.registry.RulesetSpec): its parameters with
typed defaults, the level they name (`from_params`), the longest game (`max_length`), the
action encoding and observation planes (game.encoding, shared with game.envs) and the number
of players (`capabilities.players`). It holds a `Pool` of up to three Engines on the same
start (one, the match's own, for a seat); its states are paths of action ids from that start
(see cursor.py), so `clone` copies a list of ints and never the World. No ruleset draws random
numbers, so every game is deterministic (no chance nodes): sequential, perfect information,
terminal rewards; two-player games are zero-sum (+1 the winner, -1 the loser, 0 a draw), the
one-player games score +1 won, -1 lost, 0 unfinished when `max_length` runs out.

Copies are games of their own: `pickle`, `copy.deepcopy` and OpenSpiel's
`serialize_game_and_state` rebuild a game from its parameters (a seat's game, from a replay of
its Engine) and a state from its action path, never sharing an Engine with the original.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from game import registry
from game.encoding import Encoding, Kept, Planes, encoding_for
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.openspiel.cursor import Cursor, Pool
from game.registry import DRAW, LOST, RulesetSpec

if TYPE_CHECKING:
    from game.commands import Command

PREFIX = "rulefront_"  # an OpenSpiel game's short name is the prefix and the ruleset's name

# What OpenSpiel's game-string parser (GameParameterFromString) reads as something other than
# a string: a value made of these characters is a number, these words are booleans.
_NUMERIC = frozenset("+-0123456789.")
_BOOLEAN = ("True", "true", "False", "false")
_SPLITTING = ",()="  # split a game string's parameters or nest a game: no value may hold one


def written(ruleset: str, name: str, value: Any) -> Any:
    """A parameter as a game string carries it: a string OpenSpiel would read back as a number
    or a boolean is put in single quotes (code='0.137', heaps='7'); a string holding one of
    , ( ) = is refused, since the game string would split there."""
    if not isinstance(value, str):
        return value
    bad = sorted(set(value) & set(_SPLITTING))
    if bad:
        raise UserError(f"the {ruleset} parameter '{name}' is {value!r}: an OpenSpiel game "
                        f"string cannot carry {' '.join(bad)} in a value (separate a list "
                        f"with spaces).")
    if not value or set(value) <= _NUMERIC or value in _BOOLEAN:
        return f"'{value}'"
    return value


def read(value: Any) -> Any:
    """A parameter as the game string gave it, its quotes (see `written`) taken off."""
    if isinstance(value, str) and len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1]
    return value


def game_type(spec: RulesetSpec) -> pyspiel.GameType:
    """The GameType of a ruleset's games, its parameters' defaults as game strings write them."""
    players = spec.capabilities.players
    return pyspiel.GameType(
        short_name=f"{PREFIX}{spec.name}",
        long_name=f"Rulefront {spec.name}",
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
        parameter_specification={name: written(spec.name, name, value)
                                 for name, value in spec.defaults().items()})


def adaptable(spec: RulesetSpec) -> bool:
    """Whether a ruleset declares the edges an OpenSpiel game needs."""
    return bool(spec.encoding and spec.planes and spec.from_params and spec.max_length)


class RulefrontGame(pyspiel.Game):
    """One ruleset's game on the level its parameters name; `engine` plays from an Engine's
    current position instead (what a seat does: its game string then names only the ruleset,
    and a copy replays that Engine)."""

    def __init__(self, ruleset: str, params: dict[str, Any] | None = None,
                 engine: Engine | None = None) -> None:
        spec = registry.spec(ruleset)
        typed = spec.typed({name: read(value) for name, value in (params or {}).items()})
        shown = {name: written(spec.name, name, value) for name, value in typed.items()}
        fresh: Callable[[], Engine] | None = None
        if engine is None:
            start = spec.build_map(typed, load_game_map)
            engine = Engine.from_game_map(start)
            fresh = functools.partial(Engine.from_game_map, start)  # more Engines, same start
        encoding = encoding_for(engine)
        max_length = int(spec.edge("max_length")(engine, typed))
        players = spec.capabilities.players
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.size, max_chance_outcomes=0,
            num_players=players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if players == 2 else None, max_game_length=max_length)
        super().__init__(game_type(spec), info, shown)
        self.spec = spec
        self.params = typed
        self.players = players
        self.pool = Pool(engine, fresh)
        self.encoding: Encoding = encoding
        self.planes = Planes(engine)
        self.max_length = max_length

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles load the game again from its parameters (or replay the seat's
        Engine up to where the game began): never the same Engines."""
        if self.pool.fresh is None:
            cursor = self.pool.cursors[0]
            return (_on_replay, (cursor.engine, cursor.base))
        return (load, (self.spec.name, dict(self.params)))

    # -- OpenSpiel -----------------------------------------------------------------------

    def new_initial_state(self) -> RulefrontState:
        return RulefrontState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return GridObserver(self.planes)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


def load(ruleset: str, params: dict[str, Any] | None = None) -> RulefrontGame:
    """The OpenSpiel game of a registered ruleset (registered with OpenSpiel first if it is
    new), as `pyspiel.load_game` makes it."""
    register_all()
    game: RulefrontGame = pyspiel.load_game(f"{PREFIX}{ruleset}", params or {})
    return game


def _on_replay(engine: Engine, base: int) -> RulefrontGame:
    """A seat's game on a copy of its Engine, walked back to where that game began."""
    while len(engine.history) > base:
        engine.retract()
    return game_for(engine)


class GridObserver:
    """OpenSpiel's PyObserver for one game: `tensor` (flat) and `dict` (a shaped view) of the
    shared planes (game.encoding.planes), as the observing player's side sees them.

    Both are read-only: `set_from` writes only the cells that changed since its last call
    (game.encoding.planes.Kept), so nothing else may write there; copy them to change them."""

    def __init__(self, planes: Planes) -> None:
        self.planes = planes
        self.kept = Kept(planes.shape)
        self.tensor = self.kept.tensor
        self.dict = {"observation": self.kept.observation}

    def set_from(self, state: Any, player: int) -> None:
        engine = state.engine()
        sides = engine.ruleset.sides
        self.planes.refresh(engine, sides[player % len(sides)], self.kept)

    def string_from(self, state: Any, player: int) -> str:
        return str(state)


class Core:
    """What a state is: the Cursor it last used, its own path (action ids and commands) and
    what it has worked out about its position (dropped on every action, shared by clones).

    A pickled Core keeps only its path (`game` is None once unpickled): OpenSpiel's
    deserialization hands it to a new state of a new game, which replays it there."""

    __slots__ = ("commands", "cursor", "game", "known", "path")

    def __init__(self, game: RulefrontGame | None, path: list[int], commands: list[Command],
                 known: dict[str, Any], cursor: Cursor | None = None) -> None:
        self.game, self.cursor = game, cursor
        self.path, self.commands, self.known = path, commands, known

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        # What OpenSpiel's clone does to a state's attributes: the same game, its own path.
        return Core(self.game, self.path.copy(), self.commands.copy(), self.known, self.cursor)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_path_only, (list(self.path),))


def _path_only(path: list[int]) -> Core:
    return Core(None, path, [], {})


class RulefrontState(pyspiel.State):
    """A position: the path of actions from the game's start (or from the seat's Engine)."""

    def __init__(self, game: RulefrontGame) -> None:
        super().__init__(game)
        self._core = Core(game, [], [], {})

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are the game's copy with this state's actions replayed on it."""
        return (_replayed, (self._ready().game, list(self._core.path)))

    def _ready(self) -> Core:
        core = self._core
        if core.game is None:
            core = self._adopt()
        return core

    def _adopt(self) -> Core:
        """A deserialized state has only its path: replay it on this state's own game."""
        path = self._core.path
        self._core = Core(self.get_game(), [], [], {})
        for action in path:
            self._apply_action(action)
        return self._core

    def engine(self) -> Engine:
        """The shared Engine, walked to this state (read it; act through apply_action)."""
        core = self._ready()
        assert core.game is not None
        core.cursor = core.game.pool.goto(core.path, core.commands, core, core.cursor)
        return core.cursor.engine

    def _legal(self) -> dict[int, Command]:
        core = self._ready()
        legal = core.known.get("legal")
        if legal is None:
            assert core.game is not None
            engine = self.engine()
            legal = {} if self._over() else core.game.encoding.table(
                engine.world, engine.legal_actions())
            core.known["legal"] = legal
        return legal

    def _over(self) -> bool:
        core = self._ready()
        over = core.known.get("over")
        if over is None:
            assert core.game is not None
            over = len(core.path) >= core.game.max_length or self.engine().over
            core.known["over"] = over
        return bool(over)

    def current_player(self) -> int:
        if self._over():
            return int(pyspiel.PlayerId.TERMINAL)
        game = self._ready().game
        assert game is not None
        if game.players == 1:
            return 0
        engine = self.engine()
        return engine.ruleset.sides.index(engine.side)

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
        game = self._ready().game
        assert game is not None
        return game.encoding.text(action)

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        game = self._ready().game
        assert game is not None
        if not self._over():
            return [0.0] * game.players
        engine = self.engine()
        outcome = engine.outcome
        if outcome is None or outcome.winner == DRAW:
            return [0.0] * game.players
        if game.players == 1:
            return [-1.0 if outcome.winner == LOST else 1.0]
        return [1.0 if outcome.winner == side else -1.0 for side in engine.ruleset.sides]

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


def _replayed(game: RulefrontGame, path: list[int]) -> RulefrontState:
    state = game.new_initial_state()
    for action in path:
        state.apply_action(action)
    return state


def register_all() -> None:
    """Tell OpenSpiel about every registered ruleset that declares the edges a game needs
    (`import game.openspiel` calls this; call it again after registering another ruleset)."""
    known = set(pyspiel.registered_names())
    for spec in registry.specs():
        if adaptable(spec) and f"{PREFIX}{spec.name}" not in known:
            pyspiel.register_game(game_type(spec), Creator(spec.name))


class Creator:
    """What OpenSpiel's registry calls to make one ruleset's games: `Creator(name)(params)`.

    The registry is a C++ table destroyed only after the interpreter has shut down, and a
    Python object it frees then aborts the process (there is no thread state left); so a
    creator refers to itself and is never freed, as the classes OpenSpiel's own Python games
    register are not."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.kept = self

    def __call__(self, params: dict[str, Any]) -> RulefrontGame:
        return RulefrontGame(self.ruleset, params)


def game_for(engine: Engine) -> RulefrontGame:
    """An OpenSpiel game that plays on from `engine`'s current position (the seat uses it)."""
    spec = registry.spec(engine.ruleset.name)
    if not adaptable(spec):
        raise UserError(f"OpenSpiel has no game for the {spec.name} ruleset: it declares no "
                        f"action encoding, planes, parameters or game length.")
    return RulefrontGame(spec.name, engine=engine)
