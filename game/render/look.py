"""The look of the board for a browser: the sprite sheets and the colours the window draws
with, for the spectator page (game/net/web) to paint by.

The page palette-swaps team sheets itself from the shades given here (the same `side_shades`
the window's sprites use) and draws plain shapes in the palette's colours where no frame is, so
page and window look alike and neither keeps colours of its own. No pyglet here: `rulefront
serve` reads this once at start and hands it to the server, which sits below the front ends.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

from game.data import palette, words
from game.render import colors
from game.render.sprites import SheetError, read_index, side_shades, sprite_folder


@dataclass(frozen=True)
class PageLook:
    """`index`: sheets, frames, team key shades and colours as JSON values; `sheets`: each
    sheet's PNG bytes by the file name the index gives it ("units.png")."""

    index: dict[str, Any]
    sheets: dict[str, bytes] = field(default_factory=dict)


def page_look() -> PageLook:
    """The sheets of data/sprites (or RULEFRONT_SPRITES) and the palette's colours; without
    usable sheets, one warning and colours alone (the page draws shapes, as the window does)."""
    sheets: dict[str, Any] = {}
    files: dict[str, bytes] = {}
    cell = 16
    try:
        index = read_index(sprite_folder())
    except SheetError as exc:
        print(f"warning: {exc}; the spectator page draws plain shapes.", file=sys.stderr)
    else:
        cell = index.cell
        for name, sheet in index.sheets.items():
            sheets[name] = {"file": sheet.file.name, "cell": sheet.cell,
                            "team_key": [list(shade) for shade in sheet.team_key],
                            "frames": {frame: list(at) for frame, at in sheet.frames.items()}}
            files[sheet.file.name] = sheet.file.read_bytes()
    sides = sorted({entry.team for entry in palette().values() if entry.team})
    return PageLook({
        "cell": cell,
        "sheets": sheets,
        "sides": {side: [list(shade) for shade in side_shades(side)] for side in sides},
        "things": {entry.kind: list(entry.color) for entry in palette().values()
                   if entry.prefab == "thing" and entry.kind},
        "words": {text: list(info.color) for text, info in words().items()},
        "floor": list(colors.FLOOR),
        "grid": list(colors.GRID),
    }, files)
