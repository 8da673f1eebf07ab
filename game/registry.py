"""Rulesets: which commands exist, which systems run in what order, and how a game ends.

Each ruleset is data (`data/rulesets/NAME.yaml`, which a map's sidecar may override) read by a
small class that builds the world from a map and answers the Engine's questions. The Engine
itself knows nothing of heroes or words.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from components import Turn
from game import DATA
from game.data import load_yaml
from game.errors import UserError

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine
    from game.events import Event
    from game.levels.maps import GameMap
    from game.world import World

# Ruleset name -> "module:Class", imported when first used.
RULESETS: dict[str, str] = {
    "skirmish": "game.rulesets.skirmish.ruleset:Skirmish",
    "puzzle": "game.rulesets.puzzle.ruleset:Puzzle",
    "descent": "game.rulesets.descent.ruleset:Descent",
    "octal": "game.rulesets.octal.ruleset:Octal",
}


class Ruleset(ABC):
    """What every ruleset answers. Subclasses fill these in; the Engine calls nothing else."""

    name = ""
    sides: tuple[str, ...] = ("red", "blue")

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config

    @abstractmethod
    def setup(self, world: World, game_map: GameMap) -> None:
        """Spawn the map's entities and the match state into an empty world."""

    @abstractmethod
    def side_to_play(self, world: World) -> str:
        """The side whose command comes next."""

    @abstractmethod
    def legal_actions(self, engine: Engine) -> list[Command]:
        """Every command the side to play may issue now, in a fixed order."""

    @abstractmethod
    def why_illegal(self, engine: Engine, command: Command) -> str | None:
        """None when `command` may be applied now, else a sentence a player can read."""

    @abstractmethod
    def perform(self, engine: Engine, command: Command) -> list[Event]:
        """Run the command's systems, then the state-based checks."""

    @abstractmethod
    def outcome(self, world: World) -> tuple[str, str] | None:
        """(winner or 'draw', reason) once the game is over, else None."""

    def describe(self, world: World) -> str:
        """A one-line status for views and logs."""
        return ""

    def status_lines(self, world: World) -> list[str]:
        """Extra lines under the board in text views (a legend, each side's units)."""
        return []


TURN_KEY = "turn_entity"  # resource: the entity holding the Turn component


class SidesRuleset(Ruleset):
    """A ruleset of sides taking turns, whose match state is one Turn component."""

    def start_turns(self, world: World) -> None:
        """Spawn the Turn entity: the first side plays round 1."""
        world.set_resource(TURN_KEY, world.spawn(Turn(self.sides[0], 1)))

    def turn(self, world: World) -> Turn:
        return world.get(world.resource(TURN_KEY), Turn)

    def side_to_play(self, world: World) -> str:
        return self.turn(world).side

    def outcome(self, world: World) -> tuple[str, str] | None:
        turn = self.turn(world)
        return (turn.winner, turn.reason) if turn.over else None


def ruleset_config(name: str, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ruleset's YAML with a map sidecar's overrides merged in (mappings merge deeply)."""
    path = DATA / "rulesets" / f"{name}.yaml"
    if not path.exists():
        known = ", ".join(sorted(RULESETS))
        raise UserError(f"unknown ruleset '{name}'; known rulesets: {known}.")
    raw = load_yaml(path)
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
    if name not in RULESETS:
        raise UserError(f"unknown ruleset '{name}'; known rulesets: {', '.join(sorted(RULESETS))}.")
    module_name, class_name = RULESETS[name].split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    ruleset: Ruleset = cls(ruleset_config(name, overrides))
    return ruleset
