"""The ruleset contract and the registry of rulesets.

Every ruleset implements `Ruleset` in full; puzzle-like rulesets also implement `SearchHooks`,
which the solver needs. Each ruleset package under game/rulesets/ registers a `RulesetSpec`
when imported: its name, the class to build (imported only when first used), the level files
it reads, and the view and controller that draw and play it in the window. The Engine, the
loader, the solver and the front ends ask this module; nothing else names a ruleset.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from components.match import DRAW, LOST, PLAYER
from game import DATA
from game.data import load_yaml
from game.errors import UserError

if TYPE_CHECKING:
    from game.commands import Command
    from game.events import Event
    from game.levels.maps import GameMap
    from game.world import World

__all__ = ["DRAW", "LOST", "PLAYER", "Capabilities", "Outcome", "Param", "Ruleset", "RulesetSpec",
           "SearchHooks"]


class Outcome(NamedTuple):
    """How a game ended: the winning side (or DRAW, or LOST) and why, in words."""

    winner: str
    reason: str


@runtime_checkable
class Ruleset(Protocol):
    """What every ruleset answers. The Engine, the CLI, the window and the text client call
    nothing else, so a new ruleset that implements these plays everywhere."""

    name: str
    sides: tuple[str, ...]

    def setup(self, world: World, game_map: GameMap) -> None:
        """Spawn the level's entities and the match state into an empty world."""
        ...

    def side_to_play(self, world: World) -> str:
        """The side whose command comes next."""
        ...

    def legal_actions(self, world: World) -> list[Command]:
        """Every command the side to play may issue now, in a fixed order."""
        ...

    def why_illegal(self, world: World, command: Command) -> str | None:
        """None when `command` may be applied now, else a sentence a player can read."""
        ...

    def perform(self, world: World, command: Command) -> list[Event]:
        """Run a legal command's systems, then the state-based checks."""
        ...

    def outcome(self, world: World) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        ...

    def state_key(self, world: World) -> Hashable:
        """A key equal for equal positions (what searches and repetition checks compare)."""
        ...

    def text_board(self, world: World) -> str:
        """The board as text, for the terminal, `map check`, `--show` and playthroughs."""
        ...

    def status_lines(self, world: World) -> list[str]:
        """Lines under the text board: a legend, each side's units, the rules in force."""
        ...

    def describe(self, world: World) -> str:
        """A one-line status for views and logs."""
        ...

    def describe_command(self, world: World, command: Command) -> str:
        """A legal command in words, as a menu of actions lists it."""
        ...

    def report(self, world: World) -> dict[str, Any]:
        """The position as plain JSON data, for `--json` output."""
        ...


@runtime_checkable
class SearchHooks(Protocol):
    """What a solver needs beyond `Ruleset` (puzzle-like, one-player rulesets)."""

    actions: tuple[Command, ...]  # the commands a search tries in every state

    def verdict(self, world: World) -> int:
        """The goal test: 1 won, -1 lost (a dead end), 0 still playing."""
        ...

    def action_cost(self, world: World) -> int:
        """What the command just applied cost."""
        ...

    def heuristic(self, world: World) -> float:
        """A guess at the cost still to pay, to steer best-first searches."""
        ...

    def atoms(self, world: World) -> list[Any]:
        """The facts a state is made of, for novelty search."""
        ...

    def regime(self, world: World) -> Any:
        """What gives the facts their meaning (the puzzle's rules in force): width-2 novelty
        counts a fact as new when it was never seen under the same regime."""
        ...


@dataclass(frozen=True)
class Capabilities:
    """What a ruleset's games are like, so that AIs and adapters can tell before a game starts
    whether they can play it (an AI names what it needs in its `NEEDS`: see RulesetSpec.has)."""

    players: int = 2  # sides taking turns (1: one player solves a level)
    multi_action_turns: bool = False  # a side plays several actions before its turn ends
    search_hooks: bool = False  # the ruleset implements SearchHooks (the level solvers)
    impartial: bool = False  # both sides have the same moves: perfect play by Grundy values


@dataclass(frozen=True)
class Param:
    """One parameter of the ruleset's games in the adapters (OpenSpiel game strings,
    environment factories): its name, its typed default, and a line of help."""

    name: str
    default: bool | int | float | str
    help: str = ""


@dataclass(frozen=True)
class RulesetSpec:
    """How to find, build, load, show and adapt one ruleset; "module:name" strings are imported
    only when used, so registering costs nothing. Every package outside game/rulesets/ asks the
    spec (or the ruleset it builds) and names no ruleset."""

    name: str
    factory: str  # "module:Class" implementing Ruleset
    summary: str  # one line for listings
    readers: dict[str, str] = field(default_factory=dict)  # level file suffix -> "module:func"
    level_sets: tuple[str, ...] = ()  # suffixes of files holding several levels (pick with --level)
    png_reader: str = ""  # "module:func" for a PNG whose sidecar names this ruleset
    prefix: str = ""  # described positions, e.g. "octal:0.137:7,9,12"
    prefix_reader: str = ""  # "module:func" (text) -> GameMap
    view: str = ""  # "module:Class" drawing it in the window (default: the grid view)
    controller: str = ""  # "module:Class" taking its input in the window
    examples: tuple[str, ...] = ()  # levels the conformance suite plays (shipped or described)
    capabilities: Capabilities = Capabilities()
    # -- the edges: what the adapters, AIs and text client read instead of naming a ruleset --
    encoding: str = ""  # "module:func" (engine) -> game.encoding.Encoding (fixed action ints)
    planes: str = ""  # "module:func" () -> tuple of observation plane names
    sidecar: str = ""  # "module:Class": the msgspec Struct of its sidecar's keys (default:
    #                    game.schemas.Sidecar, the keys every ruleset shares)
    text_cell: str = ""  # "module:func" (world, x, y) -> (text, role, height) or None for
    #                      the grid's drawing (game/text/board.py)
    input_mode: str = "grid"  # the keyboard's mode in the terminal: grid, steps or heaps
    params: tuple[Param, ...] = ()  # adapter parameters, typed defaults
    from_params: str = ""  # "module:func" (params, load) -> GameMap; load(name, index) reads
    #                        a level file or shipped name (game.levels.loader.load_game_map)
    max_length: str = ""  # "module:func" (engine, params) -> most actions in one game
    evaluator: str = ""  # "module:func" () -> systems.ai.base.Evaluator, called as
    #                      (engine, side, ply) -> the side's value (the searches' leaves)
    threat: str = ""  # "module:func" (engine, unit) -> (cells it may move to, cells it may
    #                   strike) on its next turn, or None for a thing that threatens nothing
    #                   (the clients' threat overlay)

    def edge(self, field_name: str) -> Any:
        """The object a "module:name" edge names, or a UserError saying the ruleset has none."""
        target = getattr(self, field_name)
        if not target:
            raise UserError(f"the {self.name} ruleset has no {field_name.replace('_', ' ')}.")
        return load_object(target)

    def has(self, need: str) -> bool:
        """Whether the ruleset offers what an AI needs: a true capability ("impartial",
        "multi_action_turns", "search_hooks", "grid"), "sides" (two or more players), or an
        edge it names ("evaluator", "encoding"...)."""
        if need == "sides":
            return self.capabilities.players >= 2
        if hasattr(self.capabilities, need):
            return bool(getattr(self.capabilities, need))
        return bool(getattr(self, need, ""))

    def defaults(self) -> dict[str, Any]:
        """The adapter parameters' defaults by name."""
        return {param.name: param.default for param in self.params}

    def typed(self, given: dict[str, Any] | None) -> dict[str, Any]:
        """`given` over the defaults, each value of its default's type (an int given for a
        float, or a number given for a string, as a game string parses it, is converted); a
        UserError names an unknown parameter or a value of the wrong type."""
        merged = self.defaults()
        for name, value in (given or {}).items():
            if name not in merged:
                known = ", ".join(merged) or "none"
                raise UserError(f"the {self.name} ruleset has no parameter '{name}'; "
                                f"known: {known}.")
            merged[name] = _typed(self.name, name, value, type(merged[name]))
        return merged

    def build_map(self, params: dict[str, Any] | None, load: Any) -> GameMap:
        """The level the adapter parameters name (their `from_params` edge), checked to be one
        of this ruleset's; `load(name, index)` reads a level file or a shipped name."""
        game_map: GameMap = self.edge("from_params")(self.typed(params), load)
        if game_map.ruleset != self.name:
            raise UserError(f"{game_map.path}: is a {game_map.ruleset} level, not a "
                            f"{self.name} one.")
        return game_map


def _typed(ruleset: str, name: str, value: Any, kind: type) -> Any:
    """`value` as a `kind` (bool, int, float or str), or a UserError naming the parameter."""
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return value
    if kind is str and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if kind is bool and isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if kind in (int, float) and isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    raise UserError(f"the {ruleset} parameter '{name}' must be a {kind.__name__}, "
                    f"not {value!r}.")


_SPECS: dict[str, RulesetSpec] = {}
_discovered = False


def register(spec: RulesetSpec) -> None:
    """Make a ruleset known (each package under game/rulesets/ calls this when imported)."""
    _SPECS[spec.name] = spec


def specs() -> list[RulesetSpec]:
    """Every registered ruleset, by name."""
    _discover()
    return [_SPECS[name] for name in sorted(_SPECS)]


def names() -> list[str]:
    return [spec.name for spec in specs()]


def spec(name: str) -> RulesetSpec:
    """The ruleset registered as `name`, or a UserError listing the known ones."""
    _discover()
    found = _SPECS.get(name)
    if found is None:
        raise UserError(f"unknown ruleset '{name}'; known rulesets: {', '.join(names())}.")
    return found


def sidecar_schemas() -> dict[str, type]:
    """Each registered ruleset's sidecar schema by name (what the loader checks a map's sidecar
    against, once the sidecar says which ruleset plays it)."""
    from game.schemas import Sidecar

    return {spec.name: load_object(spec.sidecar) if spec.sidecar else Sidecar
            for spec in specs()}


def load_object(target: str) -> Any:
    """The object a "module:name" string names."""
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _discover() -> None:
    """Import every package under game/rulesets/ once; each registers itself."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    found = importlib.util.find_spec("game.rulesets")
    assert found is not None and found.submodule_search_locations is not None
    for info in pkgutil.iter_modules(found.submodule_search_locations):
        if info.ispkg:
            importlib.import_module(f"game.rulesets.{info.name}")


def ruleset_config(name: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ruleset's YAML with a map sidecar's overrides merged in (mappings merge deeply)."""
    spec(name)
    path = DATA / "rulesets" / f"{name}.yaml"
    raw = load_yaml(path) if path.exists() else {}
    if not isinstance(raw, dict):
        raise UserError(f"{path}: must be a YAML mapping.")
    return _merge(raw, overrides or {})


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def make_ruleset(name: str, overrides: dict[str, Any] | None = None) -> Ruleset:
    """A ruleset built from its data file and a map's overrides."""
    factory = load_object(spec(name).factory)
    ruleset: Ruleset = factory(ruleset_config(name, overrides))
    return ruleset
