"""Where the editor's board, palette and key lines sit (pure arithmetic, no pyglet).

The board is placed by `Layout` like the play window's; the panel on the right holds the
map's fields at the top, the key lines at the bottom, and between them the palette: one
heading per group, then its swatches in rows, as large as the room between allows. Tests
that drive the real window read the same geometry to know where to click.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.render.controllers.editor import PaletteGroup
from game.render.layout import MARGIN, Layout

HEADER = 214  # pixels from the top kept for the file name, fields, hover line and message
KEY_LINE = 14  # pixels per key line at the panel's bottom
HEADING = 17  # pixels of a group's heading
GAP = 3  # pixels between swatches
SWATCH_SIZES = (28, 26, 24, 22, 20, 18, 16, 14, 12, 10)
KEYS = ("click/drag: tool    right button: erase",
        "a swatch or [ ]: brush    B paint  X erase",
        "F rectangle (2 clicks)    {undo} / Ctrl+Z undo",
        "{redo} redo    {save} save    P save and play this map",
        "G ruleset   + / - turn limit   Ctrl+arrows size",
        "{quit} / Esc quit (asks if there are unsaved changes)")  # {action}: its key now


@dataclass(frozen=True)
class Heading:
    title: str
    x: int
    top: int  # y of the text's top (pyglet: y up)


@dataclass(frozen=True)
class Swatch:
    index: int  # into the controller's entries
    x: int  # bottom-left corner (pyglet: y up)
    y: int
    size: int

    def holds(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.size and self.y <= py < self.y + self.size

    @property
    def center(self) -> tuple[int, int]:
        return self.x + self.size // 2, self.y + self.size // 2


@dataclass(frozen=True)
class PalettePlan:
    headings: tuple[Heading, ...]
    swatches: tuple[Swatch, ...]

    def swatch_at(self, px: float, py: float) -> Swatch | None:
        return next((s for s in self.swatches if s.holds(px, py)), None)

    def spot(self, index: int) -> Swatch:
        return next(s for s in self.swatches if s.index == index)


def plan_palette(layout: Layout, groups: list[PaletteGroup]) -> PalettePlan:
    """Headings and swatches of `groups` in the panel of `layout`, between the header and the
    key lines, with the largest swatches that fit (the smallest otherwise)."""
    x0 = layout.panel_x + MARGIN
    room_w = layout.panel_width - 2 * MARGIN
    top = layout.height - HEADER
    bottom = MARGIN + KEY_LINE * len(KEYS) + 6
    for size in SWATCH_SIZES:
        per_row = max(1, (room_w + GAP) // (size + GAP))
        rows = sum(-(-len(group.entries) // per_row) for group in groups)
        needed = len(groups) * HEADING + rows * (size + GAP)
        if needed <= top - bottom or size == SWATCH_SIZES[-1]:
            break
    headings: list[Heading] = []
    swatches: list[Swatch] = []
    y = top
    for group in groups:
        headings.append(Heading(group.title, x0, y))
        y -= HEADING
        for n, index in enumerate(group.entries):
            row, col = divmod(n, per_row)
            swatches.append(Swatch(index, x0 + col * (size + GAP),
                                   y - (row + 1) * (size + GAP) + GAP, size))
        y -= -(-len(group.entries) // per_row) * (size + GAP)
    return PalettePlan(tuple(headings), tuple(swatches))
