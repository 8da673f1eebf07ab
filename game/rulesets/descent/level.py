"""Descent levels as files: square heightmaps as text (rows of heights) or as PNG greys.

Both become a GameMap whose sidecar holds the heights; a sidecar YAML beside the file may set
start, exit, costs and the level's stars.
"""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from game.data import load_yaml, parse_color, read_bytes, read_text
from game.errors import UserError
from game.levels.maps import MAX_SIDE, GameMap, check_sidecar, open_png, sidecar_path
from game.registry import ruleset_config
from game.schemas import DescentSidecar

MAX_HEIGHT = 60


def parse_heights(text: str, where: str) -> list[list[int]]:
    """Rows of whole heights separated by spaces; the board must be square."""
    rows: list[list[int]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if len(rows) > MAX_SIDE:
            break  # too tall already: refused below without reading the rest
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            row = [int(v) for v in line.split()]
        except ValueError:
            raise UserError(f"{where}: line {number} must hold whole heights separated by "
                            "spaces.") from None
        if any(h < 0 or h > MAX_HEIGHT for h in row):
            raise UserError(f"{where}: line {number} has a height outside 0..{MAX_HEIGHT}.")
        rows.append(row)
    if len(rows) > MAX_SIDE or any(len(r) > MAX_SIDE for r in rows):
        raise UserError(f"{where}: has more than {MAX_SIDE} rows or heights in a row; descent "
                        f"levels may be at most {MAX_SIDE}x{MAX_SIDE}.")
    if not rows or any(len(r) != len(rows) for r in rows):
        raise UserError(f"{where}: a descent map must be square (n rows of n heights), "
                        f"found {len(rows)} rows of {sorted({len(r) for r in rows})} heights.")
    if len(rows) < 2:
        raise UserError(f"{where}: a descent map needs at least 2x2 cells.")
    return rows


def heights_text(heights: list[list[int]]) -> str:
    return "\n".join(" ".join(str(h) for h in row) for row in heights) + "\n"


def _game_map(path: Path, heights: list[list[int]], digest: str) -> GameMap:
    sidecar: dict[str, Any] = {}
    side = sidecar_path(path)
    if side.exists():
        raw = load_yaml(side)
        if isinstance(raw, dict) and raw.get("ruleset", "descent") != "descent":
            raise UserError(f"{side}: says 'ruleset: {raw['ruleset']}', but {path.name} is "
                            "a descent level; remove the key or write 'ruleset: descent'.")
        if isinstance(raw, dict):
            raw = {**raw, "ruleset": "descent"}  # its keys are descent's, named or not
        sidecar = dict(check_sidecar(raw, side, {"descent": DescentSidecar}))
        digest = hashlib.sha256(digest.encode() + read_bytes(side, "sidecar")).hexdigest()
    sidecar["ruleset"] = "descent"
    sidecar["heights"] = heights
    sidecar.setdefault("name", path.stem)
    size = len(heights)
    return GameMap(path, size, size, [], sidecar, digest)


def read_text_map(path: Path) -> GameMap:
    text = read_text(path, "descent level")
    return _game_map(path, parse_heights(text, str(path)),
                     hashlib.sha256(text.encode()).hexdigest())


def ramp() -> list[tuple[int, int, int]]:
    raw = ruleset_config("descent")["ramp"]
    return [parse_color(c, "data/rulesets/descent.yaml: ramp") for c in raw]


def read_png_map(path: Path) -> GameMap:
    """A PNG heightmap: each pixel's colour is a height on the ramp in descent.yaml."""
    colours = {c: h for h, c in enumerate(ramp())}
    data = read_bytes(path, "descent level")
    rgb = open_png(data, path, "descent levels").convert("RGB")
    width, height = rgb.size
    if width != height:
        raise UserError(f"{path}: a descent map must be square, not {width}x{height}.")
    heights = [[0] * width for _ in range(height)]
    pixels = np.asarray(rgb)
    for y, x in itertools.product(range(height), range(width)):
        colour = tuple(int(v) for v in pixels[y, x])
        if colour not in colours:
            raise UserError(f"{path}: pixel ({x}, {y}) is not on the height ramp of "
                            "data/rulesets/descent.yaml; paint heights with those greys.")
        heights[y][x] = colours[colour]
    return _game_map(path, heights, hashlib.sha256(data).hexdigest())


def write_png_map(path: Path, heights: list[list[int]]) -> None:
    from io import BytesIO

    from game.levels.files import atomic_write

    colours = ramp()
    size = len(heights)
    image = Image.new("RGB", (size, size))
    for y, row in enumerate(heights):
        for x, h in enumerate(row):
            if h >= len(colours):
                raise UserError(f"height {h} is above the PNG ramp's top ({len(colours) - 1}).")
            image.putpixel((x, y), colours[h])
    buffer = BytesIO()
    image.save(buffer, format="PNG")
    atomic_write(path, buffer.getvalue())
