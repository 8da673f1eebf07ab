"""Files `rulefront grundy` writes: a CSV of n,g rows and a PNG plot of G(n) against n.

Pillow and numpy are imported by the plot alone, when one is asked for."""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from game.errors import UserError

if TYPE_CHECKING:
    from PIL import Image

WIDTH, HEIGHT, MARGIN = 900, 420, 30
ROWS = 65536  # CSV rows formatted at a time


def write_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write via a temporary file in the same folder, so readers never see half a file."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {path}: folder {folder} does not exist.")
    import tempfile  # a few milliseconds: paid by the runs that write a file

    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_csv(path: str, values: array) -> None:
    """n,g rows with a header line."""

    def write(handle: BinaryIO) -> None:
        handle.write(b"n,g\n")
        for start in range(0, len(values), ROWS):
            rows = values[start : start + ROWS]
            handle.write("".join(f"{n},{g}\n" for n, g in enumerate(rows, start)).encode())

    write_atomically(path, write)


def plot_image(values: array) -> Image.Image:
    """G(n) as one dark pixel per point on white, with the two axes drawn in grey."""
    import numpy as np
    from PIL import Image

    pixels = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    pixels[HEIGHT - MARGIN, MARGIN : WIDTH - MARGIN] = 160
    pixels[MARGIN : HEIGHT - MARGIN + 1, MARGIN] = 160
    if len(values):
        g = np.frombuffer(values, {"B": np.uint8, "H": np.uint16, "I": np.uint32,
                                   "Q": np.uint64}[values.typecode]).astype(np.int64)
        n = np.arange(g.size)
        xs = MARGIN + (n * (inner_w - 1) // max(g.size - 1, 1))
        top = max(int(g.max()), 1)
        ys = HEIGHT - MARGIN - (g * (inner_h - 1) // top)
        pixels[ys, xs] = (20, 60, 160)
    return Image.fromarray(pixels, "RGB")


def write_plot(path: str, values: array) -> None:
    """A PNG of G(n) against n."""
    if not path.lower().endswith(".png"):
        raise UserError(f"plot file {path!r} must end in .png.")
    image = plot_image(values)
    write_atomically(path, lambda handle: image.save(handle, format="PNG"))
