"""One frame of the client: the board view, the side panel and any modal box.

The screen only reads the engine. The backdrop, the board's floor and the panel's ground are
cleared straight into the frame; then two batches: the board (which its view updates in place,
touching only what changed) and the panel (whose labels are kept while their text stays the
same). Told the state changed (`invalidate`), it syncs on the next frame; an unchanged frame
costs a few clears and two `batch.draw()` calls. `play(events)` animates the last
command's events on top, rule changes included: a rule formed pulses in the rules panel, a rule
broken shows in red, marked (broken), and fades; `pose(t)` sets that animation to a given time
(offscreen movies).
"""

from __future__ import annotations

import math
import textwrap
import time
from typing import TYPE_CHECKING, Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from game.render import colors
from game.render.layout import MARGIN, PANEL_WIDTH, Layout
from game.render.panels import status_line
from game.render.uiview import UiView
from game.render.views import view_for
from game.render.views.base import View, board_size
from game.session.narrate import Chronicle
from game.session.rulesense import changes, panel_lines
from systems.rules import sentences

if TYPE_CHECKING:
    from game.engine import Engine

PANEL_BACK = Group(order=20)
PANEL_TEXT = Group(order=21)
MODAL_GROUP = Group(order=30)
MODAL_TEXT = Group(order=31)
WRAP = 34  # characters per panel line at the panel's font size
LOG_SIZE = 9  # the log's font size; a row is int(LOG_SIZE * 1.7) pixels
FOOTER_SPACE = 44  # pixels under the log kept for the footer
PULSE = 0.9  # seconds a changed rule pulses in the panel
BROKEN = colors.RULE_BROKEN


def rule_changes(events: list[Any]) -> dict[str, str]:
    """Rule text -> 'formed' or 'broken', from a command's RuleFormed / RuleBroken events (a
    rule broken and formed again by the same command did not change)."""
    return changes(events)


def pulse_color(kind: str, t: float) -> tuple[tuple[int, int, int], int]:
    """(colour, opacity) of a changed rule's line `t` seconds into its pulse: a formed rule
    flashes yellow twice and settles to plain text; a broken one fades out in red."""
    u = 0.0 if t < 0 else min(1.0, t / PULSE)
    if kind == "broken":
        return BROKEN, int(255 * (1 - u))
    glow = (1 - u) * (0.5 + 0.5 * math.cos(4 * math.pi * u))
    color = tuple(round(a + (b - a) * glow) for a, b in zip(colors.TEXT, colors.SELECT,
                                                             strict=True))
    return color, 255  # type: ignore[return-value]


class Screen:
    """Draws an engine's world at a given window size."""

    speed = 1.0  # animation speed, the player's setting (game/session/settings.py)

    def __init__(self, engine: Engine, width: int, height: int, title: str = "",
                 chronicle: Chronicle | None = None, panel: int = PANEL_WIDTH) -> None:
        self.engine = engine
        self.panel_room = panel  # the side panel's width (narrower in movies)
        # the game's log: the controller's, which follows every command as it is played; a
        # screen without one (offscreen pictures, the replay viewer) keeps its own
        self.chronicle = chronicle if chronicle is not None else Chronicle(engine)
        self.own_chronicle = chronicle is None
        self._log_rows: tuple[int, list[tuple[str, bool]]] | None = None
        self.hits: list[tuple[str, int, int, int, int]] = []  # panel buttons: (name, l, b, w, h)
        self.log_scroll_most = 0  # how far back the log's rows can scroll, as last drawn
        self.shapes: list[Any] = []
        self.title = title or (engine.map.name if engine.map is not None else "Rulefront")
        self.batch = Batch()  # the board
        self.panel = Batch()
        self.keep: list[Any] = []
        self.labels: dict[tuple[Any, ...], Any] = {}
        self._old_labels: dict[tuple[Any, ...], Any] = {}
        self.modal: list[Any] = []
        self.ui = UiView()
        self.dirty = True
        self.anim: tuple[float, float] | None = None  # (start on the clock, seconds long)
        self.pending: list[Any] | None = None  # events to animate from the next draw
        self.changed_rules: dict[str, str] = {}  # rule -> 'formed' / 'broken', while it pulses
        self.rule_labels: list[tuple[Any, str]] = []  # (panel label, how it changed)
        # where each word rule stood at the last rebuild (a broken rule's cells, after the
        # command), and the changed sentences' cells boxed on the board while they pulse
        self.spelled: dict[str, tuple[tuple[int, int], ...]] = {}
        self.rule_cells: dict[tuple[int, int], str] = {}
        self.rule_boxes: list[tuple[Any, str]] = []
        self.resize(width, height)

    def resize(self, width: int, height: int) -> None:
        cols, rows = board_size(self.engine.world)
        self.layout = Layout(width, height, cols, rows, self.ui.zoom, self.ui.pan,
                             self.panel_room)
        self.view: View = view_for(self.engine.ruleset.name)(self.engine.world, self.layout)
        for drawable in (*self.keep, *self.labels.values(), *self.modal, *self.shapes):
            drawable.delete()
        for box, _kind in self.rule_boxes:
            box.delete()
        self.rule_boxes = []
        self.batch, self.panel = Batch(), Batch()
        self.labels, self.modal, self.shapes = {}, [], []
        self.keep = []  # made on the next draw, in the context that draws them
        self.anim = None
        self.dirty = True

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        return self.view.cell_at(px, py)

    def button_at(self, px: float, py: float) -> str | None:
        """The panel button under screen point (px, py): its name, or None."""
        for name, left, bottom, width, height in self.hits:
            if left <= px < left + width and bottom <= py < bottom + height:
                return name
        return None

    def on_panel(self, px: float) -> bool:
        return px >= self.layout.panel_x

    def show(self, ui: UiView) -> None:
        """Use `ui` for the next frame (rebuilds only when it differs; a new zoom or pan
        lays the board out again)."""
        if ui != self.ui:
            relayout = (ui.zoom, ui.pan) != (self.ui.zoom, self.ui.pan)
            self.ui = ui
            self.dirty = True
            if relayout:
                self.resize(self.layout.width, self.layout.height)

    def invalidate(self) -> None:
        self.dirty = True

    def play(self, events: list[Any], clock: float | None = None) -> float:
        """Animate `events` (the last command's). In a window (no `clock`) they start at the
        next `draw`, in the context that draws them, and run on the wall clock; returns 0.
        With `clock` (offscreen movies, benches: the caller's context is current) they start
        now and only `pose` moves them on; returns how many seconds they take."""
        self.changed_rules = rule_changes(list(events))
        if self.changed_rules:
            self.dirty = True  # the panel draws the changed rules' lines
            self._mark_sentences()
        if clock is None:
            self.pending = list(events)
            return 0.0
        if self.dirty:
            self._rebuild()
        self.pending = None
        self.anim = None
        length = self.view.animate(list(events))
        self._pulse(0.0)
        return max(length, PULSE if self.changed_rules else 0.0)

    def pose(self, t: float) -> None:
        """Show the animation `t` seconds after its start (past its end: the end)."""
        if self.dirty:
            self._rebuild()
        self.view.pose(t)
        self._pulse(t)
        if self.anim is not None and t >= self.anim[1]:
            self.anim = None

    @property
    def animating(self) -> bool:
        return self.anim is not None or bool(self.pending)

    def skip(self) -> None:
        """Jump a running animation to its end (a key or a click does)."""
        self.pending = None
        if self.anim is not None:
            self.anim = None
            self.view.pose(float("inf"))
            self._pulse(float("inf"))

    def draw(self) -> None:
        if self.dirty:
            self._rebuild()
            if not self.pending and self.anim is None:
                self.view.pose(float("inf"))  # nothing to animate: the final state
        if self.pending:
            length = self.view.animate(self.pending)
            if self.changed_rules:
                length = max(length, PULSE)
                self._pulse(0.0)
            self.anim = (time.perf_counter(), length) if length else None
            self.pending = None
        elif self.anim is not None:
            self.pose((time.perf_counter() - self.anim[0]) * self.speed)
        self._clear()
        self._draw_board()
        self.panel.draw()

    def _draw_board(self) -> None:
        """The board batch, clipped to the board area when zoomed (it runs under the
        panel otherwise)."""
        if not self.layout.zoomed:
            self.batch.draw()
            return
        from pyglet import gl

        gl.glEnable(gl.GL_SCISSOR_TEST)
        try:
            gl.glScissor(0, 0, self.layout.panel_x, self.layout.height)
            self.batch.draw()
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)

    def _mark_sentences(self) -> None:
        """The cells of the sentences that changed: where a formed one stands now, where a
        broken one stood before the command; each boxed on the board while its rule pulses."""
        now = sentences(self.engine.world)
        cells: dict[tuple[int, int], str] = {}
        for rule, kind in sorted(self.changed_rules.items()):
            for cell in (now if kind == "formed" else self.spelled).get(rule, ()):
                cells.setdefault(cell, kind)
        self.rule_cells = cells
        self._drop_boxes()

    def _drop_boxes(self) -> None:
        for box, _kind in self.rule_boxes:
            box.delete()
        self.rule_boxes = []

    def _box_sentences(self, t: float) -> None:
        """Box the changed sentences' cells (made at the pulse's start, in the context that
        draws them), posed at `t`; gone once the pulse is over."""
        if t >= PULSE:
            self._drop_boxes()
            self.rule_cells = {}
            return
        if not self.rule_boxes and self.rule_cells:
            from game.render.views.base import LAYERS

            for (x, y), kind in sorted(self.rule_cells.items()):
                left, bottom, size, _ = self.layout.cell_rect(x, y)
                box = shapes.Box(left, bottom, size, size, thickness=max(2, size // 8),
                                 color=(*(BROKEN if kind == "broken" else colors.SELECT), 255),
                                 batch=self.batch, group=LAYERS["label"])
                self.rule_boxes.append((box, kind))
        for box, kind in self.rule_boxes:
            color, opacity = pulse_color(kind, t)
            if kind == "formed":
                color, opacity = colors.SELECT, int(255 * (1 - min(1.0, max(0.0, t) / PULSE)))
            box.color = (*color, opacity)

    def _pulse(self, t: float) -> None:
        """Pose the changed rules' lines and their sentences' boxes on the board at `t`; past
        the pulse, plain lines again (the red broken ones go at the next rebuild)."""
        self._box_sentences(t)
        if not self.rule_labels:
            return
        for label, kind in self.rule_labels:
            color, opacity = pulse_color(kind, t)
            label.color = (*color, opacity)
        if t >= PULSE:
            self.rule_labels = []
            if any(kind == "broken" for kind in self.changed_rules.values()):
                self.dirty = True
            self.changed_rules = {}

    def _clear(self) -> None:
        """Backdrop, board floor and panel, cleared straight into the frame (see
        `View.backdrop`); the caller's own clear is then redundant but harmless."""
        from pyglet import gl

        lay = self.layout
        rects = [(0, 0, lay.width, lay.height, colors.BACKGROUND), *self.view.backdrop(),
                 (lay.panel_x, 0, lay.panel_width, lay.height, colors.PANEL)]
        gl.glEnable(gl.GL_SCISSOR_TEST)
        try:
            for left, bottom, width, height, (r, g, b) in rects:
                gl.glScissor(int(left), int(bottom), max(0, int(width)), max(0, int(height)))
                gl.glClearColor(r / 255, g / 255, b / 255, 1.0)
                gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)
            gl.glClearColor(0.0, 0.0, 0.0, 1.0)

    # -- building -------------------------------------------------------------------------

    def _rebuild(self) -> None:
        if self.own_chronicle:
            self.chronicle.follow()
        self.view.world = self.engine.world
        self.view.sync(self.batch, self.ui)
        if self.engine.world.resource("rules") is not None:
            self.spelled = sentences(self.engine.world)
        if not self.view.animating():
            self.anim = None
        old, self.labels = self.labels, {}
        self._old_labels = old
        self._panel()
        for drawable in self.modal:
            drawable.delete()
        self.modal = []
        if self.ui.modal:
            self._modal(self.ui.modal)
        for label in old.values():
            label.delete()
        self.dirty = False

    def _panel(self) -> None:
        lay = self.layout
        x0 = lay.panel_x
        y = lay.height - MARGIN
        y = self._text(self.title, x0 + MARGIN, y, 15, colors.TEXT, bold=True)
        y = self._text(self.engine.ruleset.name, x0 + MARGIN, y, 10, colors.DIM)
        y -= 6
        y = self._wrapped(status_line(self.engine), x0 + MARGIN, y, 12, colors.TEXT, bold=True)
        for line in self.ui.info:
            y = self._wrapped(line, x0 + MARGIN, y, 11, colors.SELECT)
        for line in self.ui.tooltip:
            y = self._wrapped(line, x0 + MARGIN, y, 10, colors.SELECT)
        if self.ui.message:
            y = self._wrapped(self.ui.message, x0 + MARGIN, y, 10, (255, 200, 120))
        if self.engine.world.resource("rules") is not None:  # descent and octal have none
            y -= 8
            y = self._text("Rules in force", x0 + MARGIN, y, 11, colors.DIM, bold=True)
            self.rule_labels = []
            for line, role, rule in panel_lines(self.engine.world):
                if role in ("heading", "none"):
                    y = self._text(line, x0 + MARGIN + 2, y, 9, colors.DIM)
                    continue
                y = self._text(line, x0 + MARGIN + 6, y, 10, colors.TEXT)
                if self.changed_rules.get(rule) == "formed":
                    self.rule_labels.append((self.labels[self._last_key], "formed"))
            for rule, kind in sorted(self.changed_rules.items()):
                if kind == "broken":
                    y = self._text(f"{rule}  (broken)", x0 + MARGIN + 6, y, 10, BROKEN)
                    self.rule_labels.append((self.labels[self._last_key], "broken"))
        for drawable in self.shapes:
            drawable.delete()
        self.shapes, self.hits = [], []
        y = self._ready(x0, y)
        y -= 8
        bottom = MARGIN
        if self.ui.footer:  # wrapped by its drawn width, standing on the bottom margin
            bottom += self._text(self.ui.footer, x0 + MARGIN, MARGIN, 9, colors.DIM,
                                 width=self.layout.panel_width - 2 * MARGIN) + 6
        self._log(x0, y, max(FOOTER_SPACE, bottom))

    def _ready(self, x0: int, y: int) -> int:
        """The units that can still act (a click selects one) and the panel's buttons."""
        if self.ui.ready:
            y -= 8
            y = self._text("Ready to act (click one)", x0 + MARGIN, y, 11, colors.DIM,
                           bold=True)
            for name, label in self.ui.ready:
                top = y
                y = self._text(label, x0 + MARGIN + 6, y, 10, colors.TEXT)
                self.hits.append((name, x0, y, self.layout.panel_width, top - y))
        for name, label in self.ui.buttons:
            y -= 6
            width, height = self.layout.panel_width - 2 * MARGIN, 24
            left, bottom = x0 + MARGIN, y - height
            self.shapes.append(shapes.Rectangle(left, bottom, width, height,
                                                color=colors.BUTTON_EDGE, batch=self.panel,
                                                group=PANEL_BACK))
            self.shapes.append(shapes.Rectangle(left + 1, bottom + 1, width - 2, height - 2,
                                                color=colors.BUTTON, batch=self.panel,
                                                group=PANEL_BACK))
            self._text(label, left + 10, y - 5, 11, colors.TEXT, bold=True)
            self.hits.append((name, left, bottom, width, height))
            y = bottom
        return y

    def log_rows(self) -> list[tuple[str, bool]]:
        """The whole log as panel rows, (text, is a heading), wrapped to the panel: made
        again only when the log changed."""
        version = self.chronicle.version
        if self._log_rows is None or self._log_rows[0] != version:
            rows: list[tuple[str, bool]] = []
            for kind, text in self.chronicle.rows():
                if kind == "heading":
                    rows.append((text, True))
                else:
                    rows.extend((row, False) for row in
                                textwrap.wrap(text, max(12, int((WRAP + 4) * self._room())),
                                              subsequent_indent="  "))
            self._log_rows = (version, rows)
        return self._log_rows[1]

    def _log(self, x0: int, y: int, footer: int = FOOTER_SPACE) -> None:
        """The log's newest rows that fit above the footer (`footer` pixels from the bottom),
        or older ones scrolled back to."""
        if self.ui.hide_board:
            self._text("Log", x0 + MARGIN, y, 11, colors.DIM, bold=True)
            return  # the log would tell the next player what happened before the hand-over
        rows = self.log_rows()
        row_height = int(LOG_SIZE * 1.7)
        fit = max(1, (y - int(11 * 1.7) - footer) // row_height)
        self.log_scroll_most = max(0, len(rows) - fit)  # rows the log can scroll back
        scroll = max(0, min(self.ui.log_scroll, self.log_scroll_most))
        end = len(rows) - scroll
        shown = rows[max(0, end - fit):end]
        title = "Log"
        if len(rows) > fit:
            title += f"  {max(0, end - fit) + 1}-{end} of {len(rows)}"
            if len(title) + 19 <= self._chars(9):  # the keys, where the panel has room
                title += " (PgUp/PgDn, wheel)"
        y = self._text(title, x0 + MARGIN, y, 11 if len(rows) <= fit else 9, colors.DIM,
                       bold=True)
        for text, heading in shown:
            y = self._text(text, x0 + MARGIN + (0 if heading else 6), y, LOG_SIZE,
                           colors.SELECT if heading else colors.TEXT, bold=heading)

    def _modal(self, lines: tuple[str, ...]) -> None:
        lay = self.layout
        height = 30 + 22 * len(lines)
        cx, cy = lay.panel_x // 2, lay.height // 2
        top = cy - height // 2 + height - 18
        labels = [pyglet.text.Label(
            line, font_size=14 if i == 0 else 11, weight="bold" if i == 0 else "normal", x=cx,
            y=top - 22 * i, anchor_x="center", anchor_y="center", color=(*colors.TEXT, 255),
            batch=self.panel, group=MODAL_TEXT) for i, line in enumerate(lines)]
        # As wide as its widest line (the help's last line overran a 460-pixel box): over the
        # board, or over the whole window when the board is narrower than that.
        widest = max((label.content_width for label in labels), default=0)
        width = min(lay.width - 20, max(min(lay.panel_x - 40, 460), int(widest) + 24))
        if width > lay.panel_x - 20:
            cx = lay.width // 2
            for label in labels:
                label.x = cx
        left, bottom = cx - width // 2, cy - height // 2
        self.modal.append(shapes.Rectangle(left - 2, bottom - 2, width + 4, height + 4,
                                           color=colors.SELECT, batch=self.panel,
                                           group=MODAL_GROUP))
        self.modal.append(shapes.Rectangle(left, bottom, width, height, color=(28, 30, 38, 245),
                                           batch=self.panel, group=MODAL_GROUP))
        self.modal.extend(labels)

    def _room(self) -> float:
        """The panel's width for text against the window's usual panel (under 1 in movies)."""
        return (self.layout.panel_width - 2 * MARGIN) / (PANEL_WIDTH - 2 * MARGIN)

    def _chars(self, size: int) -> int:
        """Characters of `size` points that fit a line of the panel (WRAP at 12 points)."""
        return max(12, int(WRAP * 12 / size * self._room()))

    def _text(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
              bold: bool = False, width: int = 0) -> int:
        """A line whose top is at `y`; returns the next line's top. With `width`, a block
        wrapped at that many pixels whose bottom is at `y`; returns its height."""
        key = (text, x, y, size, color, bold, width)
        self._last_key = key
        label = self._old_labels.pop(key, None)
        if label is None:  # a new line; lines whose text stays are kept as they are
            wrap = {"width": width, "multiline": True, "anchor_y": "bottom"} if width else \
                {"anchor_y": "top"}
            label = pyglet.text.Label(text, font_size=size, weight="bold" if bold else "normal",
                                      x=x, y=y, color=(*color, 255), batch=self.panel,
                                      group=PANEL_TEXT, **wrap)
        self.labels[key] = label
        return int(label.content_height) if width else y - int(size * 1.7)

    def _wrapped(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
                 bold: bool = False) -> int:
        width = int(self._chars(size) * (0.88 if bold else 1.0))  # bold letters are wider
        for line in textwrap.wrap(text, width) or [""]:
            y = self._text(line, x, y, size, color, bold)
        return y
