"""The top-down grid: `GridView` draws any Kind (skirmish and octal maps alike); `PuzzleView`
adds the hint arrows of puzzle levels.

Things are drawn from the sprite sheets (`game/render/sprites.py`) when they load, else as
plain shapes. The view redraws incrementally: it reads the World's journal since its last
sync and touches only the entities written since (and the autotiled neighbours of their
cells); an undo is found by comparing its own copy of the journal with the World's. Events of
the last command animate on top: slides, lunges, floating damage, fading deaths.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from components import Health, Kind, Position, Team, UnitClass, Word
from game import journal
from game.data import units
from game.events import Attacked, Damaged, Destroyed, Died, Moved, Pushed
from game.render import colors
from game.render.sprites import WALL_JOIN, WATER_JOIN, SpriteBook, autotile, sprite_book
from game.render.uiview import UiView
from game.render.views.base import LAYERS, View, add_arrow

FONT = None  # pyglet's default sans face; no font files are shipped
MOBILE = ("hero", "minion")
BUILDINGS = ("hq", "tower")
TERRAIN_FILL = ("water", "lava", "grass", "goop", "floor")  # kinds that cover their whole cell
AUTOTILED = {"water": WATER_JOIN, "wall": WALL_JOIN}
DRAWN = (Position, Health, Kind, Team, Word, UnitClass)  # what a drawing reads
SLIDE = 0.22  # seconds per cell step of a move or push
LUNGE = 0.24
FLOAT = 0.6
FADE = 0.45


class GridView(View):
    """Top-down squares: terrain, buildings and units from sprite sheets (shapes without)."""

    def __init__(self, world: Any, layout: Any) -> None:
        super().__init__(world, layout)
        self.book: SpriteBook | None = sprite_book()
        self.drawn: dict[int, list[Any]] = {}  # entity -> its drawables
        self.cell_of: dict[int, tuple[int, int]] = {}
        self.facing: dict[int, str] = {}
        self.seen: list[Any] = []  # our copy of the World's journal at the last sync
        self.token: Any = None
        self.hidden = False
        self.ui_drawn: list[Any] = []
        self.ghosts: dict[int, list[Any]] = {}  # drawables of entities gone at the last sync
        self.tracks: list[tuple[str, Any]] = []
        self.base: dict[int, tuple[float, float]] = {}
        self.sprite_of: dict[int, tuple[Any, str, str]] = {}  # unit -> (sprite, class, side)
        self._sink: list[Any] = self.keep

    def _add(self, drawable: Any) -> None:
        self._sink.append(drawable)

    # -- syncing --------------------------------------------------------------------------

    def build(self, batch: Batch, ui: UiView) -> None:
        """Everything from scratch (the first frame, a hand-over, a journal we cannot follow)."""
        for group in (self.keep, self.ui_drawn, *self.drawn.values(), *self.ghosts.values()):
            for drawable in group:
                drawable.delete()
        self.keep, self.ui_drawn, self.drawn, self.ghosts = [], [], {}, {}
        self.sprite_of = {}
        self.cell_of = {}
        self._sink = self.keep
        self._floor(batch)
        self.hidden = ui.hide_board
        self.token = self.world.version()
        self.seen = self.world.changes_since(0)
        if not self.hidden:
            for entity, pos in sorted(self.world.query(Position), key=self._stack_order):
                self._draw_entity(batch, entity, pos)
            self._draw_ui(batch, ui)

    def sync(self, batch: Batch, ui: UiView) -> None:
        world = self.world
        if self.tracks and self.token is not None and ui.hide_board == self.hidden \
                and world.same_version(self.token):
            self._redraw_ui(batch, ui)  # only the overlays changed: the animation runs on
            return
        self._bury()
        if self.token is None or ui.hide_board != self.hidden or self.token[0] != world.version()[0]:
            self.build(batch, ui)
            return
        touched = self._touched()
        if touched is None:
            self.build(batch, ui)
            return
        self.token = world.version()
        for entity in sorted(self._with_neighbours(touched)):
            gone = self.drawn.pop(entity, [])
            if world.alive(entity) and world.has(entity, Position):
                for drawable in gone:
                    drawable.delete()
                self._draw_entity(batch, entity, world.get(entity, Position))
            elif gone:
                self.ghosts[entity] = gone  # faded by a death animation, else deleted
                self.cell_of.pop(entity, None)
                self.sprite_of.pop(entity, None)
        self._redraw_ui(batch, ui)

    def animating(self) -> bool:
        return bool(self.tracks)

    def _redraw_ui(self, batch: Batch, ui: UiView) -> None:
        for drawable in self.ui_drawn:
            drawable.delete()
        self.ui_drawn = []
        self._draw_ui(batch, ui)

    def _touched(self) -> set[int] | None:
        """Entities written since the last sync, or None when the journal cannot tell."""
        world = self.world
        if world.is_ancestor(self.token):
            changes = world.changes_since(self.token[1])
            self.seen.extend(changes)
        else:  # an undo popped entries: what differs from our copy is what changed
            entries = world.changes_since(0)
            k = min(len(entries), len(self.seen))
            while k and entries[k - 1] is not self.seen[k - 1]:
                k -= 1
            changes = self.seen[k:] + entries[k:]
            self.seen = entries
        return journal.touched(changes).entities(DRAWN)

    def _with_neighbours(self, touched: set[int]) -> set[int]:
        """`touched` plus the autotiled things beside the cells those entities left or entered."""
        world = self.world
        cells = set()
        for entity in touched:
            if entity in self.cell_of:
                cells.add(self.cell_of[entity])
            pos = world.try_get(entity, Position) if world.alive(entity) else None
            if pos is not None:
                cells.add((pos.x, pos.y))
        out = set(touched)
        for x, y in cells:
            for nx, ny in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
                for other in world.at(nx, ny):
                    if self._kind(other) in AUTOTILED:
                        out.add(other)
        return out

    def _bury(self) -> None:
        for drawables in self.ghosts.values():
            for drawable in drawables:
                drawable.delete()
        self.ghosts = {}
        self.tracks = []
        self.base = {}

    # -- animation ------------------------------------------------------------------------

    def animate(self, events: list[Any]) -> float:
        """Slides for moves and pushes (one step after another), lunges for attacks, rising
        numbers for damage, fades for deaths. Returns the seconds the whole show takes."""
        steps: dict[int, int] = {}
        end = 0.0
        for event in events:
            if isinstance(event, Moved | Pushed) and event.entity in self.drawn:
                start = steps.get(event.entity, 0) * SLIDE
                steps[event.entity] = steps.get(event.entity, 0) + 1
                self.tracks.append(("slide", (event.entity, start, event.x0 - event.x,
                                              event.y0 - event.y, event.x, event.y)))
                end = max(end, start + SLIDE)
            elif isinstance(event, Attacked) and event.attacker in self.drawn:
                target = self.cell_of.get(event.target) or self._last_cell(event.target)
                here = self.cell_of.get(event.attacker)
                if target and here:
                    start = steps.get(event.attacker, 0) * SLIDE
                    self.tracks.append(("lunge", (event.attacker, start, target[0] - here[0],
                                                  target[1] - here[1])))
                    end = max(end, start + LUNGE)
            elif isinstance(event, Damaged):
                cell = self.cell_of.get(event.entity) or self._last_cell(event.entity)
                if cell is not None:
                    label = self._float_label(f"-{event.amount}", cell)
                    self.tracks.append(("float", (label, cell)))
                    end = max(end, FLOAT)
            elif isinstance(event, Died | Destroyed) and event.entity in self.ghosts:
                self.tracks.append(("fade", event.entity))
                end = max(end, FADE)
        for kind, data in self.tracks:
            if kind in ("slide", "lunge"):
                for drawable in self.drawn.get(data[0], []):
                    self.base.setdefault(id(drawable), (drawable.x, drawable.y))
        self.pose(0.0)
        return end

    def _last_cell(self, entity: int) -> tuple[int, int] | None:
        for drawable in self.ghosts.get(entity, [])[:1]:
            return self.layout.cell_at(drawable.x + 1, drawable.y + 1)
        return None

    def _float_label(self, text: str, cell: tuple[int, int]) -> Any:
        cx, cy = self.layout.cell_center(*cell)
        label = pyglet.text.Label(text, font_name=FONT, font_size=max(7.0, self.layout.cell * 0.5),
                                  weight="bold", x=cx, y=cy, anchor_x="center",
                                  anchor_y="center", color=(255, 90, 70, 255),
                                  batch=self._batch, group=LAYERS["float"])
        self.ghosts.setdefault(-1, []).append(label)  # deleted with the ghosts
        return label

    def pose(self, t: float) -> None:
        cell = self.layout.cell
        offsets: dict[int, list[float]] = {}
        for kind, data in self.tracks:
            if kind == "slide":
                entity, start, dx, dy, _x, _y = data
                left = 1.0 - _clamp((t - start) / SLIDE)
                total = offsets.setdefault(entity, [0.0, 0.0])
                # Steps chain: the offset of each not-yet-finished step adds up.
                total[0] += dx * left * cell
                total[1] -= dy * left * cell
            elif kind == "lunge":
                entity, start, dx, dy = data
                u = _clamp((t - start) / LUNGE)
                reach = 0.35 * (1 - abs(2 * u - 1)) if 0 < u < 1 else 0.0
                self._attack_frame(entity, dx, dy, striking=0 < u < 1)
                norm = max(1.0, (dx * dx + dy * dy) ** 0.5)
                total = offsets.setdefault(entity, [0.0, 0.0])
                total[0] += dx / norm * reach * cell
                total[1] -= dy / norm * reach * cell
            elif kind == "float":
                label, (x, y) = data
                u = _clamp(t / FLOAT)
                cx, cy = self.layout.cell_center(x, y)
                label.y = cy + u * cell * 0.9
                label.opacity = int(255 * (1 - u)) if u < 1 else 0
            elif kind == "fade":
                u = _clamp(t / FADE)
                for drawable in self.ghosts.get(data, []):
                    drawable.opacity = int(255 * (1 - u))
        for entity, (ox, oy) in offsets.items():
            for drawable in self.drawn.get(entity, []):
                bx, by = self.base.get(id(drawable), (drawable.x, drawable.y))
                drawable.x, drawable.y = bx + ox, by + oy
        if (self.tracks or self.ghosts) and t >= max(self.duration(), 0.0):
            self._bury()  # also what went with no animation (two commands between frames)

    def _attack_frame(self, entity: int, dx: int, dy: int, striking: bool) -> None:
        """The attacker turns to its target and shows its attack frame while it lunges, and
        the target flashes red; both go back to their idle look after."""
        found = self.sprite_of.get(entity)
        if found is None or self.book is None:
            return
        sprite, name, side = found
        facing = ("right" if dx > 0 else "left") if abs(dx) >= abs(dy) else \
            ("down" if dy > 0 else "up")
        if striking:
            self.facing[entity] = facing
        image = self.book.frame(f"{name}.{self.facing.get(entity, facing)}."
                                f"{'attack' if striking else 'idle'}", side)
        if image is not None and sprite.image is not image:
            sprite.image = image
        here = self.cell_of.get(entity)
        if here is None:
            return
        for other, cell in self.cell_of.items():
            if cell == (here[0] + dx, here[1] + dy) and other in self.sprite_of:
                self.sprite_of[other][0].color = (255, 110, 110) if striking else (255, 255, 255)

    def duration(self) -> float:
        ends = [0.0]
        for kind, data in self.tracks:
            ends.append({"slide": data[1] + SLIDE if kind == "slide" else 0,
                         "lunge": data[1] + LUNGE if kind == "lunge" else 0,
                         "float": FLOAT, "fade": FADE}[kind])
        return max(ends)

    # -- pieces ---------------------------------------------------------------------------

    def _stack_order(self, item: tuple[int, Position]) -> tuple[int, int]:
        entity, _pos = item
        kind = self._kind(entity)
        rank = 2 if kind in MOBILE else 1 if kind in BUILDINGS else 0
        return rank, entity

    def _kind(self, entity: int) -> str:
        kind = self.world.try_get(entity, Kind)
        return kind.name if kind is not None else ""

    def _kinds_at(self, x: int, y: int) -> list[str]:
        return [self._kind(e) for e in self.world.at(x, y)]

    def backdrop(self) -> list[tuple[int, int, int, int, tuple[int, int, int]]]:
        """The board's dark frame and its floor."""
        lay = self.layout
        ox, oy = lay.origin
        w, h = lay.cell * lay.cols, lay.cell * lay.rows
        return [(ox - 3, oy - 3, w + 6, h + 6, (10, 10, 12)), (ox, oy, w, h, colors.FLOOR)]

    def _floor(self, batch: Batch) -> None:
        lay = self.layout
        ox, oy = lay.origin
        w, h = lay.cell * lay.cols, lay.cell * lay.rows
        if lay.cell < 8:
            return  # grid lines would turn a small board into mesh
        for col in range(1, lay.cols):
            self._add(shapes.Line(ox + col * lay.cell, oy, ox + col * lay.cell, oy + h,
                                  color=colors.GRID, batch=batch, group=LAYERS["grid"]))
        for row in range(1, lay.rows):
            self._add(shapes.Line(ox, oy + row * lay.cell, ox + w, oy + row * lay.cell,
                                  color=colors.GRID, batch=batch, group=LAYERS["grid"]))

    def _draw_ui(self, batch: Batch, ui: UiView) -> None:
        self._sink = self.ui_drawn
        self._batch = batch
        self._overlays(batch, ui)
        self._sink = self.keep

    def _overlays(self, batch: Batch, ui: UiView) -> None:
        self._threats(batch, ui)
        for cells, color in ((ui.reach, colors.REACH), (ui.targets, colors.TARGET)):
            for x, y in sorted(cells):
                left, bottom, size, _ = self.layout.cell_rect(x, y)
                self._add(shapes.Rectangle(left, bottom, size, size, color=(*color, 110),
                                           batch=batch, group=LAYERS["overlay"]))
        for x, y in sorted(ui.marks):
            left, bottom, size, _ = self.layout.cell_rect(x, y)
            self._add(shapes.Box(left, bottom, size, size, thickness=max(2, size // 10),
                                 color=colors.REACH, batch=batch, group=LAYERS["hp"]))
        for (x, y), kind in ui.sentences:  # hover: the sentences a push would change
            left, bottom, size, _ = self.layout.cell_rect(x, y)
            color = colors.RULE_BROKEN if kind == "broken" else colors.SELECT
            self._add(shapes.Box(left, bottom, size, size, thickness=max(2, size // 8),
                                 color=color, batch=batch, group=LAYERS["label"]))
        dot = max(2.0, self.layout.cell * 0.12)
        for x, y in ui.path:  # hover: the walk a move would take
            cx, cy = self.layout.cell_center(x, y)
            self._add(shapes.Circle(cx, cy, dot, color=colors.SELECT, batch=batch,
                                    group=LAYERS["hp"]))
        if ui.selected is not None and self.world.alive(ui.selected) \
                and self.world.has(ui.selected, Position):
            pos = self.world.get(ui.selected, Position)
            left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
            self._add(shapes.Box(left, bottom, size, size, thickness=max(2, size // 12),
                                 color=colors.SELECT, batch=batch, group=LAYERS["hp"]))

    def _threats(self, batch: Batch, ui: UiView) -> None:
        """The enemies' threat: a light fill and an inner outline, so a hero's own blue and
        red cells (filled, no outline) read apart from it where both show."""
        edge = max(1, self.layout.cell // 12)
        for cells, color in ((ui.threat_moves, colors.THREAT_MOVE),
                             (ui.threat_strikes, colors.THREAT_STRIKE)):
            for x, y in sorted(cells):
                left, bottom, size, _ = self.layout.cell_rect(x, y)
                self._add(shapes.Rectangle(left, bottom, size, size, color=(*color, 70),
                                           batch=batch, group=LAYERS["overlay"]))
                if size >= 8:
                    self._add(shapes.Box(left + edge, bottom + edge, size - 2 * edge,
                                         size - 2 * edge, thickness=edge, color=(*color, 200),
                                         batch=batch, group=LAYERS["overlay"]))

    def _draw_entity(self, batch: Batch, entity: int, pos: Position) -> None:
        self._batch = batch
        self._sink = self.drawn.setdefault(entity, [])
        old = self.cell_of.get(entity)
        if old is not None and old != (pos.x, pos.y):
            dx, dy = pos.x - old[0], pos.y - old[1]
            self.facing[entity] = ("right" if dx > 0 else "left") if abs(dx) >= abs(dy) else \
                ("down" if dy > 0 else "up")
        self.cell_of[entity] = (pos.x, pos.y)
        self.sprite_of.pop(entity, None)
        try:
            self._entity(batch, entity, pos)
        finally:
            self._sink = self.keep

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

    def _sprite(self, batch: Batch, frame: str, side: str, pos: Position, group: Group,
                lift: float = 0.0) -> bool:
        """A sprite of `frame` filling the cell; False when there is no such frame."""
        if self.book is None:
            return False
        image = self.book.frame(frame, side)
        if image is None:
            return False
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        sprite = pyglet.sprite.Sprite(image, left, bottom + lift, batch=batch, group=group)
        sprite.scale = size / self.book.cell
        self._add(sprite)
        return True

    def _word(self, batch: Batch, pos: Position, word: Word) -> None:
        if self._sprite(batch, f"word.{word.text.upper()}", "", pos, LAYERS["thing"]):
            return
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
        name = "minion"
        if kind == "hero":
            unit_class = self.world.try_get(entity, UnitClass)
            name = unit_class.name if unit_class is not None else "bulwark"
        facing = self.facing.get(entity) or ("left" if side == "blue" else "right")
        size = self.layout.cell
        if self._sprite(batch, f"{name}.{facing}.idle", side, pos, LAYERS["unit"],
                        lift=size * 0.06):
            self.sprite_of[entity] = (self._sink[-1], name, side)  # for the attack frame
            return
        cx, cy = self.layout.cell_center(pos.x, pos.y)
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
        if self._sprite(batch, kind, side, pos, LAYERS["building"]):
            return
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        color = colors.building_color(kind, side)
        pad = max(1, size // 10)
        self._add(shapes.Rectangle(left + pad - 1, bottom + pad - 1, size - 2 * pad + 2,
                                   size - 2 * pad + 2, color=(20, 20, 24), batch=batch,
                                   group=LAYERS["building"]))
        self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                                   color=color, batch=batch, group=LAYERS["building"]))
        if size >= 10:
            glyph = units().buildings[kind].glyph if kind in units().buildings else kind[:1]
            self._letter(batch, pos, glyph.upper(), colors.contrast(color), size * 0.42)

    def _thing(self, batch: Batch, pos: Position, kind: str) -> None:
        group = LAYERS["ground"] if kind in TERRAIN_FILL else LAYERS["thing"]
        frame = kind
        if kind in AUTOTILED:
            frame = f"{kind}.{autotile(self._kinds_at, pos.x, pos.y, AUTOTILED[kind])}"
        if self._sprite(batch, frame, "", pos, group):
            return
        self._thing_shape(batch, pos, kind, group)

    def _thing_shape(self, batch: Batch, pos: Position, kind: str, group: Group) -> None:
        left, bottom, size, _ = self.layout.cell_rect(pos.x, pos.y)
        color = colors.thing_color(kind)
        pad = 0 if kind in TERRAIN_FILL else max(1, size // 14)
        self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, size - 2 * pad,
                                   color=color, batch=batch, group=group))
        if pad and size >= 8:
            # A darker lower-right edge gives rocks and walls some bulk.
            edge = max(1, size // 8)
            self._add(shapes.Rectangle(left + pad, bottom + pad, size - 2 * pad, edge,
                                       color=colors.shade(color, 0.7), batch=batch,
                                       group=group))
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


def _clamp(u: float) -> float:
    return 0.0 if u < 0 else 1.0 if u > 1 else u


@cache
def colors_known() -> frozenset[str]:
    """Kinds the palette gives a colour of their own (the rest get a letter to tell them apart)."""
    from game.data import palette

    return frozenset(e.kind for e in palette().values() if e.prefab == "thing")


class PuzzleView(GridView):
    """The grid, plus the hint: an arrow on every thing that IS YOU."""

    def _overlays(self, batch: Batch, ui: UiView) -> None:
        super()._overlays(batch, ui)
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

    def _thing_shape(self, batch: Batch, pos: Position, kind: str, group: Group) -> None:
        super()._thing_shape(batch, pos, kind, group)
        size = self.layout.cell
        if kind in colors_known() and kind not in TERRAIN_FILL and size >= 12:
            # Keke's things are plain squares in the palette; the initial tells baba from keke.
            color = colors.thing_color(kind)
            self._letter(batch, pos, kind[:1].upper(), colors.shade(color, 0.45), size * 0.45)


HINT_VECTORS = {"u": (0.0, 1.0), "d": (0.0, -1.0), "l": (-1.0, 0.0), "r": (1.0, 0.0)}
HINT_GROUP = Group(order=10)
