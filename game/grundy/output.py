"""Files `rulefront grundy` writes: a CSV of n,g rows and a PNG plot of G(n) against n."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image

from game.errors import UserError

WIDTH, HEIGHT, MARGIN = 900, 420, 30


def write_atomically(path: str, write: Callable[[BinaryIO], None]) -> None:
    """Write via a temporary file in the same folder, so readers never see half a file."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"cannot write {path}: folder {folder} does not exist.")
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            write(handle)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def write_csv(path: str, values: np.ndarray) -> None:
    """n,g rows with a header line."""

    def write(handle: BinaryIO) -> None:
        rows = np.column_stack([np.arange(values.size), values])
        handle.write(b"n,g\n")
        np.savetxt(handle, rows, fmt="%d", delimiter=",")

    write_atomically(path, write)


def plot_image(values: np.ndarray) -> Image.Image:
    """G(n) as one dark pixel per point on white, with the two axes drawn in grey."""
    pixels = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
    inner_w, inner_h = WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN
    pixels[HEIGHT - MARGIN, MARGIN : WIDTH - MARGIN] = 160
    pixels[MARGIN : HEIGHT - MARGIN + 1, MARGIN] = 160
    if values.size:
        n = np.arange(values.size)
        xs = MARGIN + (n * (inner_w - 1) // max(values.size - 1, 1))
        top = max(int(values.max()), 1)
        ys = HEIGHT - MARGIN - (values.astype(np.int64) * (inner_h - 1) // top)
        pixels[ys, xs] = (20, 60, 160)
    return Image.fromarray(pixels, "RGB")


def write_plot(path: str, values: np.ndarray) -> None:
    """A PNG of G(n) against n."""
    if not path.lower().endswith(".png"):
        raise UserError(f"plot file {path!r} must end in .png.")
    image = plot_image(values)
    write_atomically(path, lambda handle: image.save(handle, format="PNG"))
