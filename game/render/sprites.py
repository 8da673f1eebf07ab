"""Sprite sheets as data: `data/sprites/index.yaml` names each 16x16 frame of each PNG sheet.

`sprite_book()` loads the sheets once per process (a texture atlas per sheet and side, pixels
kept sharp with nearest filtering); team sheets are palette-swapped per side from the index's
`team_key` shades. A modder replaces a sheet by dropping in a PNG of the same layout, or points
`RULEFRONT_SPRITES` at a folder of their own. A missing or broken sheet gives one warning and
`None`, and the views fall back to plain shapes: a picture is never worth a crash.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from game.render import colors

SPRITES_ENV = "RULEFRONT_SPRITES"
WATER_JOIN = frozenset({"water"})
WALL_JOIN = frozenset({"wall"})
# The descent cube in sheet pixels: edge, shift of one row back (right, up), height of a block.
# The descent view's projection is these ratios, so the drawn cube and the shapes agree.
CUBE_EDGE, CUBE_DX, CUBE_DY, CUBE_RISE = 32, 13, 19, 20


class SheetError(ValueError):
    """A sprite sheet or its index cannot be used (the message names the file and the fix)."""


@dataclass
class Sheet:
    file: Path
    picture: Image.Image
    frames: dict[str, tuple[int, int]]
    team_key: tuple[tuple[int, int, int], ...] = ()
    cell: int = 16  # pixels per cell (the index's `cell`, unless the sheet names its own)


@dataclass
class SpriteIndex:
    """The parsed index: which sheet holds which frame (no GL needed)."""

    cell: int
    sheets: dict[str, Sheet]
    where: dict[str, str] = field(default_factory=dict)  # frame name -> sheet name

    def has(self, frame: str) -> bool:
        return frame in self.where


def sprite_folder() -> Path:
    override = os.environ.get(SPRITES_ENV)
    if override:
        return Path(override)
    from game import DATA

    return DATA / "sprites"


def _hex(text: str) -> tuple[int, int, int]:
    text = str(text).lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def read_index(folder: Path) -> SpriteIndex:
    """Parse and check `folder/index.yaml` and its PNGs; a SheetError says what is wrong."""
    path = folder / "index.yaml"
    try:
        raw = yaml.safe_load(path.read_text())
        cell = int(raw["cell"])
        entries = raw["sheets"]
    except FileNotFoundError:
        raise SheetError(f"{path} is missing; run `python -m game.render.sprites_gen`") from None
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as exc:
        raise SheetError(f"{path}: cannot be read ({exc})") from None
    index = SpriteIndex(cell, {})
    for name, entry in entries.items():
        file = folder / str(entry.get("file", f"{name}.png"))
        try:
            with Image.open(file) as opened:
                picture = opened.convert("RGBA")
        except (OSError, ValueError) as exc:
            raise SheetError(f"{file}: sheet '{name}' cannot be read ({exc})") from None
        try:
            frames = {str(k): (int(v[0]), int(v[1]))
                      for k, v in (entry.get("frames") or {}).items()}
            sheet_cell = int(entry.get("cell", cell))
        except (TypeError, ValueError, IndexError) as exc:
            raise SheetError(f"{path}: sheet '{name}' cannot be read ({exc})") from None
        cols, rows = picture.width // sheet_cell, picture.height // sheet_cell
        for frame, (col, row) in frames.items():
            if not (0 <= col < cols and 0 <= row < rows):
                raise SheetError(f"{file}: frame '{frame}' at [{col}, {row}] lies outside the "
                                 f"{cols}x{rows}-cell sheet")
            index.where[frame] = name
        key = tuple(_hex(c) for c in entry.get("team_key") or ())
        index.sheets[name] = Sheet(file, picture, frames, key, sheet_cell)
    return index


def side_shades(side: str) -> tuple[tuple[int, int, int], ...]:
    """Light, main and dark shades of a side's colour (the palette swap's targets)."""
    main = colors.side_color(side)
    return colors.shade(main, 1.35), main, colors.shade(main, 0.6)


def swapped(sheet: Sheet, side: str) -> Image.Image:
    """The sheet with its team key shades replaced by `side`'s (a copy; others untouched)."""
    if not sheet.team_key:
        return sheet.picture
    import numpy as np

    pixels = np.array(sheet.picture)
    for key, shade in zip(sheet.team_key, side_shades(side), strict=False):
        where = (pixels[..., :3] == key).all(axis=2) & (pixels[..., 3] > 0)
        pixels[where, :3] = shade
    return Image.fromarray(pixels, "RGBA")


class SpriteBook:
    """Textures of every sheet (per side for team sheets) and the frames cut from them."""

    def __init__(self, index: SpriteIndex) -> None:
        self.index = index
        self.cell = index.cell
        self._regions: dict[tuple[str, str], Any] = {}
        self._textures: dict[tuple[str, str], Any] = {}

    def has(self, frame: str) -> bool:
        return self.index.has(frame)

    def recolour(self) -> None:
        """Forget the per-side textures, so the next frames take the sides' colours anew
        (the colour-blind palette switched on or off)."""
        self._regions.clear()
        self._textures.clear()

    def frame(self, name: str, side: str = "") -> Any:
        """The pyglet image region of frame `name` in `side`'s colours (None if not in the index)."""
        found = self._regions.get((name, side))
        if found is not None:
            return found
        sheet_name = self.index.where.get(name)
        if sheet_name is None:
            return None
        sheet = self.index.sheets[sheet_name]
        tex_key = (sheet_name, side if sheet.team_key else "")
        texture = self._textures.get(tex_key)
        if texture is None:
            texture = self._textures[tex_key] = _texture(swapped(sheet, tex_key[1]))
        col, row = sheet.frames[name]
        cell = sheet.cell
        region = texture.get_region(col * cell, texture.height - (row + 1) * cell, cell, cell)
        self._regions[(name, side)] = region
        return region


def _texture(picture: Image.Image) -> Any:
    import pyglet
    from pyglet import gl

    class PixelTexture(pyglet.image.Texture):
        default_min_filter = gl.GL_NEAREST
        default_mag_filter = gl.GL_NEAREST

    flipped = picture.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    data = pyglet.image.ImageData(picture.width, picture.height, "RGBA", flipped.tobytes())
    return data.create_texture(PixelTexture)


_BOOKS: dict[tuple[str, int], tuple[Any, SpriteBook | None]] = {}
_WARNED: set[str] = set()


def sprite_book() -> SpriteBook | None:
    """The loaded sheets, or None (after one warning) when they are missing or broken.

    Textures live in a GL context's object space, so each space (each window that shares
    none) gets its own book; the space is held with it so its id cannot be reused."""
    import pyglet

    folder = sprite_folder()
    context = pyglet.gl.current_context
    space = context.object_space if context is not None else None
    key = (str(folder), id(space))
    found = _BOOKS.get(key)
    if found is None or found[0] is not space:
        try:
            book: SpriteBook | None = SpriteBook(read_index(folder))
        except SheetError as exc:
            book = None
            if key[0] not in _WARNED:
                _WARNED.add(key[0])
                print(f"warning: {exc}; drawing plain shapes instead.", file=sys.stderr)
        found = _BOOKS[key] = (space, book)
    return found[1]


def forget_books() -> None:
    """Drop loaded sheets (tests that switch `RULEFRONT_SPRITES`, or a new GL context)."""
    _BOOKS.clear()
    _WARNED.clear()


def autotile(world_kinds_at: Any, x: int, y: int, joins: frozenset[str]) -> int:
    """The neighbour mask of cell (x, y): bit 1 north, 2 east, 4 south, 8 west set where the
    neighbour holds a kind in `joins`. `world_kinds_at(x, y)` lists the kinds in a cell."""
    mask = 0
    for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
        if joins & set(world_kinds_at(x + dx, y + dy)):
            mask |= bit
    return mask
