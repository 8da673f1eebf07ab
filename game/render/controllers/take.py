"""Octal games in the window: click a block, choose how many with 1-9, Enter takes them.

`Take(heap, count, left)` removes `count` blocks of a heap starting at its block number
`left` (0-based, reading left to right), so a click picks the heap and `left`, a digit picks
`count`, and the red overlay shows the blocks Enter would take. A refused take shows the
ruleset's reason. No pyglet here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.commands import Take
from game.render.controllers.match import Controller
from game.render.uiview import Cell, UiView

if TYPE_CHECKING:
    from game.engine import Engine
    from game.rulesets.octal.ruleset import Heap
    from game.session.match import Seat

DIGITS = {f"_{n}": n for n in range(1, 10)} | {f"NUM_{n}": n for n in range(1, 10)}
TAKE_KEYS = ("RETURN", "ENTER", "NUM_ENTER")
HELP = (
    "Keys",
    "click a block: take from there    1-9: how many",
    "Enter: take them    U / Ctrl+Z undo    Y redo",
    "R restart    Q quit (saves)    H this help",
    "K / Pause: pause the AI",
)


class TakeController(Controller):
    """The play controller for rulesets whose moves are Take commands (octal games)."""

    def _start(self, engine: Engine, seats: dict[str, Seat]) -> None:
        super()._start(engine, seats)
        self.picked: tuple[int, int] | None = None  # (heap, index of the block in the heap)
        self.count = 1

    def heaps(self) -> list[Heap]:
        from game.rulesets.octal.ruleset import heaps_of

        return heaps_of(self.engine.world)

    def block_at(self, cell: Cell) -> tuple[int, int] | None:
        """(heap, index in heap) of the block on `cell`, or None."""
        x, y = cell
        for number, heap in enumerate(self.heaps()):
            if heap.y == y and heap.x <= x < heap.x + heap.size:
                return number, x - heap.x
        return None

    def marked(self) -> frozenset[Cell]:
        """The cells Enter would take: the picked block and the count-1 after it."""
        if self.picked is None or not self.human_to_play:
            return frozenset()
        heap = self.heaps()[self.picked[0]]
        first = heap.x + self.picked[1]
        last = min(heap.x + heap.size, first + self.count)
        return frozenset((x, heap.y) for x in range(first, last))

    def view(self) -> UiView:
        ui = super().view()
        modal = HELP if self.show_help and not self.handing_over else ui.modal
        picked = ""
        if self.picked is not None and self.human_to_play:
            picked = f"heap {self.picked[0]}, from block {self.picked[1]}: take {self.count}"
        return UiView(marks=frozenset() if ui.hide_board else self.marked(),
                      hide_board=ui.hide_board, modal=modal, message=ui.message,
                      footer=ui.footer, info=(picked,) if picked else ())

    def click(self, cell: Cell | None) -> None:
        if self.handing_over or self.show_help:
            super().click(cell)
            return
        if cell is None or not self.human_to_play:
            return
        found = self.block_at(cell)
        self.picked = None if found == self.picked else found
        self.message = "" if found is not None else "Click a block to take from there."
        if found is not None:
            self.message = "1-9: how many blocks; Enter takes them."
        self._changed()

    def key(self, name: str, ctrl: bool = False) -> None:
        name = name.upper()
        if self.handing_over:
            super().key(name, ctrl)
        elif name in DIGITS:
            self.count = DIGITS[name]
            self._changed()
        elif name in TAKE_KEYS and self.human_to_play:
            self.take()
        elif name in ("E", "SPACE"):
            self._say("Octal games have no end turn: click a block, 1-9, then Enter.")
        else:
            super().key(name, ctrl)

    def take(self) -> None:
        if self.picked is None:
            self._say("Click a block first, then choose how many with 1-9.")
            return
        heap, left = self.picked
        if self.submit(Take(heap, self.count, left)):
            self.picked = None
            self.count = 1
            self._changed()

    def _after_command(self) -> None:
        self.picked = None
        super()._after_command()
