"""The map editor window: the draft drawn with the game's sprites on a grid, the palette in
labelled groups, the map's fields, and a question before unsaved work is lost.

The draft may be unplayable while it is being painted, so this draws each cell's palette entry
straight from the draft (the frame the game would draw for it: a unit's idle sprite in its
side's colours, autotiled water and walls, word tiles) instead of going through an Engine.
Without sprite sheets, cells are plain colour squares, as in the PNG.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from game.data import PaletteEntry, units
from game.render import colors
from game.render.controllers.editor import FIELDS, KEY_ACTIONS, EditorController
from game.render.editor_layout import KEY_LINE, KEYS, PalettePlan, Swatch, plan_palette
from game.render.layout import MARGIN, Layout
from game.render.sprites import SpriteBook, autotile, sprite_book
from game.render.uiview import Cell
from game.render.views.board import AUTOTILED
from game.session.settings import Settings

BACK, CELLS, GRID, MARKS, TEXT, MODAL, MODAL_TEXT = (Group(order=i) for i in range(7))
ASKING = (255, 200, 120)
GRID_LINE = (120, 116, 104)


def frame_of(entry: PaletteEntry, kinds_at: Any, x: int, y: int) -> tuple[str, str]:
    """(sprite frame, side) the game draws for a palette entry at (x, y); `kinds_at(x, y)`
    lists the kinds painted there (for autotiled water and walls)."""
    if entry.prefab == "word":
        return f"word.{entry.word}", ""
    if entry.prefab == "hero":
        name = entry.hero_class or next(iter(units().heroes), "bulwark")
        return f"{name}.{'left' if entry.team == 'blue' else 'right'}.idle", entry.team
    if entry.prefab in ("hq", "tower"):
        return entry.prefab, entry.team
    if entry.kind in AUTOTILED:
        return f"{entry.kind}.{autotile(kinds_at, x, y, AUTOTILED[entry.kind])}", ""
    return entry.kind, ""


class EditorScreen:
    """Draws an EditorController's draft and panel; rebuilt whenever its version changes, the
    hover marks whenever the pointer moves to another cell or swatch."""

    def __init__(self, ctrl: EditorController, width: int, height: int) -> None:
        self.ctrl = ctrl
        self.width, self.height = width, height
        self.book: SpriteBook | None = sprite_book()
        self.batch, self.overlay = Batch(), Batch()
        self.keep: list[Any] = []
        self.overlay_keep: list[Any] = []
        self.seen = -1
        self.hover_top = 0
        self.hover: tuple[Cell | None, int | None] = (None, None)  # board cell, swatch index
        self.hover_seen: tuple[Any, ...] = ()
        self._plan: tuple[tuple[int, int, int, int], PalettePlan] | None = None

    @property
    def layout(self) -> Layout:
        d = self.ctrl.draft
        return Layout(self.width, self.height, d.width, d.height)

    @property
    def plan(self) -> PalettePlan:
        lay = self.layout
        key = (lay.width, lay.height, lay.cols, lay.rows)
        if self._plan is None or self._plan[0] != key:
            self._plan = (key, plan_palette(lay, self.ctrl.groups))
        return self._plan[1]

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.seen = -1

    def point(self, px: float, py: float) -> None:
        """The pointer is at (px, py): mark the cell or swatch under it."""
        swatch = self.plan.swatch_at(px, py)
        self.hover = (self.layout.cell_at(px, py), swatch.index if swatch else None)

    def draw(self) -> None:
        if self.seen != self.ctrl.version:
            self._rebuild()
            self.seen = self.ctrl.version
            self.hover_seen = ()
        if self.hover_seen != (self.seen, *self.hover):
            self._hover_marks()
            self.hover_seen = (self.seen, *self.hover)
        self.batch.draw()
        self.overlay.draw()

    def swatch_at(self, px: float, py: float) -> int | None:
        """The palette index under a click in the panel, or None."""
        swatch = self.plan.swatch_at(px, py)
        return swatch.index if swatch is not None else None

    # -- the board ------------------------------------------------------------------------

    def _rebuild(self) -> None:
        for drawable in self.keep:
            drawable.delete()
        self.batch, self.keep = Batch(), []
        lay, ctrl = self.layout, self.ctrl
        self._rect(0, 0, self.width, self.height, colors.BACKGROUND, BACK)
        ox, oy = lay.origin
        w, h = lay.cell * lay.cols, lay.cell * lay.rows
        self._rect(ox - 3, oy - 3, w + 6, h + 6, (10, 10, 12), BACK)
        self._rect(ox, oy, w, h, colors.FLOOR, BACK)
        for (x, y) in sorted(ctrl.draft.cells):
            entry = ctrl.entry_at((x, y))
            if entry is not None:
                left, bottom, size, _ = lay.cell_rect(x, y)
                self._entry(entry, left, bottom, size, (x, y))
        self._grid(lay)
        if ctrl.corner is not None:
            left, bottom, size, _ = lay.cell_rect(*ctrl.corner)
            self.keep.append(shapes.Box(left, bottom, size, size, thickness=3,
                                        color=colors.SELECT, batch=self.batch, group=MARKS))
        self._panel()
        if ctrl.asking:
            self._modal(ctrl.asking)

    def _grid(self, lay: Layout) -> None:
        """A line between every two cells (on boards whose cells are big enough to see)."""
        if lay.cell < 6:
            return
        ox, oy = lay.origin
        w, h = lay.cell * lay.cols, lay.cell * lay.rows
        for col in range(lay.cols + 1):  # one-pixel rectangles: lines fall between pixels
            self._rect(ox + col * lay.cell, oy, 1, h + 1, GRID_LINE, GRID)
        for row in range(lay.rows + 1):
            self._rect(ox, oy + row * lay.cell, w + 1, 1, GRID_LINE, GRID)

    def _entry(self, entry: PaletteEntry, left: float, bottom: float, size: int,
               cell: Cell | None, batch: Batch | None = None, keep: list[Any] | None = None,
               group: Group = CELLS) -> None:
        """One palette entry drawn in a square: its sprite, else its colour (a spawn is a
        ring of its side's colour, as nothing stands there until minions come)."""
        batch = batch or self.batch
        keep = self.keep if keep is None else keep
        x, y = cell if cell is not None else (0, 0)
        image = None
        if self.book is not None and entry.prefab not in ("floor", "spawn"):
            frame, side = frame_of(entry, self._kinds_at if cell else (lambda *_: []), x, y)
            image = self.book.frame(frame, side)
        if image is not None:
            sprite = pyglet.sprite.Sprite(image, left, bottom, batch=batch, group=group)
            sprite.scale = size / self.book.cell  # type: ignore[union-attr]
            keep.append(sprite)
            if entry.prefab == "hero" and not entry.hero_class and size >= 12:
                keep.append(pyglet.text.Label("?", font_size=max(6, size * 0.3), weight="bold",
                                              x=left + size - 2, y=bottom + size - 1,
                                              anchor_x="right", anchor_y="top",
                                              color=(255, 255, 255, 255), batch=batch,
                                              group=MODAL_TEXT if group is MODAL else TEXT))
        elif entry.prefab == "spawn":
            ring = colors.side_color(entry.team)
            keep.append(shapes.Circle(left + size / 2, bottom + size / 2, size * 0.4,
                                      color=ring, batch=batch, group=group))
            keep.append(shapes.Circle(left + size / 2, bottom + size / 2, size * 0.22,
                                      color=colors.FLOOR, batch=batch, group=group))
        else:
            keep.append(shapes.Rectangle(left, bottom, size, size, color=entry.color,
                                         batch=batch, group=group))

    def _kinds_at(self, x: int, y: int) -> list[str]:
        entry = self.ctrl.entry_at((x, y))
        return [entry.kind] if entry is not None else []

    # -- the panel ------------------------------------------------------------------------

    def _panel(self) -> None:
        lay, ctrl = self.layout, self.ctrl
        x0 = lay.panel_x + MARGIN
        self._rect(lay.panel_x, 0, lay.panel_width, self.height, colors.PANEL, BACK)
        y = self.height - MARGIN
        title = ctrl.path.name + ("  (unsaved)" if ctrl.dirty else "")
        y = self._text(title, x0, y, 13, colors.TEXT, bold=True)
        ruleset = ctrl.draft.sidecar.get("ruleset", "skirmish")
        y = self._text(f"{ctrl.draft.width}x{ctrl.draft.height} cells   {ruleset}   "
                       f"tool: {ctrl.tool}", x0, y, 10, colors.DIM)
        y = self._text(f"brush: {ctrl.entry.name}", x0, y, 11, colors.SELECT, bold=True)
        for name in FIELDS:
            if name == "ruleset":
                continue
            value = ctrl.draft.sidecar.get(name, "-")
            rows = value.items() if isinstance(value, dict) else [("", value)]
            for part, held in rows:  # heroes: a line per side
                held = ", ".join(map(str, held)) if isinstance(held, list) else held
                y = self._text(f"{name} {part}: {held}".replace(" :", ":")[:48], x0, y, 9,
                               colors.TEXT)
        self.hover_top = y - 2  # the hover line: what is under the pointer
        y -= 18
        # Whole words, within the panel ('... the folder /tmp/x is no' / 't writable' ran
        # out of the window's right edge); a path longer than a row is still cut.
        for row in textwrap.wrap(ctrl.message, 43)[:4]:
            y = self._text(row, x0, y, 9, ASKING)
        plan = self.plan
        for heading in plan.headings:
            self._text(heading.title, heading.x, heading.top, 9, colors.DIM, bold=True)
        for swatch in plan.swatches:
            if swatch.index == ctrl.brush:
                self._rect(swatch.x - 3, swatch.y - 3, swatch.size + 6, swatch.size + 6,
                           colors.SELECT, BACK)
            self._rect(swatch.x, swatch.y, swatch.size, swatch.size, colors.FLOOR, BACK)
            self._entry(ctrl.entries[swatch.index], swatch.x, swatch.y, swatch.size, None)
        for i, line in enumerate(self.ctrl.settings.label(*KEYS)):
            self._text(line, x0, MARGIN + KEY_LINE * (len(KEYS) - i), 8, colors.DIM)

    def _hover_marks(self) -> None:
        """The box on the hovered cell or swatch, and the panel line naming what is there."""
        for drawable in self.overlay_keep:
            drawable.delete()
        self.overlay, self.overlay_keep = Batch(), []
        cell, index = self.hover
        lay = self.layout
        line = ""
        if cell is not None and not self.ctrl.asking:
            left, bottom, size, _ = lay.cell_rect(*cell)
            self.overlay_keep.append(shapes.Box(left, bottom, size, size,
                                                thickness=max(2, size // 12),
                                                color=colors.SELECT, batch=self.overlay))
            here = self.ctrl.entry_at(cell)
            line = f"cell {cell[0]},{cell[1]}: {here.name if here else 'floor'}"
        elif index is not None:
            swatch: Swatch = self.plan.spot(index)
            self.overlay_keep.append(shapes.Box(swatch.x - 1, swatch.y - 1, swatch.size + 2,
                                                swatch.size + 2, thickness=2,
                                                color=colors.TEXT, batch=self.overlay))
            line = f"palette: {self.ctrl.entries[index].name}"
        if line:
            self.overlay_keep.append(pyglet.text.Label(
                line, font_size=9, x=lay.panel_x + MARGIN, y=self.hover_top,
                anchor_y="top", color=(*colors.TEXT, 255), batch=self.overlay))

    def _modal(self, lines: tuple[str, ...]) -> None:
        lay = self.layout
        width = min(lay.panel_x - 40, 420)
        height = 30 + 24 * len(lines)
        cx, cy = lay.panel_x // 2, lay.height // 2
        left, bottom = cx - width // 2, cy - height // 2
        self.keep.append(shapes.Rectangle(left - 2, bottom - 2, width + 4, height + 4,
                                          color=colors.SELECT, batch=self.batch, group=MODAL))
        self.keep.append(shapes.Rectangle(left, bottom, width, height, color=(28, 30, 38),
                                          batch=self.batch, group=MODAL))
        y = bottom + height - 20
        for i, line in enumerate(lines):
            self.keep.append(pyglet.text.Label(
                line, font_size=14 if i == 0 else 11, weight="bold" if i == 0 else "normal",
                x=cx, y=y, anchor_x="center", anchor_y="center",
                color=(*(ASKING if i == 0 else colors.TEXT), 255), batch=self.batch,
                group=MODAL_TEXT))
            y -= 24

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
    """Window events to the editor controller. The window keeps this object (pyglet holds a
    window's handlers weakly: a lost EditorApp was a black window that ignored every key)."""

    def __init__(self, window: Any, ctrl: EditorController,
                 settings: Settings | None = None) -> None:
        self.window = window
        self.ctrl = ctrl
        self.keymap = settings.translation(KEY_ACTIONS) if settings is not None else {}
        if settings is not None:
            ctrl.settings = settings
        self.screen = EditorScreen(ctrl, window.width, window.height)
        self.last: tuple[int, int] | None = None
        window.editor_app = self
        window.push_handlers(on_draw=self.on_draw, on_mouse_press=self.on_mouse_press,
                             on_mouse_drag=self.on_mouse_drag,
                             on_mouse_motion=self.on_mouse_motion,
                             on_key_press=self.on_key_press, on_resize=self.on_resize,
                             on_close=self.on_close)

    def on_draw(self) -> None:
        self.window.clear()
        self.screen.draw()

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        from pyglet.window import mouse

        if self.ctrl.asking:
            return  # the question waits for a key
        swatch = self.screen.swatch_at(x, y)
        if swatch is not None:
            self.ctrl.pick(swatch)
            return
        self.last = self.screen.layout.cell_at(x, y)
        self.ctrl.click(self.last, erase=bool(button & mouse.RIGHT))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        from pyglet.window import mouse

        self.screen.point(x, y)
        cell = self.screen.layout.cell_at(x, y)
        if cell != self.last and self.ctrl.tool != "rect" and not self.ctrl.asking:
            self.last = cell
            self.ctrl.click(cell, erase=bool(buttons & mouse.RIGHT))

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.screen.point(x, y)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        name = key.symbol_string(symbol)
        name = self.keymap.get(name, name)  # the player's key bindings (Settings)
        if name:  # '': a default key whose action the player moved elsewhere
            self.ctrl.key(name, ctrl=bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND)))
        self._maybe_close()
        return True  # Escape too: pyglet's own handler would close without asking

    def on_close(self) -> bool:
        """The window's close button asks like Q does when there are unsaved changes."""
        self.ctrl.ask_quit()
        self._maybe_close()
        return True

    def on_resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)

    def _maybe_close(self) -> None:
        if self.ctrl.quit:
            self.window.close()
