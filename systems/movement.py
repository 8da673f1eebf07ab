"""Walking: the cells a unit can reach with its move points, and the move itself."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from components import Moves, Position
from game.events import Event, Moved
from game.world import World
from systems.board import DIRS, Cell, Occupancy


def reach(occ: Occupancy, start: Cell, mp: int, side: str,
          steps: Steps | None = None, enemies: AbstractSet[Cell] | None = None) -> dict[Cell, int]:
    """Every cell a unit of `side` can get to from `start` with `mp` points, with its cost:
    the start (0), the cells it may end on, and allies' cells it may only pass through.

    One orthogonal step costs 1, tried north, east, south, west. Allies may be passed through
    but not stopped on; enemies, buildings and solid things block; a deadly cell may be
    entered, as the last step. `steps` (`Steps(occ)`, kept while the solid cells stand)
    spares the walk its bounds and solid tests; `enemies` (the cells of the units not of
    `side`, when the caller has them) its look-up of each cell's owner: the same answer, in
    the same order.
    """
    if steps is None:
        steps = Steps(occ)
    if enemies is None:
        enemies = {cell for cell, owner in occ.units.items() if owner != side}
    # locals, and neighbours read from the table: this loop is most of a skirmish turn's
    # first legal_actions
    deadly = occ.deadly
    start = steps.cell(start)
    dist = {start: 0}
    frontier = [start]
    for step in range(1, mp + 1):
        nxt = []
        for here in frontier:
            for cell in steps[here]:
                if cell in dist or cell in enemies:
                    continue
                dist[cell] = step
                if cell not in deadly:
                    nxt.append(cell)
        if not nxt:
            break
        frontier = nxt
    return dist


class Steps(dict[Cell, tuple[Cell, ...]]):
    """For each cell of one board, the neighbours a step may enter, in the order of DIRS:
    inside the board and not solid. Filled as cells are asked for; it depends on the solid
    cells and the board's size alone, so it may be kept while they stand.

    Each cell is one tuple (`cell`), so a field `reach` finds holds no tuple of its own: once
    the collector has seen those tuples hold only ints it stops tracking them, and a dict of
    them and ints is then never tracked at all (kept fields cost it nothing to scan)."""

    def __init__(self, occ: Occupancy) -> None:
        super().__init__()
        self.solid, self.size = occ.solid, (occ.width, occ.height)
        self._cells: dict[Cell, Cell] = {}

    def cell(self, cell: Cell) -> Cell:
        """The one tuple of this board for `cell`."""
        return self._cells.setdefault(cell, cell)

    def __missing__(self, here: Cell) -> tuple[Cell, ...]:
        (x, y), (width, height), solid = here, self.size, self.solid
        found = []
        for dx, dy in DIRS:
            cx, cy = x + dx, y + dy
            if 0 <= cx < width and 0 <= cy < height and (cx, cy) not in solid:
                found.append(self.cell((cx, cy)))
        made = self[here] = tuple(found)
        return made


def reachable(occ: Occupancy, start: Cell, mp: int, side: str) -> dict[Cell, int]:
    """The cells a unit can end a move on (its legal Moves), with their cost: `reach`
    without the start and the cells other units stand on."""
    return {cell: cost for cell, cost in reach(occ, start, mp, side).items()
            if cost and cell not in occ.units}


def path(occ: Occupancy, field: dict[Cell, int], goal: Cell) -> tuple[Cell, ...]:
    """The walk to `goal` through `field` (what `reach` found), start excluded, `goal` last:
    each cell one step nearer the start than the next, ties broken by the order of DIRS,
    never through a deadly cell. () when `goal` is not in the field."""
    cost = field.get(goal)
    if cost is None:
        return ()
    cells = [goal]
    here = goal
    while cost > 1:
        cost -= 1
        x, y = here
        for dx, dy in DIRS:
            before = (x + dx, y + dy)
            if field.get(before) == cost and before not in occ.deadly:
                here = before
                break
        cells.append(here)
    return tuple(reversed(cells))


def move_unit(world: World, unit: int, x: int, y: int, cost: int) -> list[Event]:
    pos = world.get(unit, Position)
    x0, y0 = pos.x, pos.y
    world.move(unit, x, y)
    if cost:  # a minion's march costs nothing: no write of the same value
        world.set(unit, Moves, "mp", world.get(unit, Moves).mp - cost)
    return [Moved(unit, x0, y0, x, y)]
