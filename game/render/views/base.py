"""What every board view is: a View draws one world into a pyglet batch, in layers.

Which view draws a ruleset is the ruleset's to say (`RulesetSpec.view`); `view_for` reads it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from pyglet import shapes
from pyglet.graphics import Batch, Group

from components.resources import SIZE_KEY
from game.render import colors
from game.render.layout import Layout
from game.render.uiview import UiView
from game.world import World

# Draw order: floor, highlights, terrain, buildings, units, hp bars and letters.
LAYERS = {name: Group(order=i) for i, name in
          enumerate(("floor", "grid", "ground", "overlay", "thing", "building", "unit", "hp",
                     "label", "float"))}


class View(ABC):
    """Draws one world into a batch; subclasses decide the projection and the look."""

    def __init__(self, world: World, layout: Layout) -> None:
        self.world = world
        self.layout = layout
        self.keep: list[Any] = []  # pyglet drops shapes nobody references

    @abstractmethod
    def build(self, batch: Batch, ui: UiView) -> None:
        """Add the board's shapes and labels to `batch`."""

    def sync(self, batch: Batch, ui: UiView) -> None:
        """Bring what this view drew in `batch` up to date with the world and `ui`. This
        default draws everything again; views that can tell what changed do less."""
        for drawable in self.keep:
            drawable.delete()
        self.build(batch, ui)

    def animate(self, events: list[Any]) -> float:
        """Start showing `events` (those of the last command); the seconds it will take."""
        return 0.0

    def pose(self, t: float) -> None:
        """Set the animation to `t` seconds after its start (past its end: the final state).
        A view that does not animate is always in its final state."""
        return None

    def animating(self) -> bool:
        """Whether an animation is under way (a sync that finds the world unchanged, after a
        hover or a clock tick, lets it run on)."""
        return False

    def backdrop(self) -> list[tuple[int, int, int, int, tuple[int, int, int]]]:
        """Plain rectangles (left, bottom, width, height, colour) under everything else: the
        screen clears them straight into the frame, far cheaper than a shape's fill with
        software GL (about 6 ms for the whole window at 1024x768)."""
        return []

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        return self.layout.cell_at(px, py)

    def _add(self, drawable: Any) -> None:
        self.keep.append(drawable)


def add_arrow(view: View, batch: Batch, x: float, y: float, direction: tuple[float, float],
              length: float, group: Group, color: tuple[int, int, int] = colors.SELECT) -> None:
    """An arrow from (x, y) along the unit vector `direction` (hints)."""
    dx, dy = direction
    tip_x, tip_y = x + dx * length, y + dy * length
    head = length * 0.38
    base_x, base_y = tip_x - dx * head, tip_y - dy * head
    thickness = max(2.0, length / 9)
    view._add(shapes.Line(x, y, base_x, base_y, thickness=thickness, color=color,
                                 batch=batch, group=group))
    view._add(shapes.Triangle(tip_x, tip_y, base_x - dy * head * 0.6,
                                     base_y + dx * head * 0.6, base_x + dy * head * 0.6,
                                     base_y - dx * head * 0.6, color=color, batch=batch,
                                     group=group))


def board_size(world: World) -> tuple[int, int]:
    width, height = world.resource(SIZE_KEY)
    return int(width), int(height)

