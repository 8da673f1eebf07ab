"""Skirmish's edges (RulesetSpec): its action numbers, observation planes and adapter
parameters, read by the OpenSpiel game and the environments, which name no ruleset."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from components import Attack as AttackStats
from components import Health, Kind, Moves, Position, Team, UnitClass
from components.resources import SIZE_KEY
from game.commands import Attack, Command, EndTurn, Move
from game.encoding.actions import Encoding
from game.encoding.planes import UNIT_PLANES, board_planes, rule_planes
from systems.board import in_sight
from systems.movement import reach

if TYPE_CHECKING:
    from game.engine import Engine
    from game.levels.maps import GameMap
    from game.world import World


class SkirmishEncoding(Encoding):
    """0 ends the turn; 1 + slot*C + cell moves hero `slot` to `cell`; 1 + S*C + slot*C + cell
    makes hero `slot` attack the unit standing on `cell`. C = width*height, cell = y*width + x,
    and slot numbers the S heroes of the start position by entity id (both sides together:
    heroes never come back, so a slot never changes hands)."""

    def __init__(self, world: World) -> None:
        self.width, self.height = world.resource(SIZE_KEY)
        self.cells = self.width * self.height
        heroes = [(e, team.side, cls.name) for e, (kind, team, cls)
                  in world.query(Kind, Team, UnitClass) if kind.name == "hero"]
        self.slots = {entity: slot for slot, (entity, _s, _c) in enumerate(heroes)}
        self.names = [f"{side} {name} (unit {entity})" for entity, side, name in heroes]
        self.size = 1 + 2 * len(heroes) * self.cells
        # a hero's first Move number (its slot's cell 0), for `table`
        self._starts = {entity: 1 + slot * self.cells for entity, slot in self.slots.items()}

    def encode(self, world: World, command: Command) -> int:
        if isinstance(command, EndTurn):
            return 0
        if isinstance(command, Move):
            return 1 + self.slots[command.unit] * self.cells + command.y * self.width + command.x
        if not isinstance(command, Attack):
            raise ValueError(f"no action number for {command!r}")
        pos = world.get(command.target, Position)
        return (1 + (len(self.slots) + self.slots[command.unit]) * self.cells
                + pos.y * self.width + pos.x)

    def table(self, world: World, commands: list[Command]) -> dict[int, Command]:
        """Encoding.table with a Move's and an EndTurn's number worked out inline (a random
        environment loop asks for a table every step); anything else is `encode`d."""
        starts, width = self._starts, self.width
        legal: dict[int, Command] = {}
        for command in commands:
            # type() is: no command class has subclasses
            if type(command) is Move:
                legal[starts[command.unit] + command.y * width + command.x] = command
            elif type(command) is EndTurn:
                legal[0] = command
            else:
                legal[self.encode(world, command)] = command
        if len(legal) != len(commands):  # two commands on one number: the base class's check
            return super().table(world, commands)
        return legal

    def describe(self, action: int) -> str:
        if action == 0:
            return "end turn"
        slot, cell = divmod(action - 1, self.cells)
        x, y = cell % self.width, cell // self.width
        if slot < len(self.names):
            return f"{self.names[slot]} moves to ({x}, {y})"
        return f"{self.names[slot - len(self.names)]} attacks ({x}, {y})"


def encoding(engine: Engine) -> SkirmishEncoding:
    return SkirmishEncoding(engine.world)


def planes() -> tuple[str, ...]:
    """Things and words, then each unit's side, hit points, move points and readiness, then
    the properties the rules in force give (`prop:P`)."""
    return (*board_planes(), *UNIT_PLANES, "to_play", *rule_planes())


def from_params(params: dict[str, Any], load: Any) -> GameMap:
    """`map` (a file or a shipped map's name), with `turn_limit` in place of its own when
    above 0."""
    game_map: GameMap = load(params["map"], None)
    limit = params["turn_limit"]
    if limit > 0:
        game_map = dataclasses.replace(game_map, sidecar={**game_map.sidecar, "turn_limit": limit})
    return game_map


def max_length(engine: Engine, params: dict[str, Any]) -> int:
    """Most actions in a game: every turn of the limit, each side's heroes walking all their
    points and attacking once, then ending the turn."""
    per_side: dict[str, int] = {}
    for _entity, (moves, team, _cls) in engine.world.query(Moves, Team, UnitClass):
        per_side[team.side] = per_side.get(team.side, 0) + moves.max_mp + 1
    limit = int(engine.ruleset.cfg.turn_limit)  # type: ignore[attr-defined]
    return 2 * limit * (max(per_side.values(), default=0) + 1)


Cell = tuple[int, int]


def threat(engine: Engine, unit: int) -> tuple[frozenset[Cell], frozenset[Cell]] | None:
    """Where `unit` may move and what cells it may strike on its next turn, the board as it
    stands: its whole move points walked by `systems.movement.reach` on the ruleset's
    occupancy (the very field its legal moves come from), then every cell in range and in
    sight from a cell it may end on (its own included). Buildings do not move and fire over
    everything (systems/buildings.py). None for a thing with no attack or side."""
    world = engine.world
    if not world.alive(unit):
        return None
    stats, team = world.try_get(unit, AttackStats), world.try_get(unit, Team)
    pos, health = world.try_get(unit, Position), world.try_get(unit, Health)
    if stats is None or team is None or pos is None or health is None or health.hp <= 0:
        return None
    occ = engine.ruleset.occupancy(world)  # type: ignore[attr-defined]
    start, side, span = (pos.x, pos.y), team.side, stats.range
    moves = world.try_get(unit, Moves)
    if moves is None:
        return frozenset(), frozenset(_diamond(start, span, occ.width, occ.height))
    field = reach(occ, start, moves.max_mp, side)
    stands = [cell for cell, cost in field.items()
              if cost == 0 or (cell not in occ.units and cell not in occ.deadly)]
    strikes: set[Cell] = set()
    for stand in stands:
        strikes.update(cell for cell in _diamond(stand, span, occ.width, occ.height)
                       if cell not in strikes and in_sight(occ, side, stand, cell))
    return frozenset(cell for cell in stands if cell != start), frozenset(strikes)


def _diamond(centre: Cell, span: int, width: int, height: int) -> list[Cell]:
    """The cells within `span` steps of `centre` (Manhattan), on the board, centre excluded."""
    x0, y0 = centre
    return [(x, y) for y in range(max(0, y0 - span), min(height, y0 + span + 1))
            for x in range(max(0, x0 - span), min(width, x0 + span + 1))
            if 0 < abs(x - x0) + abs(y - y0) <= span]
