"""One frame of the client: the board view, the side panel and any modal box, in one Batch.

The screen only reads the engine; it rebuilds its batch when told the state changed
(`invalidate`), so drawing an unchanged frame costs one `batch.draw()`.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from game.render import colors
from game.render.layout import MARGIN, Layout
from game.render.panels import event_lines, rule_lines, status_line
from game.render.uiview import UiView
from game.render.views import view_for
from game.render.views.base import View, board_size

if TYPE_CHECKING:
    from game.engine import Engine

BACK_GROUP = Group(order=-1)
PANEL_GROUP = Group(order=20)
PANEL_TEXT = Group(order=21)
MODAL_GROUP = Group(order=30)
MODAL_TEXT = Group(order=31)
WRAP = 34  # characters per panel line at the panel's font size


class Screen:
    """Draws an engine's world at a given window size."""

    def __init__(self, engine: Engine, width: int, height: int, title: str = "") -> None:
        self.engine = engine
        self.title = title or (engine.map.name if engine.map is not None else "Rulefront")
        self.batch = Batch()
        self.keep: list[Any] = []
        self.ui = UiView()
        self.dirty = True
        self.resize(width, height)

    def resize(self, width: int, height: int) -> None:
        cols, rows = board_size(self.engine.world)
        self.layout = Layout(width, height, cols, rows)
        self.view: View = view_for(self.engine.ruleset.name)(self.engine.world, self.layout)
        self.dirty = True

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        return self.view.cell_at(px, py)

    def show(self, ui: UiView) -> None:
        """Use `ui` for the next frame (rebuilds only when it differs)."""
        if ui != self.ui:
            self.ui = ui
            self.dirty = True

    def invalidate(self) -> None:
        self.dirty = True

    def draw(self) -> None:
        if self.dirty:
            self._rebuild()
        self.batch.draw()

    # -- building -------------------------------------------------------------------------

    def _rebuild(self) -> None:
        # A fresh batch each time: deleting hundreds of shapes one by one costs more.
        self.batch = Batch()
        self.view.world = self.engine.world
        self.view.build(self.batch, self.ui)
        self.keep = [shapes.Rectangle(0, 0, self.layout.width, self.layout.height,
                                      color=colors.BACKGROUND, batch=self.batch,
                                      group=BACK_GROUP)]
        self._panel()
        if self.ui.modal:
            self._modal(self.ui.modal)
        self.dirty = False

    def _panel(self) -> None:
        lay = self.layout
        x0 = lay.panel_x
        self.keep.append(shapes.Rectangle(x0, 0, lay.panel_width, lay.height, color=colors.PANEL,
                                          batch=self.batch, group=PANEL_GROUP))
        y = lay.height - MARGIN
        y = self._text(self.title, x0 + MARGIN, y, 15, colors.TEXT, bold=True)
        y = self._text(self.engine.ruleset.name, x0 + MARGIN, y, 10, colors.DIM)
        y -= 6
        y = self._wrapped(status_line(self.engine), x0 + MARGIN, y, 12, colors.TEXT, bold=True)
        for line in self.ui.info:
            y = self._wrapped(line, x0 + MARGIN, y, 11, colors.SELECT)
        if self.ui.message:
            y = self._wrapped(self.ui.message, x0 + MARGIN, y, 10, (255, 200, 120))
        if self.engine.world.resource("rules") is not None:  # descent and octal have none
            y -= 8
            y = self._text("Rules in force", x0 + MARGIN, y, 11, colors.DIM, bold=True)
            for rule in rule_lines(self.engine.world):
                y = self._text(rule, x0 + MARGIN + 6, y, 10, colors.TEXT)
        y -= 8
        y = self._text("Events", x0 + MARGIN, y, 11, colors.DIM, bold=True)
        if self.ui.hide_board:
            return  # the log would tell the next player what happened before the hand-over
        for line in event_lines(self.engine):
            y = self._text(line[:WRAP + 4], x0 + MARGIN + 6, y, 9, colors.TEXT)
        if self.ui.footer:
            self._wrapped(self.ui.footer, x0 + MARGIN, MARGIN + 28, 9, colors.DIM)

    def _modal(self, lines: tuple[str, ...]) -> None:
        lay = self.layout
        width = min(lay.panel_x - 40, 460)
        height = 30 + 22 * len(lines)
        cx, cy = lay.panel_x // 2, lay.height // 2
        left, bottom = cx - width // 2, cy - height // 2
        self.keep.append(shapes.Rectangle(left - 2, bottom - 2, width + 4, height + 4,
                                          color=colors.SELECT, batch=self.batch,
                                          group=MODAL_GROUP))
        self.keep.append(shapes.Rectangle(left, bottom, width, height, color=(28, 30, 38, 245),
                                          batch=self.batch, group=MODAL_GROUP))
        y = bottom + height - 18
        for i, line in enumerate(lines):
            self.keep.append(pyglet.text.Label(
                line, font_size=14 if i == 0 else 11, weight="bold" if i == 0 else "normal", x=cx, y=y,
                anchor_x="center", anchor_y="center", color=(*colors.TEXT, 255),
                batch=self.batch, group=MODAL_TEXT))
            y -= 22

    def _text(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
              bold: bool = False) -> int:
        self.keep.append(pyglet.text.Label(text, font_size=size, weight="bold" if bold else "normal", x=x, y=y,
                                           anchor_y="top", color=(*color, 255),
                                           batch=self.batch, group=PANEL_TEXT))
        return y - int(size * 1.7)

    def _wrapped(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
                 bold: bool = False) -> int:
        width = int(WRAP * 12 / size * (0.88 if bold else 1.0))  # bold letters are wider
        for line in textwrap.wrap(text, width) or [""]:
            y = self._text(line, x, y, size, color, bold)
        return y
