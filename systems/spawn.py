"""Minion waves: every N turns a headquarters sends a minion, and dead ones come back."""

from __future__ import annotations

from components import Actions, Attack, Health, Kind, Moves, Position, Spawner, SpawnPoint, Team
from components.resources import SPAWN_CELLS_KEY
from game.data import UnitStats
from game.events import Event, Spawned
from game.world import World
from systems.board import Cell, Occupancy

# Cells tried around a headquarters, in this order, when the map marks no spawn cell.
AROUND = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


def free_cell(world: World, occ: Occupancy, spawner: int, side: str) -> Cell | None:
    marked = world.resource(SPAWN_CELLS_KEY, {}).get(side, [])
    pos = world.get(spawner, Position)
    around = [(pos.x + dx, pos.y + dy) for dx, dy in AROUND]
    for cell in [*marked, *around]:
        if occ.inside(*cell) and cell not in occ.solid and cell not in occ.units:
            return cell
    return None


def minions_of(world: World, spawner: int) -> int:
    return sum(1 for _e, home in world.query(SpawnPoint) if home.spawner == spawner)


def spawn_minion(world: World, stats: UnitStats, spawner: int, side: str, cell: Cell) -> int:
    return world.spawn(
        Position(*cell), Kind("minion"), Team(side),
        Health(stats.hp, stats.hp), Attack(stats.damage, stats.range),
        Moves(stats.moves, stats.moves), Actions(1, 1), SpawnPoint(spawner, *cell),
    )


def waves(world: World, occ: Occupancy, side: str, stats: UnitStats) -> list[Event]:
    """Advance each of `side`'s spawners by one turn: respawns first, then the wave clock."""
    events: list[Event] = []
    for entity, (spawner, team) in list(world.query(Spawner, Team)):
        if team.side != side:
            continue
        respawns = spawner.respawns
        ready: list[int] = []
        waiting: list[int] = []
        if respawns:  # (most turns no minion is waiting to come back)
            due = [max(0, t - 1) for t in respawns]
            ready = [t for t in due if t == 0]
            waiting = [t for t in due if t > 0]
        countdown = spawner.countdown - 1
        new = 0
        if countdown <= 0:
            countdown = spawner.every
            if minions_of(world, entity) + len(respawns) < spawner.cap:
                new = 1
        for _ in range(len(ready) + new):
            cell = free_cell(world, occ, entity, side)
            if cell is None:
                break
            minion = spawn_minion(world, stats, entity, side, cell)
            occ.units[cell] = side
            events.append(Spawned(minion, "minion", side, *cell))
            if ready:
                ready.pop()
        # World.update's entries, field by field, without its keywords
        world.set(entity, Spawner, "countdown", countdown)
        world.set(entity, Spawner, "respawns", tuple(sorted(waiting + ready)))
    return events
