"""Undo and redo as a player against an AI means them: by turns of the human, not commands.

Undoing only an AI's last command would have the AI play again at once, and redoing a human's
command and then letting the AI think afresh would play a different reply (its seat's RNG has
moved on, a timed search finds another move). So the clients undo back to the last position a
human had to play, and redo the human's command and then the AI's undone replies, the same
commands in the same order, until a human is to play again.
"""

from __future__ import annotations

from collections.abc import Callable

from game.engine import Engine


def undo_turn(engine: Engine, human: Callable[[str], bool]) -> bool:
    """Undo back to the last position where `human(side to play)` held; False (and the game
    put back as it was) when the history holds no such position."""
    undone = 0
    while engine.history:
        engine.undo()
        undone += 1
        if human(engine.side):
            return True
    for _ in range(undone):  # no human ever played here: nothing of theirs to take back
        engine.redo()
    return False


def redo_turn(engine: Engine, human: Callable[[str], bool]) -> bool:
    """Redo one command, then the undone commands of the AI seats after it, until a human is
    to play, the game is over or nothing is left to redo; False when there was nothing."""
    if engine.redo() is None:
        return False
    while engine.redo_stack and not engine.over and not human(engine.side):
        engine.redo()
    return True
