"""What `reset` does in every environment: rewind the game by exact undo, or build it anew."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.engine import Engine
    from game.levels.maps import GameMap


def restart(engine: Engine, game_map: GameMap, seed: int, same_seed: bool) -> Engine:
    """The game at its start: the same engine rewound when the seed is the one it was made
    with (undo is exact, and setting a ruleset up again reads its YAML: ~19 ms), else anew."""
    from game.engine import Engine

    if same_seed:
        engine.retract_to(0)  # one rollback to the first command's mark, not one per command
        engine.redo_stack.clear()
        engine.queue.clear()
        return engine
    engine.world.close()
    return Engine.from_game_map(game_map, seed=seed)
