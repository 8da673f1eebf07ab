"""The map editor window: the draft as coloured cells, a clickable palette, the sidecar fields.

The draft may be unplayable while it is being painted, so this draws palette colours straight
from the draft instead of going through an Engine.
"""

from __future__ import annotations

from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from game.render import colors
from game.render.controllers.editor import FIELDS, EditorController
from game.render.layout import MARGIN, Layout

BACK, CELLS, MARKS, TEXT = (Group(order=i) for i in range(4))
SWATCH = 22
SWATCH_COLUMNS = 11
KEYS = ("click/drag: use tool   [ ] or swatch: brush",
        "B paint   X erase   F rectangle (2 clicks)",
        "U / Ctrl+Z undo   Y redo   S save",
        "Ctrl+arrows resize   Q quit (without saving)")


class EditorScreen:
    """Draws an EditorController's draft and panel; rebuilt whenever its version changes."""

    def __init__(self, ctrl: EditorController, width: int, height: int) -> None:
        self.ctrl = ctrl
        self.width, self.height = width, height
        self.batch = Batch()
        self.keep: list[Any] = []
        self.seen = -1

    @property
    def layout(self) -> Layout:
        d = self.ctrl.draft
        return Layout(self.width, self.height, d.width, d.height)

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.seen = -1

    def draw(self) -> None:
        if self.seen != self.ctrl.version:
            self._rebuild()
            self.seen = self.ctrl.version
        self.batch.draw()

    def swatch_at(self, px: float, py: float) -> int | None:
        """The palette index under a click in the panel, or None."""
        for index, (x, y) in enumerate(self._swatch_spots()):
            if x <= px < x + SWATCH and y <= py < y + SWATCH:
                return index
        return None

    # -- building -------------------------------------------------------------------------

    def _rebuild(self) -> None:
        self.batch, self.keep = Batch(), []
        lay, ctrl = self.layout, self.ctrl
        self._rect(0, 0, self.width, self.height, colors.BACKGROUND, BACK)
        ox, oy = lay.origin
        self._rect(ox, oy, lay.cell * lay.cols, lay.cell * lay.rows, colors.FLOOR, BACK)
        for (x, y), color in sorted(ctrl.draft.cells.items()):
            left, bottom, size, _ = lay.cell_rect(x, y)
            self._rect(left, bottom, size, size, color, CELLS)
        if lay.cell >= 8:
            for (x, y) in ctrl.draft.cells:
                left, bottom, size, _ = lay.cell_rect(x, y)
                self.keep.append(shapes.Box(left, bottom, size, size, thickness=1,
                                            color=colors.GRID, batch=self.batch, group=MARKS))
        if ctrl.corner is not None:
            left, bottom, size, _ = lay.cell_rect(*ctrl.corner)
            self.keep.append(shapes.Box(left, bottom, size, size, thickness=3,
                                        color=colors.SELECT, batch=self.batch, group=MARKS))
        self._panel()

    def _panel(self) -> None:
        lay, ctrl = self.layout, self.ctrl
        x0 = lay.panel_x + MARGIN
        self._rect(lay.panel_x, 0, lay.panel_width, self.height, colors.PANEL, BACK)
        y = self.height - MARGIN
        y = self._text(ctrl.path.name, x0, y, 14, colors.TEXT, bold=True)
        y = self._text(f"{ctrl.draft.width}x{ctrl.draft.height} cells   tool: {ctrl.tool}",
                       x0, y, 10, colors.DIM)
        y = self._text(f"brush: {ctrl.entry.name}", x0, y, 11, colors.TEXT, bold=True)
        for name in FIELDS:
            value = ctrl.draft.sidecar.get(name, "-")
            y = self._text(f"{name}: {value}"[:44], x0, y, 9, colors.TEXT)
        if ctrl.message:
            for start in range(0, min(len(ctrl.message), 180), 45):
                y = self._text(ctrl.message[start:start + 45], x0, y, 9, (255, 200, 120))
        for index, (sx, sy) in enumerate(self._swatch_spots()):
            entry = ctrl.entries[index]
            if index == ctrl.brush:
                self._rect(sx - 3, sy - 3, SWATCH + 6, SWATCH + 6, colors.SELECT, CELLS)
            self._rect(sx, sy, SWATCH, SWATCH, entry.color, MARKS)
        for i, line in enumerate(KEYS):
            self._text(line, x0, MARGIN + 15 * (len(KEYS) - i), 8, colors.DIM)

    def _swatch_spots(self) -> list[tuple[int, int]]:
        lay = self.layout
        x0, top = lay.panel_x + MARGIN, self.height // 2
        return [(x0 + (i % SWATCH_COLUMNS) * (SWATCH + 3), top - (i // SWATCH_COLUMNS) * (SWATCH + 3))
                for i in range(len(self.ctrl.entries))]

    def _rect(self, x: float, y: float, w: float, h: float, color: tuple[int, int, int],
              group: Group) -> None:
        self.keep.append(shapes.Rectangle(x, y, w, h, color=color, batch=self.batch, group=group))

    def _text(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
              bold: bool = False) -> int:
        self.keep.append(pyglet.text.Label(text, font_size=size, x=x, y=y, anchor_y="top",
                                           weight="bold" if bold else "normal",
                                           color=(*color, 255), batch=self.batch, group=TEXT))
        return y - int(size * 1.7)


class EditorApp:
    """Window events to the editor controller."""

    def __init__(self, window: Any, ctrl: EditorController) -> None:
        self.window = window
        self.ctrl = ctrl
        self.screen = EditorScreen(ctrl, window.width, window.height)
        self.last: tuple[int, int] | None = None
        window.push_handlers(on_draw=self.on_draw, on_mouse_press=self.on_mouse_press,
                             on_mouse_drag=self.on_mouse_drag, on_key_press=self.on_key_press,
                             on_resize=self.on_resize)

    def on_draw(self) -> None:
        self.window.clear()
        self.screen.draw()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        swatch = self.screen.swatch_at(x, y)
        if swatch is not None:
            self.ctrl.pick(swatch)
            return
        self.last = self.screen.layout.cell_at(x, y)
        self.ctrl.click(self.last)

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        cell = self.screen.layout.cell_at(x, y)
        if cell != self.last and self.ctrl.tool != "rect":
            self.last = cell
            self.ctrl.click(cell)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        self.ctrl.key(key.symbol_string(symbol),
                      ctrl=bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND)))
        if self.ctrl.quit:
            self.window.close()
        return True

    def on_resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)
