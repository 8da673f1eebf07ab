"""Where the board and the side panel sit in a window of any size (pure arithmetic, no pyglet).

Screen coordinates are pyglet's: origin bottom-left, y up. Board cells are the map's: origin
top-left, y down. `Layout` converts both ways so clicks and drawing agree.
"""

from __future__ import annotations

from dataclasses import dataclass

PANEL_WIDTH = 300
MOVIE_PANEL = 160  # the narrowest panel a movie frame gets (movie_panel)
MOVIE_CELL = 16  # the smallest cell a movie's default frame gives (movie_size): a sprite's own
MARGIN = 12
MIN_CELL = 4


@dataclass(frozen=True)
class Layout:
    """A board of `cols` x `rows` cells scaled to fit a `width` x `height` window, then
    `zoom` times larger (zoom >= 1) with the view's centre `pan` cells (right, down) from the
    board's centre: a zoomed board runs past the board area, which the screen clips."""

    width: int
    height: int
    cols: int
    rows: int
    zoom: float = 1.0
    pan: tuple[float, float] = (0.0, 0.0)
    panel: int = PANEL_WIDTH  # the side panel's width when the window is wide enough

    @property
    def panel_width(self) -> int:
        # Narrow windows keep at least half their width for the board.
        return min(self.panel, self.width // 2)

    @property
    def panel_x(self) -> int:
        return self.width - self.panel_width

    @property
    def fit(self) -> int:
        """Side of one cell in pixels when the whole board fits: the largest whole size."""
        free_w = self.panel_x - 2 * MARGIN
        free_h = self.height - 2 * MARGIN
        return max(MIN_CELL, min(free_w // max(1, self.cols), free_h // max(1, self.rows)))

    @property
    def cell(self) -> int:
        """Side of one cell in pixels, zoomed."""
        return max(MIN_CELL, int(self.fit * max(1.0, self.zoom)))

    @property
    def zoomed(self) -> bool:
        return self.cell != self.fit or self.pan != (0.0, 0.0)

    @property
    def origin(self) -> tuple[int, int]:
        """Screen position of the board's bottom-left corner (the board is centred, then
        panned)."""
        cell = self.cell
        x = (self.panel_x - cell * self.cols) // 2 - round(self.pan[0] * cell)
        y = (self.height - cell * self.rows) // 2 + round(self.pan[1] * cell)
        if not self.zoomed:
            return max(0, x), max(0, y)
        return x, y

    def cell_rect(self, x: int, y: int) -> tuple[int, int, int, int]:
        """(left, bottom, width, height) on screen of board cell (x, y)."""
        ox, oy = self.origin
        cell = self.cell
        return ox + x * cell, oy + (self.rows - 1 - y) * cell, cell, cell

    def cell_center(self, x: int, y: int) -> tuple[float, float]:
        left, bottom, size, _ = self.cell_rect(x, y)
        return left + size / 2, bottom + size / 2

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The board cell under screen point (px, py), or None off the board."""
        ox, oy = self.origin
        cell = self.cell
        col = int((px - ox) // cell)
        row_from_bottom = int((py - oy) // cell)
        if px < ox or py < oy or px >= self.panel_x \
                or not (0 <= col < self.cols and 0 <= row_from_bottom < self.rows):
            return None
        return col, self.rows - 1 - row_from_bottom

    def board_point(self, px: float, py: float) -> tuple[float, float]:
        """Screen point (px, py) in cells from the board's centre (x right, y down): where a
        zoom keeps the point under the mouse."""
        ox, oy = self.origin
        cell = self.cell
        return (px - ox) / cell - self.cols / 2, self.rows / 2 - (py - oy) / cell


def movie_panel(width: int, height: int, cols: int, rows: int) -> int:
    """The side panel's width in a movie frame: what the board leaves when its cells are as
    big as the frame's height allows (a square board at 640x480 gets 456 of 640 pixels, the
    panel 160), never under MOVIE_PANEL (the status and the last events stay readable) nor
    over the window's PANEL_WIDTH."""
    cell = max(MIN_CELL, (height - 2 * MARGIN) // max(1, rows))
    left = width - cell * cols - 2 * MARGIN
    return max(MOVIE_PANEL, min(PANEL_WIDTH, left))


def movie_size(cols: int, rows: int) -> tuple[int, int]:
    """A movie's frame when no --size is given: 640x480, made larger for a big board so that a
    cell is at least MOVIE_CELL pixels (a 40x40 map: 824x664), in even pixels (video codecs
    halve the colour planes)."""
    width = max(640, cols * MOVIE_CELL + 2 * MARGIN + MOVIE_PANEL)
    height = max(480, rows * MOVIE_CELL + 2 * MARGIN)
    return width + width % 2, height + height % 2


def parse_size(text: str) -> tuple[int, int]:
    """'1024x768' -> (1024, 768), or a UserError naming the option."""
    from game.errors import UserError

    try:
        w_text, h_text = text.lower().split("x")
        width, height = int(w_text), int(h_text)
    except ValueError:
        raise UserError(f"--size '{text}' must be WIDTHxHEIGHT, e.g. 1024x768.") from None
    if not (160 <= width <= 8192 and 120 <= height <= 8192):
        raise UserError(f"--size '{text}' is out of range; use 160x120 up to 8192x8192.")
    return width, height
