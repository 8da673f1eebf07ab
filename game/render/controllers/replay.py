"""The replay viewer's controller: play, pause, step and speed over a recorded game (no pyglet).

The recorded game is rebuilt, then undone to its start; stepping forward is `engine.redo()`
and stepping back `engine.undo()`, so every position shown is the engine's own, exactly.
Keys: Space play/pause, Right/Left step, Home/End jump, +/- (or Up/Down) speed, Q quit.
It speaks the same small protocol as the play Controller, so the same App window drives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.match import DRAW
from game.render.uiview import Cell, UiView

if TYPE_CHECKING:
    from game.engine import Engine

SPEEDS = (1, 2, 4, 8, 16, 32, 64)  # commands per second
HELP = "Space play/pause  Right/Left step  Home/End jump  +/- speed  Q quit"


class ReplayController:
    """Walks an engine through its own history, forward and back."""

    def __init__(self, engine: Engine, fps: int = 30) -> None:
        self.engine = engine
        engine.redo_stack = []  # a save's own redo stack is not part of what was played
        while engine.undo() is not None:
            pass  # rewind: every command now waits on the redo stack, in order
        self.total = len(engine.redo_stack)
        self.fps = max(1, fps)
        self.playing = False
        self.speed_index = 2
        self.quit = False
        self.generation = 1
        self.version = 0
        self._due = 0.0  # commands owed to the clock at this speed

    @property
    def position(self) -> int:
        return len(self.engine.history)

    @property
    def speed(self) -> int:
        return SPEEDS[self.speed_index]

    def view(self) -> UiView:
        state = "playing" if self.playing else "paused"
        footer = f"command {self.position}/{self.total}  {state}  x{self.speed}/s   {HELP}"
        modal: tuple[str, ...] = ()
        if self.engine.over and self.position == self.total:
            winner, reason = self.engine.outcome or (DRAW, "")
            modal = ("Draw" if winner == DRAW else f"{winner} wins", reason,
                     "Left / Home to look back, Q to quit")
        return UiView(footer=footer, modal=modal)

    def click(self, cell: Cell | None) -> None:
        self.toggle()

    def key(self, name: str, ctrl: bool = False) -> None:
        name = name.upper()
        if name == "SPACE":
            self.toggle()
        elif name in ("RIGHT", "PERIOD"):
            self.playing = False
            self.step(1)
        elif name in ("LEFT", "COMMA"):
            self.playing = False
            self.step(-1)
        elif name == "HOME":
            self.step(-self.position)
        elif name == "END":
            self.step(self.total - self.position)
        elif name in ("PLUS", "EQUAL", "NUM_ADD", "UP"):
            self.speed_index = min(len(SPEEDS) - 1, self.speed_index + 1)
            self._changed()
        elif name in ("MINUS", "NUM_SUBTRACT", "DOWN"):
            self.speed_index = max(0, self.speed_index - 1)
            self._changed()
        elif name in ("Q", "ESCAPE"):
            self.quit = True

    def toggle(self) -> None:
        if not self.playing and self.position == self.total:
            self.step(-self.position)  # play from the start once at the end
        self.playing = not self.playing
        self._changed()

    def step(self, count: int) -> int:
        """Move `count` commands forward (or back when negative); returns how many moved."""
        moved = 0
        while count > 0 and self.engine.redo() is not None:
            count -= 1
            moved += 1
        while count < 0 and self.engine.undo() is not None:
            count += 1
            moved += 1
        if moved:
            self._changed()
        return moved

    def tick(self) -> bool:
        """Called `fps` times a second: plays `speed` commands a second while playing."""
        if not self.playing:
            return False
        self._due += self.speed / self.fps
        whole = int(self._due)
        self._due -= whole
        moved = self.step(whole) if whole else 0
        if self.position == self.total:
            self.playing = False
            self._changed()
        return moved > 0

    def save(self, tell: bool = False) -> None:
        """Nothing to save: a replay is read-only."""

    def _changed(self) -> None:
        self.version += 1
