"""What hovering a cell tells: the path a move would take and the MP left, the rules a push of
words would form and break and what they change, what an attack would do, and a tooltip for
whatever stands there. No pyglet here.

Outcomes are not guessed: the command is applied, looked at and retracted (the engine's exact
undo), as every search in this project does, so a preview always agrees with the rules.
"""

from __future__ import annotations

from dataclasses import dataclass

from components import Actions, Health, Height, Kind, Moves, Position, Team, UnitClass, Word
from components import Attack as AttackStats
from components.resources import EXIT_KEY, PROPS_KEY
from game.commands import Attack, Command, Move
from game.engine import Engine
from game.render.panels import name_of, rule_lines
from game.render.uiview import Cell
from game.session.rulesense import foresee_cells, told_lines
from game.world import World
from systems.board import manhattan, occupancy
from systems.movement import path, reach
from systems.rules import property_bits


@dataclass(frozen=True)
class Preview:
    path: tuple[Cell, ...] = ()  # cells walked, start excluded, the hovered cell last
    lines: tuple[str, ...] = ()
    # the sentences a push of words would change: each cell and 'broken' / 'formed'
    sentences: tuple[tuple[Cell, str], ...] = ()


def preview(engine: Engine, legal: list[Command], selected: int | None,
            cell: Cell | None) -> Preview:
    """The preview of hovering `cell` with `selected` (a hero of the side to play, or None)."""
    if cell is None:
        return Preview()
    lines: list[str] = []
    path: tuple[Cell, ...] = ()
    marked: dict[Cell, str] = {}
    if selected is not None and engine.world.alive(selected):
        move = next((c for c in legal if isinstance(c, Move) and c.unit == selected
                     and (c.x, c.y) == cell), None)
        attack = next((c for c in legal if isinstance(c, Attack) and c.unit == selected
                       and _cell_of(engine, c.target) == cell), None)
        if move is not None:
            path = walk(engine, selected, cell)
            lines.append(move_line(engine, move, len(path)))
            changed, marked = foresee_cells(engine, move)  # a push of words: what it changes
            lines.extend(told_lines(changed))
        elif attack is not None:
            lines.append(attack_line(engine, attack))
    lines.extend(tooltip(engine, cell))
    return Preview(path, tuple(lines), tuple(sorted(marked.items())))


def _cell_of(engine: Engine, entity: int) -> Cell | None:
    pos = engine.world.try_get(entity, Position) if engine.world.alive(entity) else None
    return (pos.x, pos.y) if pos is not None else None


def walk(engine: Engine, unit: int, goal: Cell) -> tuple[Cell, ...]:
    """The cells a legal Move of `unit` to `goal` walks, start excluded, `goal` last.

    Read off the very reach the ruleset's legal moves come from (`systems.movement.reach`,
    with its move points, on the ruleset's own occupancy), so the path shown is one the move
    can take and its length is what the move costs. A legal move to a neighbouring cell the
    reach does not hold is a push: its one step.
    """
    world = engine.world
    start = _cell_of(engine, unit)
    if start is None:
        return ()
    ruleset = engine.ruleset
    occ = ruleset.occupancy(world) if hasattr(ruleset, "occupancy") else occupancy(world)
    team = world.try_get(unit, Team)
    moves = world.try_get(unit, Moves)
    field = reach(occ, start, moves.mp if moves is not None else 0,
                  team.side if team is not None else "")
    cells = path(occ, field, goal)
    if not cells and manhattan(start, goal) == 1:
        return (goal,)
    return cells


def move_line(engine: Engine, move: Move, steps: int) -> str:
    """'move to 3,4: 2 steps, 1 MP left', read off the move applied and retracted."""
    engine.apply(move)
    try:
        moves = engine.world.try_get(move.unit, Moves)
        left = moves.mp if moves is not None else 0
    finally:
        engine.retract()
    return f"move to {move.x},{move.y}: {steps} step{'s' * (steps != 1)}, {left} MP left"


def attack_line(engine: Engine, attack: Attack) -> str:
    """'hit sage #7: 5 damage, hp 7 -> 2' or '... kills it', from the attack applied and
    retracted."""
    world = engine.world
    name = name_of(world, attack.target)
    before = world.get(attack.target, Health).hp
    engine.apply(attack)
    try:
        alive = world.alive(attack.target) and world.has(attack.target, Health)
        after = world.get(attack.target, Health).hp if alive else 0
    finally:
        engine.retract()
    damage = before - after
    if not alive or after <= 0:
        return f"hit {name}: {damage} damage, kills it"
    return f"hit {name}: {damage} damage, hp {before} -> {after}"


def tooltip(engine: Engine, cell: Cell) -> list[str]:
    """One line per unit, building, word or thing in the cell: a unit's stats, the rules a
    word is in, the properties the rules give a thing (puzzles), a column's height and the
    ball or exit on it (descent)."""
    world = engine.world
    lines = []
    props = world.resource(PROPS_KEY)
    blocks = 0
    for entity in world.at(*cell):
        kind = world.try_get(entity, Kind)
        if kind is not None and world.has(entity, Height) and kind.name == "block":
            blocks += 1
            continue
        word = world.try_get(entity, Word)
        if word is not None:
            rules = [r for r in rule_lines(world) if word.text.upper() in r.upper().split()]
            lines.append(f"word {word.text.upper()}: " + ("; ".join(rules) if rules
                                                          else "in no rule now"))
            continue
        health = world.try_get(entity, Health)
        if kind is None:
            continue
        if health is None:
            lines.extend(thing_line(world, entity, kind.name, props))
            continue
        team = world.try_get(entity, Team)
        unit_class = world.try_get(entity, UnitClass)
        label = unit_class.name if unit_class is not None else kind.name
        parts = [f"{label} #{entity}" + (f" ({team.side})" if team is not None else ""),
                 f"hp {health.hp}/{health.max_hp}"]
        stats = world.try_get(entity, AttackStats)
        if stats is not None:
            parts.append(f"damage {stats.damage}, range {stats.range}")
        moves = world.try_get(entity, Moves)
        if moves is not None:
            parts.append(f"MP {moves.mp}/{moves.max_mp}")
        lines.append(": ".join(parts[:1]) + ": " + ", ".join(parts[1:]))
    if blocks:
        lines.insert(0, f"column {cell[0]},{cell[1]}: {blocks} block{'s' * (blocks != 1)} high")
    if world.resource(EXIT_KEY) is not None and tuple(world.resource(EXIT_KEY)) == cell:
        lines.append("the exit: bring the ball here")
    return lines


def thing_line(world: World, entity: int, kind: str, props: dict[str, int] | None) -> list[str]:
    """'baba #4: YOU, PUSH' where rules give the kind properties (puzzles); 'ball #9 at
    height 2' on a heightmap; nothing for plain scenery elsewhere."""
    if props is not None:
        mask = int(props.get(kind, 0))
        names = [name for name, flag in property_bits().items() if mask & flag]
        return [f"{kind} #{entity}: " + (", ".join(names) if names else "no property now")]
    height = world.try_get(entity, Height)
    if height is not None:
        return [f"{kind} #{entity} at height {height.z}"]
    return []


def ready_line(engine: Engine, unit: int) -> str:
    """'sage #4: mp 3, ap 1' for the list of units that can still act."""
    world = engine.world
    moves, acts = world.try_get(unit, Moves), world.try_get(unit, Actions)
    parts = []
    if moves is not None:
        parts.append(f"mp {moves.mp}")
    if acts is not None:
        parts.append(f"ap {acts.ap}")
    return f"{name_of(world, unit)}: " + ", ".join(parts)
