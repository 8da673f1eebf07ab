"""Macro moves for puzzle searches: walk YOU through free cells, then make one move that does
something.

When exactly one thing IS YOU, nothing can MOVE, no transformation is pending and YOU has no
property that acts on a shared cell, a step into a *free* cell (empty, or holding only things
with no property at all) changes nothing but YOU's position. Every cell YOU can reach that way
is then as good as any other: a search may treat the whole reachable region as one state
(keyed by the board with YOU on the region's first cell) and expand only the moves that leave
it, into a word, a PUSH, a WIN, a DEFEAT... as Sokoban solvers search pushes, not steps. A
`Jump(x, y, d)` places YOU on (x, y) of its region and steps `d`; `steps` turns it back into
the Step commands a player makes, and the replay of those is what a solution is checked by.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

from components import Kind, Position
from components.resources import HASH_KEY, KINDS_KEY, PROPS_KEY, RULES_KEY, SETTLED_KEY, SIZE_KEY
from game.commands import Command, Step
from game.world import World
from systems.board import deadly_mask
from systems.rules import Prop, bits_where, transformations
from systems.zobrist import MASK, Table, label

YOU, STOP, PUSH, MOVE = int(Prop.YOU), int(Prop.STOP), int(Prop.PUSH), int(Prop.MOVE)
WEAK = int(Prop.WEAK)
# What YOU must not be for a walk to be idle: each acts on whatever shares YOU's cell (the
# properties data/properties.yaml says a puzzle turn resolves: `puzzle: acts`).
ACTIVE = bits_where(lambda info: info.puzzle == "acts")
STEPS = (("u", 0, -1), ("d", 0, 1), ("l", -1, 0), ("r", 1, 0))

Cell = tuple[int, int]


@dataclass(frozen=True)
class Jump(Command):
    """Search only (never submitted, refused if it were): put the one YOU thing on (x, y),
    a cell it can walk to through free cells, then step `direction`."""

    x: int
    y: int
    direction: str


@dataclass
class Region:
    """The free cells one YOU thing can walk to, as bit sets over the grid (bit y * width + x),
    by distance in steps: layers[0] is YOU's cell."""

    you: int
    width: int
    layers: list[int]
    events: int  # cells a step into does something (not free, not a plain STOP, not death)
    key: int  # the board hash with YOU on the region's first cell

    @property
    def cells(self) -> int:
        found = 0
        for layer in self.layers:
            found |= layer
        return found


_turns: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}
_edges: dict[tuple[int, int], tuple[int, int, int]] = {}


def region(world: World, table: Table, can_move: bool) -> Region | None:
    """YOU's walking region in this state, or None when walking could change more than YOU's
    cell (several YOU things, MOVE in the level, a pending transformation, an active YOU,
    meetings not yet resolved, YOU on a cell that is not free)."""
    if can_move or not world.resource(SETTLED_KEY):
        return None
    props: dict[str, int] = world.resource(PROPS_KEY, {})
    index: dict[str, tuple[int, ...]] = world.resource(KINDS_KEY)
    you = -1
    for kind, mask in props.items():
        if mask & YOU:
            ids = index.get(kind, ())
            if not ids:
                continue
            if len(ids) > 1 or you >= 0 or mask & ACTIVE:
                return None
            you = ids[0]
    if you < 0:
        return None
    rules = world.resource(RULES_KEY, ())
    turns = _turns.get(rules)
    if turns is None:
        turns = _turns[rules] = transformations(rules)
    if any(index.get(kind) for kind in turns):
        return None
    width, height = world.resource(SIZE_KEY)
    # A step into a cell of things that would kill YOU, with nothing there to push, stop or
    # break first (text, PUSH, STOP, WEAK), loses at once: its jump is left out unapplied.
    kinds = _classes(props, world.get(you, Kind).name)
    blocks = stops = kills = others = 0
    here = world.get(you, Position)
    for _entity, (kind, pos) in world.query(Kind, Position):
        sort = kinds.get(kind.name)
        if sort is not None:
            bit = 1 << (pos.y * width + pos.x)
            if sort == BLOCK:
                blocks |= bit
            elif sort == STOPS:
                stops |= bit
            elif sort == KILLS:
                kills |= bit
            else:
                others |= bit
    events = blocks | kills | others
    spares = blocks | stops
    start = 1 << (here.y * width + here.x)
    if (events | stops) & start:
        return None
    edges = _edges.get((width, height))
    if edges is None:
        full = (1 << (width * height)) - 1
        first = sum(1 << (y * width) for y in range(height))
        edges = _edges[(width, height)] = (full, full & ~first, full & ~(first << (width - 1)))
    full, not_first, not_last = edges
    free = full & ~(events | stops)
    layers = [start]
    cells = frontier = start
    while frontier:
        grow = ((frontier << 1) & not_first) | ((frontier >> 1) & not_last) | \
            (frontier << width) | (frontier >> width)
        frontier = grow & free & ~cells
        if frontier:
            cells |= frontier
            layers.append(frontier)
    events &= ~(kills & ~spares)
    low = (cells & -cells).bit_length() - 1
    name = label(world, you)
    key = (world.resource(HASH_KEY, 0) - table.number(name, here.x, here.y, 0)
           + table.number(name, low % width, low // width, 0)) & MASK
    return Region(you, width, layers, events, key)


# How a thing (not YOU) stands in YOU's way: a step into its cell does something and it
# spares YOU (text, PUSH, WEAK: pushed or broken first), it is a plain STOP, it kills YOU
# (DEFEAT, SINK, HOT on a MELT YOU) and nothing else there acts first, or it does something
# else (WIN, OPEN...).
BLOCK, STOPS, KILLS, OTHER = range(4)
_sorts: dict[tuple[int, str], tuple[dict[str, int], dict[str, int]]] = {}


def _classes(props: dict[str, int], you: str) -> dict[str, int]:
    """Kind -> how it stands in the way of a YOU of kind `you` (kinds with no property are
    free and left out). Cached by the identity of `props`, which is never changed once stored
    (the entry keeps it alive, so its id is not reused)."""
    hit = _sorts.get((id(props), you))
    if hit is not None and hit[0] is props:
        return hit[1]
    if len(_sorts) > 4096:
        _sorts.clear()
    deadly = deadly_mask(props, (you,))
    found: dict[str, int] = {"text": BLOCK}  # words are pushed, even a YOU word
    for kind, mask in props.items():
        if not mask or kind in (you, "text"):  # the one YOU thing is not in its own way
            continue
        if mask & STOP and not mask & PUSH:
            found[kind] = STOPS
        elif mask & (PUSH | WEAK):
            found[kind] = BLOCK
        elif mask & deadly:
            found[kind] = KILLS
        else:
            found[kind] = OTHER
    _sorts[(id(props), you)] = (props, found)
    return found


def jumps(world: World, area: Region) -> list[tuple[Jump, int]]:
    """The moves that leave the region, each with its cost in steps (walk + the step): into
    any cell that is not free and not a plain STOP (a step that would not move is left out).
    Nearest cells first."""
    width = area.width
    events = area.events
    _full, not_first, not_last = _edges[tuple(world.resource(SIZE_KEY))]
    targets = (("u", events << width), ("d", events >> width),
               ("l", (events << 1) & not_first), ("r", (events >> 1) & not_last))
    found = []
    for far, layer in enumerate(area.layers, start=1):
        for direction, into in targets:
            bits = layer & into
            while bits:
                low = bits & -bits
                bits ^= low
                cell = low.bit_length() - 1
                found.append((Jump(cell % width, cell // width, direction), far))
    return found


def place(world: World, table: Table, you: int, x: int, y: int) -> None:
    """Put YOU on (x, y), keeping the board hash (the first half of a Jump)."""
    pos = world.get(you, Position)
    if (pos.x, pos.y) == (x, y):
        return
    name = label(world, you)
    delta = table.number(name, x, y, 0) - table.number(name, pos.x, pos.y, 0)
    world.move(you, x, y)
    world.set_resource(HASH_KEY, (world.resource(HASH_KEY, 0) + delta) & MASK)


def steps(world: World, area: Region, jump: Jump) -> list[Command]:
    """The Step commands that walk YOU from where it stands to the jump's cell, then step."""
    width = area.width
    cells = area.cells
    start = area.layers[0].bit_length() - 1
    start_cell = (start % width, start // width)
    parents: dict[Cell, Cell | None] = {start_cell: None}
    moves: dict[Cell, str] = {}
    queue = deque([start_cell])
    target = (jump.x, jump.y)
    while queue and target not in parents:
        x, y = queue.popleft()
        for direction, dx, dy in STEPS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < width and ny >= 0 and (nx, ny) not in parents \
                    and cells >> (ny * width + nx) & 1:
                parents[(nx, ny)] = (x, y)
                moves[(nx, ny)] = direction
                queue.append((nx, ny))
    path: list[Command] = [Step(jump.direction)]
    cell: Any = target
    while parents[cell] is not None:
        path.append(Step(moves[cell]))
        cell = parents[cell]
    return path[::-1]
