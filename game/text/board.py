"""The board as cells for the terminal: what each cell shows, in which colour, words by text.

Read from components alone (Position, Kind, Team, Word, Health, Height), so every grid
ruleset draws the same way and none is named here. The Textual board and the plain client
both use it; neither imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from components import Health, Height, Kind, Position, Team, UnitClass, Word
from components.resources import EXIT_KEY, RULES_KEY, SIZE_KEY
from game.data import unit_glyph
from game.world import World

CELL = 3  # characters per cell: room for a word's first three letters or a glyph and its HP
THING_GLYPHS = {"rock": "#", "water": "~", "wall": "%", "block": "=", "ball": "o", "skull": "x",
                "lava": "^", "flag": "F", "baba": "B", "keke": "K", "door": "D", "key": "k"}


@dataclass(frozen=True)
class Cell:
    """One cell as drawn: up to CELL characters and a role the front end colours."""

    text: str
    role: str  # red, blue, word-noun, word-operator, word-property, thing, floor, ball, exit
    height: int = 0  # blocks stacked here (descent's shades)


def grid_size(world: World) -> tuple[int, int] | None:
    """(width, height) for rulesets on a grid; None for those without one (octal heaps)."""
    size = world.resource(SIZE_KEY, None)
    return None if size is None else (int(size[0]), int(size[1]))


def glyph(world: World, entity: int) -> str:
    """A unit's one-letter glyph (data/units.yaml), red upper case, blue lower case."""
    kind = world.get(entity, Kind).name
    unit_class = world.try_get(entity, UnitClass)
    team = world.try_get(entity, Team)
    char = unit_glyph(kind, unit_class.name if unit_class is not None else None,
                      team.side if team is not None else None)
    return char if char is not None else THING_GLYPHS.get(kind, kind[:1] or "?")


def abbreviation(text: str) -> str:
    """A word as it fits a cell: its first CELL letters ('WATER' -> 'WAT')."""
    return text[:CELL]


def cell_at(world: World, x: int, y: int) -> Cell:
    """What shows at (x, y): a unit before a word before anything else; blocks count up."""
    here = sorted(world.at(x, y))
    stack = sum(1 for e in here if world.alive(e) and world.try_get(e, Kind) is not None
                and world.get(e, Kind).name == "block")
    exit_cell = world.resource(EXIT_KEY, None)
    on_side = [e for e in here if world.try_get(e, Team) is not None]
    if on_side:
        entity = on_side[-1]
        health = world.try_get(entity, Health)
        hp = f"{min(health.hp, 99)}" if health is not None else ""
        return Cell((glyph(world, entity) + hp)[:CELL], world.get(entity, Team).side, stack)
    words = [e for e in here if world.try_get(e, Word) is not None]
    if words:
        word = world.get(words[-1], Word)
        return Cell(abbreviation(word.text), f"word-{word.part}", stack)
    things = [e for e in here if world.try_get(e, Kind) is not None
              and world.get(e, Kind).name != "block"]
    if things:
        kind = world.get(things[-1], Kind).name
        return Cell(THING_GLYPHS.get(kind, kind[:1]), "ball" if kind == "ball" else "thing",
                    stack)
    if exit_cell is not None and tuple(exit_cell) == (x, y):
        return Cell(">", "exit", stack)
    if stack:
        stacked = any(world.try_get(e, Height) is not None for e in here)
        return Cell(str(stack) if stacked else "=", "stack", stack if stacked else 0)
    return Cell(".", "floor", 0)


def cells(world: World) -> list[list[Cell]]:
    """Every cell of a grid world, row by row."""
    size = grid_size(world)
    if size is None:
        return []
    width, height = size
    return [[cell_at(world, x, y) for x in range(width)] for y in range(height)]


def words_on_board(world: World) -> list[tuple[int, int, str]]:
    """(x, y, text) of every word tile, row by row."""
    found = [(pos.y, pos.x, word.text) for _e, (word, pos) in world.query(Word, Position)]
    return [(x, y, text) for y, x, text in sorted(found)]


def words_line(world: World) -> str:
    """The words on the board by their text, for the plain client ('' when there are none)."""
    found = words_on_board(world)
    if not found:
        return ""
    return "words: " + "; ".join(f"{text} at {x},{y}" for x, y, text in found)


def legend(world: World) -> list[str]:
    """'WAT = WATER' for every word cut short on the board."""
    seen = {text for _x, _y, text in words_on_board(world)}
    return [f"{abbreviation(t)} = {t}" for t in sorted(seen) if abbreviation(t) != t]


def rules_in_force(world: World) -> list[str]:
    return [str(rule) for rule in world.resource(RULES_KEY, ()) or ()]
