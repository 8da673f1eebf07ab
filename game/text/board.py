"""The board as cells for the terminal: what each cell shows, in which colour, words by text.

Read from components alone (Position, Kind, Team, Word, Health, Height), so every grid
ruleset draws the same way and none is named here. A ruleset that draws some cells its own way
says so in its spec's `text_cell` edge: (world, x, y) -> a Cell (or a (text, role, height)
tuple), or None for the grid's drawing; `cell_reader` puts the two together. The Textual board
and the plain client both use it; neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from components import Health, Height, Kind, Position, Team, UnitClass, Word
from components.resources import RULES_KEY, SIZE_KEY
from game.data import unit_glyph
from game.world import World

if TYPE_CHECKING:
    from game.engine import Engine

CELL = 3  # characters per cell: room for a word's first three letters or a glyph and its HP
THING_GLYPHS = {"rock": "#", "water": "~", "wall": "%", "block": "=", "skull": "x",
                "lava": "^", "flag": "F", "baba": "B", "keke": "K", "door": "D", "key": "k"}


class Cell(NamedTuple):
    """One cell as drawn: up to CELL characters and a role the front end colours (a plain
    (text, role, height) tuple from a ruleset's `text_cell` edge is one too)."""

    text: str
    role: str  # red, blue, word-noun, word-operator, word-property, thing, floor, stack, or
    #            a ruleset's own (the Textual client colours ball and exit; others are plain)
    height: int = 0  # blocks stacked here (shades of height)


CellReader = Callable[[World, int, int], Cell]


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


def cell_reader(engine: Engine) -> CellReader:
    """How the engine's ruleset draws a cell: its spec's `text_cell` edge first, where it
    says something, else the grid's `cell_at`."""
    from game import registry

    target = registry.spec(engine.ruleset.name).text_cell
    if not target:
        return cell_at
    own = registry.load_object(target)

    def read(world: World, x: int, y: int) -> Cell:
        found = own(world, x, y)
        return cell_at(world, x, y) if found is None else Cell(*found)

    return read


def stack_at(world: World, here: list[int]) -> int:
    """How many blocks stand among the entities `here`."""
    return sum(1 for e in here if world.alive(e) and world.try_get(e, Kind) is not None
               and world.get(e, Kind).name == "block")


def cell_at(world: World, x: int, y: int) -> Cell:
    """What shows at (x, y) on a grid: a unit before a word before anything else; blocks
    count up."""
    here = sorted(world.at(x, y))
    stack = stack_at(world, here)
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
        return Cell(THING_GLYPHS.get(kind, kind[:1]), "thing", stack)
    if stack:
        stacked = any(world.try_get(e, Height) is not None for e in here)
        return Cell(str(stack) if stacked else "=", "stack", stack if stacked else 0)
    return Cell(".", "floor", 0)


def cells(world: World, read: CellReader = cell_at) -> list[list[Cell]]:
    """Every cell of a grid world, row by row, each as `read` draws it (`cell_reader`)."""
    size = grid_size(world)
    if size is None:
        return []
    width, height = size
    return [[read(world, x, y) for x in range(width)] for y in range(height)]


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
