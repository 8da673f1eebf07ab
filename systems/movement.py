"""Walking: the cells a unit can reach with its move points, and the move itself."""

from __future__ import annotations

from components import Moves, Position
from game.events import Event, Moved
from game.world import World
from systems.board import DIRS, Cell, Occupancy


def reachable(occ: Occupancy, start: Cell, mp: int, side: str) -> dict[Cell, int]:
    """Cells a unit of `side` can end on from `start` with `mp` points, with their cost.

    One orthogonal step costs 1. Allies may be passed through but not stopped on; enemies,
    buildings and solid things block; a deadly cell may be entered, as the last step.
    """
    deadly = occ.deadly
    dist = {start: 0}
    frontier = [start]
    for step in range(1, mp + 1):
        nxt = []
        for x, y in frontier:
            for dx, dy in DIRS:
                cell = (x + dx, y + dy)
                if cell in dist or cell in occ.solid or not occ.inside(*cell):
                    continue
                owner = occ.units.get(cell)
                if owner is not None and owner != side:
                    continue
                dist[cell] = step
                if cell not in deadly:
                    nxt.append(cell)
        if not nxt:
            break
        frontier = nxt
    return {cell: cost for cell, cost in dist.items() if cost and cell not in occ.units}


def move_unit(world: World, unit: int, x: int, y: int, cost: int) -> list[Event]:
    pos = world.get(unit, Position)
    x0, y0 = pos.x, pos.y
    world.move(unit, x, y)
    moves = world.get(unit, Moves)
    world.update(unit, Moves, mp=moves.mp - cost)
    return [Moved(unit, x0, y0, x, y)]
