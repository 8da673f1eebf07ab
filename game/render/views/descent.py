"""The descent view: the heightmap as stacked blocks in a cavalier (oblique) projection.

Board rows recede up and to the right (row 0 is the far one), heights rise straight up. Blocks
are drawn far-to-near, low-to-high, left-to-right, each as its front, right and top face, so
nearer and higher blocks hide what is behind them. The ball sits on its cell's top; when a
nearer column hides it, a yellow ring and an arrow drawn above everything show where it is.
The exit's top carries a green flag; a hint shows as an arrow from the ball.

Blocks are the cube of the sprite sheets (`data/sprites/blocks.png`, frame `cube`, drawn by
`python -m game.render.sprites_gen`) tinted by level; the projection's ratios are the cube's,
so sheet and shapes agree. Without the sheet the faces are drawn as polygons. Moves and pushes
animate from the engine's events: a piece slides across at its old height, then drops to its
new one (or first climbs, when it ends higher); the heights before and after are the view's own
record of where it drew each piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from components import Height, Kind, Position
from game.events import Moved, Pushed
from game.render import colors
from game.render.layout import MARGIN
from game.render.sprites import CUBE_DX, CUBE_DY, CUBE_EDGE, CUBE_RISE, SpriteBook, sprite_book
from game.render.uiview import UiView
from game.render.views.base import LAYERS, View, add_arrow, board_size
from game.world import World

DEPTH_X = CUBE_DX / CUBE_EDGE  # screen shift right of one row back, in cube edges
DEPTH_Y = CUBE_DY / CUBE_EDGE  # ... and up
RISE = CUBE_RISE / CUBE_EDGE  # screen height of one block
SLIDE = 0.22  # seconds to cross one cell
CLIMB = 0.12  # seconds to climb one level
DROP = 0.16  # seconds to fall the first level; a fall of h levels takes DROP * sqrt(h)
TOP_SHADE = 1.12  # the lit top face; the front is 0.86 and the right 0.66 of a level's colour
Place = tuple[int, int, int]  # x, row, z
BALL = (228, 72, 56)
EXIT = (80, 200, 110)
FLOOR_TOP = (70, 76, 90)
LOW, HIGH = (214, 180, 124), (104, 120, 168)  # block colours at height 1 and at the top
TOP = Group(order=10)  # above the board: the ball's marker and the hint arrow
Point = tuple[float, float]


@cache
def slice_group(row: int, z: int) -> Group:
    """One group per (row, level), in draw order: far rows first, low levels first."""
    return Group(order=2 + row * 64 + z + 1, parent=LAYERS["thing"])


def block_color(z: int, top: int) -> tuple[int, int, int]:
    """Blocks shade from warm sand at the bottom to slate blue at the top level."""
    t = 0.0 if top <= 1 else min(1.0, z / (top - 1))
    return tuple(round(a + (b - a) * t) for a, b in zip(LOW, HIGH, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class Projection:
    """Board (x, row, z) -> screen, fitted to the board area of the window."""

    n: int
    edge: float
    ox: float
    oy: float

    @classmethod
    def fit(cls, n: int, top: int, area_w: int, area_h: int) -> Projection:
        span_w = n + n * DEPTH_X
        span_h = n * DEPTH_Y + (top + 1) * RISE
        edge = max(4.0, min((area_w - 2 * MARGIN) / span_w, (area_h - 2 * MARGIN) / span_h))
        ox = (area_w - edge * span_w) / 2
        oy = (area_h - edge * span_h) / 2
        return cls(n, edge, ox, oy)

    def point(self, x: float, row: float, z: float) -> Point:
        """Screen point of board corner (x, row, z): row grows toward the viewer."""
        depth = self.n - row
        return (self.ox + (x + depth * DEPTH_X) * self.edge,
                self.oy + (depth * DEPTH_Y + z * RISE) * self.edge)

    def top_face(self, x: int, row: int, z: float) -> list[Point]:
        """The top of a cell at level z: near-left, near-right, far-right, far-left."""
        return [self.point(x, row + 1, z), self.point(x + 1, row + 1, z),
                self.point(x + 1, row, z), self.point(x, row, z)]

    def top_center(self, x: int, row: int, z: float) -> Point:
        return self.point(x + 0.5, row + 0.5, z)

    def silhouette(self, x: int, row: int, height: int) -> list[Point]:
        """Outline of a column of `height` blocks (for telling whether it hides the ball)."""
        return [self.point(x, row + 1, 0), self.point(x + 1, row + 1, 0),
                self.point(x + 1, row, 0), self.point(x + 1, row, height),
                self.point(x, row, height), self.point(x, row + 1, height)]

    def direction(self, move: str) -> Point:
        """Unit screen vector of a step u/d/l/r."""
        dx, dy = {"u": (DEPTH_X, DEPTH_Y), "d": (-DEPTH_X, -DEPTH_Y), "l": (-1.0, 0.0),
                  "r": (1.0, 0.0)}[move]
        length = (dx * dx + dy * dy) ** 0.5
        return dx / length, dy / length


def inside(point: Point, polygon: list[Point]) -> bool:
    """Whether `point` is inside the convex polygon (corners counter-clockwise)."""
    px, py = point
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (bx - ax) * (py - ay) - (by - ay) * (px - ax) < 0:
            return False
    return True


class DescentView(View):
    """Stacked blocks, the ball and the exit, seen from the front, a little above and left."""

    def __init__(self, world: World, layout: Any) -> None:
        super().__init__(world, layout)
        self.book: SpriteBook | None = sprite_book()
        self.drawn: dict[int, list[Any]] = {}  # block or ball -> its drawables
        self.placed: dict[int, Place] = {}  # where each piece was drawn at the last build
        self.before: dict[int, Place] = {}  # ... and at the build before
        self.tracks: list[tuple[int, Place, Place]] = []  # (piece, from, to) being animated
        self.base: dict[int, tuple[float, float]] = {}
        self.floor: list[Any] = []  # drawn once: the board does not change shape
        self.drawn_top = 0  # the tallest level the pieces were coloured for
        self.token: Any = None  # the world's version at the last sync
        self._sink: list[Any] = self.keep
        n = board_size(world)[0]
        # Fit for a little more than today's tallest stack: pushes may raise a column.
        self.top = max(self.heights().values(), default=0) + 1
        self.proj = Projection.fit(n, self.top + 1, layout.panel_x, layout.height)

    def heights(self) -> dict[tuple[int, int], int]:
        found: dict[tuple[int, int], int] = {}
        for _e, (pos, kind) in self.world.query(Position, Kind):
            if kind.name == "block":
                found[(pos.x, pos.y)] = found.get((pos.x, pos.y), 0) + 1
        return found

    def _add(self, drawable: Any) -> None:
        self._sink.append(drawable)

    def build(self, batch: Batch, ui: UiView) -> None:
        """Everything from scratch: the floor, every piece, the exit and the markers."""
        self.pose(float("inf"))
        for drawable in (*self.floor, *self.keep, *(d for ds in self.drawn.values() for d in ds)):
            drawable.delete()
        self.floor, self.keep, self.drawn = [], [], {}
        self._sink = self.floor
        n = board_size(self.world)[0]
        for row in range(n):
            for x in range(n):
                self._floor(batch, x, row)
        self._sink = self.keep
        self._pieces(batch, ui, {})

    def sync(self, batch: Batch, ui: UiView) -> None:
        """Redraw only the pieces whose cell or level changed (a step moves the ball and at
        most a stack of blocks), then the exit and the markers; a change of the tallest
        stack, which recolours every level, draws everything again."""
        if self.tracks and self.floor and self.world.same_version(self.token):
            self._markers(batch, ui)  # only the hint or the panel changed: the animation runs on
            return
        if not self.floor or self.top_level() != self.drawn_top:
            self.build(batch, ui)
            return
        self.pose(float("inf"))  # a running animation ends where the pieces are now
        self._pieces(batch, ui, dict(self.placed))

    def top_level(self) -> int:
        return max(self.top, max(self.heights().values(), default=0))

    def _pieces(self, batch: Batch, ui: UiView, drawn_at: dict[int, Place]) -> None:
        """Draw the pieces not already drawn where they stand (`drawn_at`), then the markers."""
        world = self.world
        self.tracks, self.base = [], {}
        ball = world.resource("ball")
        bpos = world.get(ball, Position)
        bz = world.get(ball, Height).z
        items = sorted((pos.y, height.z, pos.x, e) for e, (pos, height, kind) in
                       world.query(Position, Height, Kind) if kind.name == "block")
        items.append((bpos.y, bz, bpos.x, ball))
        self.drawn_top = top_level = self.top_level()
        self.before, self.placed = self.placed, {}
        for row, z, x, entity in items:
            self.placed[entity] = (x, row, z)
            if drawn_at.get(entity) == (x, row, z):
                continue
            for drawable in self.drawn.pop(entity, []):
                drawable.delete()
            self._sink = self.drawn.setdefault(entity, [])
            if entity == ball:
                self._ball(batch, x, row, z)
            else:
                self._block(batch, x, row, z, block_color(z, top_level))
        for entity in set(self.drawn) - set(self.placed):
            for drawable in self.drawn.pop(entity):
                drawable.delete()
        self.token = world.version()
        self._sink = self.keep
        self._markers(batch, ui)

    def animating(self) -> bool:
        return bool(self.tracks)

    def _markers(self, batch: Batch, ui: UiView) -> None:
        """The exit's flag, the hidden ball's ring and the hint arrow (drawn again each sync)."""
        for drawable in self.keep:
            drawable.delete()
        self.keep = []
        self._sink = self.keep
        world = self.world
        heights = self.heights()
        ball = world.resource("ball")
        bpos = world.get(ball, Position)
        bz = world.get(ball, Height).z
        ex, ey = world.resource("exit")
        exit_cell = (int(ex), int(ey))
        self._exit(batch, exit_cell[0], exit_cell[1], heights.get(exit_cell, 0))
        if self.hidden(bpos.x, bpos.y, bz, heights):
            self._marker(batch, bpos.x, bpos.y, bz)
        if ui.hint in ("u", "d", "l", "r"):
            cx, cy = self.proj.top_center(bpos.x, bpos.y, bz)
            add_arrow(self, batch, cx, cy + self.proj.edge * 0.2,
                      self.proj.direction(ui.hint), self.proj.edge * 0.9, TOP)

    def hidden(self, x: int, row: int, z: int, heights: dict[tuple[int, int], int]) -> bool:
        """Whether a nearer column (a nearer row, or further right in the ball's row) covers
        the ball's centre."""
        proj = self.proj
        cx, cy = proj.top_center(x, row, z)
        centre = (cx, cy + proj.edge * 0.25)
        for (hx, hrow), height in heights.items():
            if (hrow > row or (hrow == row and hx > x)) and inside(centre, proj.silhouette(hx, hrow, height)):
                return True
        return False

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The column whose top is under the point, nearest first."""
        heights = self.heights()
        n = self.proj.n
        for row in reversed(range(n)):
            for x in reversed(range(n)):
                if inside((px, py), self.proj.top_face(x, row, heights.get((x, row), 0))):
                    return x, row
        return None

    # -- animation ------------------------------------------------------------------------

    def animate(self, events: list[Any]) -> float:
        """Slide, climb and drop each block and the ball the events moved, from where it was
        drawn before to where it is now. Returns the seconds it takes."""
        end = 0.0
        for event in events:
            if not isinstance(event, Moved | Pushed) or event.entity not in self.drawn:
                continue
            new = self.placed[event.entity]
            old = self.before.get(event.entity)
            z0 = old[2] if old is not None and old[:2] == (event.x0, event.y0) else new[2]
            track = (event.entity, (event.x0, event.y0, z0), new)
            self.tracks.append(track)
            end = max(end, travel_time(track[1], track[2]))
            for drawable in self.drawn[event.entity]:
                self.base.setdefault(id(drawable), (drawable.x, drawable.y))
        self.pose(0.0)
        return end

    def pose(self, t: float) -> None:
        for entity, old, new in self.tracks:
            x, row, z = place_at(old, new, t)
            px, py = self.proj.point(x, row, z)
            fx, fy = self.proj.point(*new)
            for drawable in self.drawn.get(entity, []):
                bx, by = self.base[id(drawable)]
                drawable.x, drawable.y = bx + px - fx, by + py - fy
        if self.tracks and t >= max(travel_time(o, n) for _e, o, n in self.tracks):
            self.tracks = []

    # -- pieces ---------------------------------------------------------------------------

    def _floor(self, batch: Batch, x: int, row: int) -> None:
        face = self.proj.top_face(x, row, 0)
        self._add(shapes.Polygon(*face, color=FLOOR_TOP, batch=batch, group=LAYERS["floor"]))
        self._add(shapes.MultiLine(*face, closed=True, color=(52, 56, 68, 255), batch=batch,
                                   group=LAYERS["grid"]))

    def _block(self, batch: Batch, x: int, row: int, z: int,
               color: tuple[int, int, int]) -> None:
        p = self.proj.point
        group = slice_group(row, z)
        image = self.book.frame("cube") if self.book is not None else None
        if image is not None:
            left, bottom = p(x, row + 1, z)  # the cube's near bottom-left corner
            sprite = pyglet.sprite.Sprite(image, left, bottom, batch=batch, group=group)
            sprite.scale = self.proj.edge / CUBE_EDGE
            sprite.color = colors.shade(color, TOP_SHADE)  # the sheet's top face is white
            self._add(sprite)
            return
        front = [p(x, row + 1, z), p(x + 1, row + 1, z), p(x + 1, row + 1, z + 1),
                 p(x, row + 1, z + 1)]
        right = [p(x + 1, row + 1, z), p(x + 1, row, z), p(x + 1, row, z + 1),
                 p(x + 1, row + 1, z + 1)]
        top = self.proj.top_face(x, row, z + 1)
        edge = colors.shade(color, 0.45)
        for face, shade in ((front, 0.86), (right, 0.66), (top, TOP_SHADE)):
            self._add(shapes.Polygon(*face, color=colors.shade(color, shade), batch=batch,
                                     group=group))
        thickness = max(1.0, self.proj.edge / 40)
        for face in (front, right, top):
            self._add(shapes.MultiLine(*face, closed=True, thickness=thickness,
                                       color=(*edge, 255), batch=batch, group=group))

    def _exit(self, batch: Batch, x: int, row: int, z: int) -> None:
        proj = self.proj
        group = slice_group(row, z)
        inset = [proj.point(x + 0.18, row + 0.82, z), proj.point(x + 0.82, row + 0.82, z),
                 proj.point(x + 0.82, row + 0.18, z), proj.point(x + 0.18, row + 0.18, z)]
        self._add(shapes.Polygon(*inset, color=(*EXIT, 200), batch=batch, group=group))
        cx, cy = proj.top_center(x, row, z)
        pole = proj.edge * 0.7
        self._add(shapes.Line(cx, cy, cx, cy + pole, thickness=max(1.5, proj.edge / 24),
                              color=(30, 34, 40), batch=batch, group=group))
        self._add(shapes.Triangle(cx, cy + pole, cx + pole * 0.5, cy + pole * 0.82, cx,
                                  cy + pole * 0.64, color=EXIT, batch=batch, group=group))

    def _ball(self, batch: Batch, x: int, row: int, z: int) -> None:
        proj = self.proj
        group = slice_group(row, z)
        cx, cy = proj.top_center(x, row, z)
        radius = proj.edge * 0.3
        self._add(shapes.Ellipse(cx, cy, radius * 1.05, radius * 0.45, color=(20, 20, 24, 120),
                                 batch=batch, group=group))
        self._add(shapes.Circle(cx, cy + radius * 0.9, radius, color=BALL, batch=batch,
                                group=group))
        self._add(shapes.Circle(cx - radius * 0.35, cy + radius * 1.25, radius * 0.28,
                                color=(255, 214, 200), batch=batch, group=group))

    def _marker(self, batch: Batch, x: int, row: int, z: int) -> None:
        """The ball's place drawn over whatever hides it: a ring and an arrow pointing down."""
        proj = self.proj
        cx, cy = proj.top_center(x, row, z)
        radius = proj.edge * 0.3
        cy += radius * 0.9
        self._add(shapes.Arc(cx, cy, radius * 1.1, thickness=max(2.0, proj.edge / 18),
                             color=colors.SELECT, batch=batch, group=TOP))
        tip = cy + radius * 1.4
        self._add(shapes.Triangle(cx, tip, cx - radius * 0.6, tip + radius * 1.0,
                                  cx + radius * 0.6, tip + radius * 1.0, color=colors.SELECT,
                                  batch=batch, group=TOP))




def travel_time(old: Place, new: Place) -> float:
    """Seconds to go from `old` to `new`: climb, slide, drop (each only if needed)."""
    steps = abs(new[0] - old[0]) + abs(new[1] - old[1])
    dz = new[2] - old[2]
    return steps * SLIDE + (CLIMB * dz if dz > 0 else DROP * (-dz) ** 0.5)


def place_at(old: Place, new: Place, t: float) -> tuple[float, float, float]:
    """Where a piece moving from `old` to `new` is `t` seconds in: it climbs first when it
    ends higher, slides across, then falls (accelerating) when it ends lower."""
    (x0, r0, z0), (x1, r1, z1) = old, new
    climb = CLIMB * (z1 - z0) if z1 > z0 else 0.0
    slide = SLIDE * (abs(x1 - x0) + abs(r1 - r0))
    drop = DROP * (z0 - z1) ** 0.5 if z1 < z0 else 0.0
    if t < climb:
        return x0, r0, z0 + (z1 - z0) * t / climb
    t -= climb
    u = min(1.0, t / slide) if slide else 1.0
    x, r = x0 + (x1 - x0) * u, r0 + (r1 - r0) * u
    z = float(max(z0, z1) if climb else z0)
    if drop and t > slide:
        fall = min(1.0, (t - slide) / drop)
        z = z0 - (z0 - z1) * fall * fall
    return x, r, z
