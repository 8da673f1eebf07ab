"""Hand-built skirmish positions on the duel map for the AI tests (not a test module).

Each position starts from maps/duel.png, takes units out, moves and wounds the rest, then
forgets the journal so that the position is where undo stops.
"""

from __future__ import annotations

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import DEFAULT_MAP

RED_HQ, RED_BULWARK, RED_RANGER, RED_SAGE, RED_TOWER = 2, 11, 12, 14, 19
BLUE_TOWER, BLUE_BULWARK, BLUE_RANGER, BLUE_SAGE, BLUE_HQ = 54, 59, 61, 62, 71


def arrange(seed: int = 0, remove: tuple[int, ...] = (),
            place: dict[int, tuple[int, int]] | None = None,
            hp: dict[int, int] | None = None,
            moves: dict[int, int] | None = None) -> Engine:
    engine = load_engine(DEFAULT_MAP, seed=seed)
    world = engine.world
    for entity in remove:
        world.destroy(entity)
    for entity, (x, y) in (place or {}).items():
        world.update(entity, Position, x=x, y=y)
    for entity, value in (hp or {}).items():
        world.update(entity, Health, hp=value)
    for entity, value in (moves or {}).items():
        world.update(entity, Moves, mp=value, max_mp=value)
    world.forget_history()
    return engine


def spawn_minion(engine: Engine, side: str, x: int, y: int, hp: int) -> int:
    world = engine.world
    entity = world.spawn(Position(x, y), Kind("minion"), Team(side), Health(hp, 5), Attack(2, 1),
                         Moves(2, 2), Actions(1, 1))
    world.forget_history()
    return entity


def last_hero_two_hits() -> tuple[Engine, int]:
    """Blue's last hero (5 hp) can die this turn to two red hits of 3, but a blue minion on
    2 hp next to the red bulwark is the kill a greedy player takes first. (engine, blue hero)"""
    engine = arrange(remove=(BLUE_BULWARK, BLUE_SAGE),
                     place={BLUE_RANGER: (10, 16), RED_BULWARK: (9, 16), RED_RANGER: (10, 19)},
                     hp={BLUE_RANGER: 5})
    spawn_minion(engine, "blue", 8, 16, hp=2)
    return engine, BLUE_RANGER


def nearly_dead_hq() -> Engine:
    """The blue HQ has 3 hp and the red sage (6 damage, range 3) stands 3 cells away; a
    wounded blue sage in reach is the tempting kill that does not end the game."""
    return arrange(place={RED_SAGE: (22, 19)}, hp={BLUE_HQ: 3, BLUE_SAGE: 6})


def small_duel() -> Engine:
    """One hero a side, one move point each, two cells apart: a tree small enough for plain
    minimax a few plies deep, with turn ends (towers, waves, minions) inside it."""
    return arrange(remove=(RED_RANGER, RED_SAGE, BLUE_BULWARK, BLUE_SAGE),
                   place={RED_BULWARK: (10, 16), BLUE_RANGER: (12, 16)},
                   moves={RED_BULWARK: 1, BLUE_RANGER: 1})


def two_a_side() -> Engine:
    """Two heroes a side with one move point each, close together: moves transpose (A then B
    is B then A) and turns end inside a shallow tree."""
    return arrange(remove=(RED_SAGE, BLUE_SAGE),
                   place={RED_BULWARK: (10, 16), RED_RANGER: (9, 17),
                          BLUE_RANGER: (12, 16), BLUE_BULWARK: (13, 17)},
                   moves={RED_BULWARK: 1, RED_RANGER: 1, BLUE_RANGER: 1, BLUE_BULWARK: 1})
