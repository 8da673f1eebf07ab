"""The board as text: for the terminal view, `map check`, `--show` and golden playthroughs."""

from __future__ import annotations

from components import Actions, Health, Kind, Moves, Position, Team, UnitClass
from components.resources import SIZE_KEY
from game.commands import Attack, Command, EndTurn, Move
from game.data import unit_glyph
from game.world import World

THING_GLYPHS = {"rock": "#", "water": "~", "wall": "%", "block": "=", "text": "@"}
LEGEND = ("legend: . floor  # rock  ~ water  % wall  = block  @ word  "
          "Q/q HQ  T/t tower  M/m minion  B D R S P heroes (red upper case, blue lower case)")


def glyph(world: World, entity: int) -> str:
    kind = world.get(entity, Kind).name
    hero_class = world.get(entity, UnitClass).name if kind == "hero" else None
    team = world.try_get(entity, Team)
    char = unit_glyph(kind, hero_class, team.side if team is not None else None)
    return char if char is not None else THING_GLYPHS.get(kind, kind[:1] or "?")


def board(world: World) -> str:
    """Rows of glyphs; where several things share a cell the one with the highest id shows."""
    width, height = world.resource(SIZE_KEY)
    rows = [["."] * width for _ in range(height)]
    for entity, pos in world.query(Position):
        rows[pos.y][pos.x] = glyph(world, entity)
    return "\n".join("".join(row) for row in rows)


def roster(world: World) -> str:
    """Each side's heroes and buildings with hit points, one line per side."""
    lines = []
    for side in ("red", "blue"):
        parts = []
        for entity, (kind, team, health) in world.query(Kind, Team, Health):
            if team.side != side or kind.name == "minion":
                continue
            label = glyph(world, entity)
            pos = world.get(entity, Position)
            extra = ""
            unit_class = world.try_get(entity, UnitClass)
            if unit_class is not None:
                extra = (f" {unit_class.name} mp {world.get(entity, Moves).mp}"
                         f" ap {world.get(entity, Actions).ap}")
            parts.append(f"{label}#{entity}@{pos.x},{pos.y} hp {health.hp}/{health.max_hp}{extra}")
        minions = sum(1 for _e, (k, t) in world.query(Kind, Team)
                      if k.name == "minion" and t.side == side)
        lines.append(f"{side:>4}: " + "; ".join(parts) + f"; minions {minions}")
    return "\n".join(lines)


def describe_command(world: World, command: Command) -> str:
    """A skirmish command in words, as the terminal's numbered list shows it."""
    if isinstance(command, Move):
        name = world.get(command.unit, UnitClass).name
        pos = world.get(command.unit, Position)
        return f"move {name} #{command.unit} ({pos.x},{pos.y}) -> ({command.x},{command.y})"
    if isinstance(command, Attack):
        name = world.get(command.unit, UnitClass).name
        target = world.get(command.target, Kind).name
        tpos = world.get(command.target, Position)
        return f"{name} #{command.unit} attacks {target} #{command.target} at ({tpos.x},{tpos.y})"
    if isinstance(command, EndTurn):
        return "end turn"
    return str(command.to_json())
