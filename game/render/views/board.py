"""The top-down grid: `GridView` draws any Kind (skirmish and octal maps alike); `PuzzleView`
adds the hint arrows of puzzle levels."""

from __future__ import annotations

from functools import cache

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from components import Health, Kind, Position, Team, UnitClass, Word
from game.data import units
from game.render import colors
from game.render.uiview import UiView
from game.render.views.base import LAYERS, View, add_arrow

FONT = None  # pyglet's default sans face; no font files are shipped
MOBILE = ("hero", "minion")
BUILDINGS = ("hq", "tower")
TERRAIN_FILL = ("water", "lava", "grass", "goop", "floor")  # kinds that cover their whole cell


class GridView(View):
    """Top-down squares: terrain as tiles, buildings as squares, units as discs with letters."""

    def build(self, batch: Batch, ui: UiView) -> None:
        self.keep = []
        self._floor(batch)
        if ui.hide_board:
            return
        self._overlays(batch, ui)
        for entity, pos in sorted(self.world.query(Position), key=self._stack_order):
            self._entity(batch, entity, pos)

    # -- pieces ---------------------------------------------------------------------------

    def _stack_order(self, item: tuple[int, Position]) -> tuple[int, int]:
        entity, _pos = item
        kind = self._kind(entity)
        rank = 2 if kind in MOBILE else 1 if kind in BUILDINGS else 0
        return rank, entity

    def _kind(self, entity: int) -> str:
        kind = self.world.try_get(entity, Kind)
        return kind.name if kind is not None else ""

    def _floor(self, batch: Batch) -> None:
        lay = self.layout
        ox, oy = lay.origin
        w, h = lay.cell * lay.cols, lay.cell * lay.rows
        self._add(shapes.Rectangle(ox - 3, oy - 3, w + 6, h + 6, color=(10, 10, 12),
                                   batch=batch, group=LAYERS["floor"]))
        self._add(shapes.Rectangle(ox, oy, w, h, color=colors.FLOOR, batch=batch,
                                   group=LAYERS["floor"]))
        if lay.cell < 8:
            return  # grid lines would turn a small board into mesh
        for col in range(1, lay.cols):
            self._add(shapes.Line(ox + col * lay.cell, oy, ox + col * lay.cell, oy + h,
                                  color=colors.GRID, batch=batch, group=LAYERS["grid"]))
        for row in range(1, lay.rows):
            self._add(shapes.Line(ox, oy + row * lay.cell, ox + w, oy + row * lay.cell,
                                  color=colors.GRID, batch=batch, group=LAYERS["grid"]))

    def _overlays(self, batch: Batch, ui: UiView) -> None:
        for cells, color in ((ui.reach, colors.REACH), (ui.targets, colors.TARGET)):
            for x, y in sorted(cells):
                left, bottom, size, _ = self.layout.cell_rect(x, y)
                self._add(shapes.Rectangle(left, bottom, size, size, color=(*color, 110),
                                           batch=batch, group=LAYERS["overlay"]))
        for x, y in sorted(ui.marks):
            left, bottom, size, _ = self.layout.cell_rect(x, y)
            self._add(shapes.Box(left, bottom, size, size, thickness=max(2, size // 10),
                                 color=colors.REACH, batch=batch, group=LAYERS["hp"]))
        if ui.selected is not None and self.world.alive(ui.selected):
            pos = self.world.get(ui.selected, Position)
            left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
            self._add(shapes.Box(left, bottom, size, size, thickness=max(2, size // 12),
                                 color=colors.SELECT, batch=batch, group=LAYERS["hp"]))

    def _entity(self, batch: Batch, entity: int, pos: Position) -> None:
        word = self.world.try_get(entity, Word)
        kind = self._kind(entity)
        team = self.world.try_get(entity, Team)
        side = team.side if team is not None else ""
        if word is not None:
            self._word(batch, pos, word)
        elif kind in MOBILE:
            self._unit(batch, entity, pos, kind, side)
        elif kind in BUILDINGS:
            self._building(batch, pos, kind, side)
        else:
            self._thing(batch, pos, kind)
        health = self.world.try_get(entity, Health)
        if health is not None:
            self._hp_bar(batch, pos, health)

    def _word(self, batch: Batch, pos: Position, word: Word) -> None:
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        color = colors.word_color(word.text)
        pad = max(1, size // 14)
        self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                                   color=(30, 30, 36), batch=batch, group=LAYERS["thing"]))
        self._add(shapes.Box(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                             thickness=max(1, size // 16), color=color, batch=batch,
                             group=LAYERS["unit"]))
        font = size * 0.62 / max(2.2, len(word.text) * 0.62)
        self._letter(batch, pos, word.text, color, font)

    def _unit(self, batch: Batch, entity: int, pos: Position, kind: str, side: str) -> None:
        cx, cy = self.layout.cell_center(pos.x, pos.y)
        size = self.layout.cell
        cy += size * 0.06  # leave the hp bar below the disc
        radius = size * (0.37 if kind == "hero" else 0.27)
        color = colors.side_color(side)
        self._add(shapes.Circle(cx, cy, radius + max(1, size / 20), color=(20, 20, 24),
                                batch=batch, group=LAYERS["unit"]))
        self._add(shapes.Circle(cx, cy, radius, color=color, batch=batch, group=LAYERS["unit"]))
        letter = self._glyph(entity, kind)
        if size >= 10:
            self._letter(batch, pos, letter, colors.contrast(color),
                         radius * (1.05 if kind == "hero" else 0.95), lift=size * 0.06)

    def _building(self, batch: Batch, pos: Position, kind: str, side: str) -> None:
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        color = colors.building_color(kind, side)
        pad = max(1, size // 10)
        self._add(shapes.Rectangle(left + pad - 1, bottom + pad - 1, size - 2 * pad + 2,
                                   size - 2 * pad + 2, color=(20, 20, 24), batch=batch,
                                   group=LAYERS["thing"]))
        self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                                   color=color, batch=batch, group=LAYERS["thing"]))
        if size >= 10:
            glyph = units().buildings[kind].glyph if kind in units().buildings else kind[:1]
            self._letter(batch, pos, glyph.upper(), colors.contrast(color), size * 0.42)

    def _thing(self, batch: Batch, pos: Position, kind: str) -> None:
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        color = colors.thing_color(kind)
        pad = 0 if kind in TERRAIN_FILL else max(1, size // 14)
        self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                                   color=color, batch=batch, group=LAYERS["thing"]))
        if pad and size >= 8:
            # A darker lower-right edge gives rocks and walls some bulk.
            edge = max(1, size // 8)
            self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, edge,
                                       color=colors.shade(color, 0.7), batch=batch,
                                       group=LAYERS["thing"]))
        if kind not in colors_known() and size >= 12:
            self._letter(batch, pos, kind[:1].upper(), colors.contrast(color), size * 0.45)

    def _hp_bar(self, batch: Batch, pos: Position, health: Health) -> None:
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        if size < 8:
            return
        width = size - 4
        height = max(2, size // 9)
        frac = max(0.0, min(1.0, health.hp / max(1, health.max_hp)))
        color = colors.HP_GOOD if frac > 0.4 else colors.HP_LOW
        self._add(shapes.Rectangle(left + 2, bottom + 1, width, height, color=colors.HP_BACK,
                                   batch=batch, group=LAYERS["hp"]))
        if frac > 0:
            self._add(shapes.Rectangle(left + 2, bottom + 1, max(1, round(width * frac)), height,
                                       color=color, batch=batch, group=LAYERS["label"]))

    # -- helpers --------------------------------------------------------------------------

    def _glyph(self, entity: int, kind: str) -> str:
        if kind == "minion":
            return units().minion.glyph
        unit_class = self.world.try_get(entity, UnitClass)
        heroes = units().heroes
        if unit_class is not None and unit_class.name in heroes:
            return heroes[unit_class.name].glyph
        return kind[:1].upper()

    def _letter(self, batch: Batch, pos: Position, text: str, color: tuple[int, int, int],
                font_px: float, lift: float = 0.0) -> None:
        cx, cy = self.layout.cell_center(pos.x, pos.y)
        cy += lift
        label = pyglet.text.Label(text, font_name=FONT, font_size=max(5.0, font_px * 0.75),
                                  weight="bold", x=cx, y=cy + self.layout.cell * 0.03,
                                  anchor_x="center", anchor_y="center", color=(*color, 255),
                                  batch=batch, group=LAYERS["label"])
        self._add(label)


@cache
def colors_known() -> frozenset[str]:
    """Kinds the palette gives a colour of their own (the rest get a letter to tell them apart)."""
    from game.data import palette

    return frozenset(e.kind for e in palette().values() if e.prefab == "thing")


class PuzzleView(GridView):
    """The grid, plus the hint: an arrow on every thing that IS YOU."""

    def build(self, batch: Batch, ui: UiView) -> None:
        super().build(batch, ui)
        if ui.hint not in HINT_VECTORS or ui.hide_board:
            return
        from systems.rules import Prop

        props = self.world.resource("props") or {}
        you = {kind for kind, mask in props.items() if int(mask) & int(Prop.YOU)}
        for entity, pos in self.world.query(Position):
            if self._kind(entity) in you:
                cx, cy = self.layout.cell_center(pos.x, pos.y)
                add_arrow(self, batch, cx, cy, HINT_VECTORS[ui.hint], self.layout.cell * 0.8,
                          HINT_GROUP)


    def _thing(self, batch: Batch, pos: Position, kind: str) -> None:
        super()._thing(batch, pos, kind)
        size = self.layout.cell
        if kind in colors_known() and kind not in TERRAIN_FILL and size >= 12:
            # Keke's things are plain squares in the palette; the initial tells baba from keke.
            color = colors.thing_color(kind)
            self._letter(batch, pos, kind[:1].upper(), colors.shade(color, 0.45), size * 0.45)


HINT_VECTORS = {"u": (0.0, 1.0), "d": (0.0, -1.0), "l": (-1.0, 0.0), "r": (1.0, 0.0)}
HINT_GROUP = Group(order=10)
