"""How descent's cells look in the terminal (the spec's `text_cell` edge): the ball and the exit
over the stacked blocks; every other cell is left to the grid's drawing (game/text/board.py)."""

from __future__ import annotations

from components import Kind
from components.resources import EXIT_KEY
from game.world import World


def text_cell(world: World, x: int, y: int) -> tuple[str, str, int] | None:
    """(text, role, height) for the ball's cell and the exit's, None for the rest."""
    here = sorted(world.at(x, y))
    kinds = [(e, world.get(e, Kind).name) for e in here if world.try_get(e, Kind) is not None]
    stack = sum(1 for e, kind in kinds if kind == "block" and world.alive(e))
    things = [kind for _e, kind in kinds if kind != "block"]
    if things:
        return ("o", "ball", stack) if things[-1] == "ball" else None
    exit_cell = world.resource(EXIT_KEY, None)
    if exit_cell is not None and tuple(exit_cell) == (x, y):
        return (">", "exit", stack)
    return None
