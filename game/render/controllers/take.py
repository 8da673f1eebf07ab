"""Octal games in the window: click the blocks to take, or a block and a count, Enter takes.

`Take(heap, count, left)` removes `count` blocks of a heap after its first `left` (0-based,
reading left to right). A click picks a block; a second click on another block of the same
heap picks the run between them; a digit 1-9 makes the run that many blocks around the
clicked one: from it rightwards if the code allows that take, else the allowed run of that
many that holds it, nearest first (so the last block and 2 takes the last two). The boxed
blocks are what Enter takes. The panel says the game's rule (what its code lets a move do,
who wins) and the takes allowed now; a refused take shows the ruleset's reason. No pyglet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    "click a block, then another: take the blocks between",
    "or click a block and press 1-9: take that many",
    "Enter: take the boxed blocks    {undo} / Ctrl+Z undo    {redo} redo",
    "{restart} restart    {quit} quit (saves)    {help} this help",
    "{pause} / Pause: pause the AI",
)


class TakeController(Controller):
    """The play controller for rulesets whose moves are Take commands (octal games)."""

    def _start(self, engine: Engine, seats: dict[str, Seat]) -> None:
        super()._start(engine, seats)
        self.picked: tuple[int, int] | None = None  # (heap, first block of the run)
        self.clicked: int | None = None  # the block clicked in that heap (digits keep it)
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

    def command(self) -> Take | None:
        """The take Enter would submit, or None with nothing picked."""
        if self.picked is None:
            return None
        return Take(self.picked[0], self.count, self.picked[1])

    def marked(self) -> frozenset[Cell]:
        """The cells Enter would take: the picked run."""
        if self.picked is None or not self.human_to_play:
            return frozenset()
        heap = self.heaps()[self.picked[0]]
        first = heap.x + self.picked[1]
        last = min(heap.x + heap.size, first + self.count)
        return frozenset((x, heap.y) for x in range(first, last))

    def rule_lines(self) -> tuple[str, ...]:
        """The game in a few lines: what its code lets a move do and who wins."""
        rules: Any = self.engine.ruleset
        game, misere = getattr(rules, "game", None), bool(getattr(rules, "misere", False))
        if game is None:
            return ()
        ending = "who takes the last block LOSES (misere)" if misere else \
            "who takes the last block wins"
        return (f"Rule {game.code}: {ending}", *game.in_words())

    def legal_lines(self) -> tuple[str, ...]:
        """The takes allowed now, heap by heap: how many blocks, and from where."""
        counts: dict[int, set[int]] = {}
        for command in self.legal():
            if isinstance(command, Take):
                counts.setdefault(command.heap, set()).add(command.count)
        heaps = self.heaps()
        return tuple(f"heap {h} ({heaps[h].size}): take "
                     + " or ".join(map(str, sorted(counts[h]))) for h in sorted(counts))

    def view(self) -> UiView:
        ui = super().view()
        modal = self.settings.label(*HELP) if self.show_help and not self.handing_over \
            else ui.modal
        info: list[str] = []
        command = self.command()
        if command is not None and self.human_to_play:
            first = command.left
            blocks = f"block {first}" if self.count == 1 else \
                f"blocks {first}-{first + self.count - 1}"
            why = self.engine.ruleset.why_illegal(self.engine.world, command)
            info.append(f"heap {command.heap}, {blocks}: Enter takes {self.count}"
                        if why is None else f"heap {command.heap}, {blocks}: {why}")
        if self.human_to_play and not ui.hide_board:
            info += ["Takes allowed now:", *self.legal_lines()]
        return UiView(marks=frozenset() if ui.hide_board else self.marked(),
                      hide_board=ui.hide_board, modal=modal, message=ui.message,
                      footer=ui.footer, info=tuple(info), tooltip=self.rule_lines())

    def click(self, cell: Cell | None) -> None:
        if self.handing_over or self.show_help:
            super().click(cell)
            return
        if cell is None or not self.human_to_play:
            return
        found = self.block_at(cell)
        if found is None:
            self.picked = self.clicked = None
            self.message = "Click a block to take from there."
        elif self.picked is not None and found[0] == self.picked[0] and self.count == 1 \
                and found[1] != self.clicked and self.clicked is not None:
            first, last = sorted((self.clicked, found[1]))  # a second block: the run between
            self.picked, self.count = (found[0], first), last - first + 1
            self.message = "Enter takes the boxed blocks."
        elif self.picked is not None and found == (self.picked[0], self.clicked) \
                and self.count == 1:
            self.picked = self.clicked = None  # the picked block again: dropped
            self.message = ""
        else:
            self.clicked = found[1]
            self.count = 1
            self.picked = found
            self.message = "Click another block, or press 1-9: how many; Enter takes them."
        self._changed()

    def key(self, name: str, ctrl: bool = False) -> None:
        name = name.upper()
        if self.handing_over:
            super().key(name, ctrl)
        elif name in DIGITS:
            self.choose_count(DIGITS[name])
        elif name in TAKE_KEYS and self.human_to_play:
            self.take()
        elif name in ("E", "SPACE"):
            self._say("Octal games have no end turn: click the blocks to take, then Enter.")
        else:
            super().key(name, ctrl)

    def choose_count(self, count: int) -> None:
        """Take `count` blocks around the clicked one: rightwards from it when the code allows
        it, else the allowed run of `count` that holds it, nearest first; with none allowed,
        the run from it (or up to the heap's end), whose refusal the panel explains."""
        self.count = count
        if self.picked is not None and self.clicked is not None:
            heap = self.picked[0]
            size = self.heaps()[heap].size
            clicked = self.clicked
            runs = [first for first in range(clicked, clicked - count, -1)
                    if first >= 0 and first + count <= size]
            rules, world = self.engine.ruleset, self.engine.world
            legal = [first for first in runs  # legal_actions lists a mirrored take once
                     if rules.why_illegal(world, Take(heap, count, first)) is None]
            first = legal[0] if legal else max(0, min(clicked, size - count))
            self.picked = (heap, first)
            self.message = "Enter takes the boxed blocks."
        self._changed()

    def take(self) -> None:
        command = self.command()
        if command is None:
            self._say("Click a block first, then another or 1-9 for how many.")
            return
        if self.submit(command):
            self.picked = self.clicked = None
            self.count = 1
            self._changed()

    def _after_command(self) -> None:
        self.picked = self.clicked = None
        self.count = 1
        super()._after_command()
