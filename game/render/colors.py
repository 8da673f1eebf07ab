"""Colours of the client, taken from data/palette.yaml so a map looks like the PNG it came from.

No pyglet here: views and tests share these lookups.
"""

from __future__ import annotations

import hashlib
from functools import cache

from game.data import Color, palette, words

BACKGROUND = (24, 26, 32)
PANEL = (34, 37, 46)
FLOOR = (226, 221, 206)
GRID = (196, 190, 172)
TEXT = (232, 232, 236)
DIM = (150, 154, 166)
REACH = (60, 110, 235)  # cells the selected hero may move to: blue, as the genre has it
TARGET = (225, 60, 60)  # cells it may attack: red
THREAT_MOVE = (70, 130, 255)  # where enemies may move next turn (a lighter, outlined blue)
THREAT_STRIKE = (255, 70, 50)  # where else they may strike (outlined red)
BUTTON = (58, 64, 82)
BUTTON_EDGE = (120, 130, 160)
SELECT = (255, 230, 80)
RULE_BROKEN = (255, 96, 80)  # a rule broken: its line in the panel, its sentence's cells
HP_BACK = (40, 20, 20)
HP_GOOD = (70, 200, 90)
HP_LOW = (230, 80, 60)

# Side colours: the palette's heroes, whose pure reds and blues read well as unit discs.

# The colour-blind palette (Settings): Okabe and Ito's colours, told apart by every common
# kind of colour blindness: sides orange and sky blue, reach blue, targets vermillion.
COLOUR_BLIND = {"REACH": (0, 114, 178), "TARGET": (213, 94, 0),
                "THREAT_MOVE": (0, 114, 178), "THREAT_STRIKE": (213, 94, 0)}
COLOUR_BLIND_SIDES = {"red": (230, 159, 0), "blue": (86, 180, 233)}
_STANDARD = {"REACH": REACH, "TARGET": TARGET, "THREAT_MOVE": THREAT_MOVE,
             "THREAT_STRIKE": THREAT_STRIKE}
_sides: dict[str, Color] = {}  # side -> colour, overriding the palette's (colour-blind)


def use_palette(name: str) -> None:
    """Switch the client's colours to the named palette ('standard' or 'colour-blind'),
    before anything is drawn with them."""
    global REACH, TARGET, THREAT_MOVE, THREAT_STRIKE
    chosen = COLOUR_BLIND if name == "colour-blind" else _STANDARD
    REACH, TARGET = chosen["REACH"], chosen["TARGET"]
    THREAT_MOVE, THREAT_STRIKE = chosen["THREAT_MOVE"], chosen["THREAT_STRIKE"]
    _sides.clear()
    if name == "colour-blind":
        _sides.update(COLOUR_BLIND_SIDES)
    side_color.cache_clear()
    building_color.cache_clear()


@cache
def side_color(side: str) -> Color:
    """The colour of a side's units: its plain hero entry in the palette, grey if unknown."""
    if side in _sides:
        return _sides[side]
    for entry in palette().values():
        if entry.prefab == "hero" and entry.team == side and not entry.hero_class:
            return _soften(entry.color)
    return hashed_color(side)


@cache
def building_color(kind: str, side: str) -> Color:
    """A building's colour: the palette entry of that kind and team (hq, tower)."""
    if side in _sides:
        return shade(_sides[side], 0.8)
    for entry in palette().values():
        if entry.prefab == kind and entry.team == side:
            return entry.color
    return side_color(side)


@cache
def thing_color(kind: str) -> Color:
    """A plain thing's colour from the palette (rock, water, baba...); a stable hue if absent."""
    for entry in palette().values():
        if entry.prefab == "thing" and entry.kind == kind:
            return entry.color
    return hashed_color(kind)


@cache
def word_color(text: str) -> Color:
    info = words().get(text) or words().get(text.lower())
    return info.color if info is not None else hashed_color(text)


def hashed_color(name: str) -> Color:
    """A stable, mid-bright colour for a kind no data file names (so any ruleset draws)."""
    digest = hashlib.sha256(name.encode()).digest()
    return (64 + digest[0] % 160, 64 + digest[1] % 160, 64 + digest[2] % 160)


def contrast(color: Color) -> Color:
    """Black or white, whichever reads better on `color`."""
    r, g, b = color
    return (20, 20, 24) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


def shade(color: Color, factor: float) -> Color:
    """`color` darkened (factor < 1) or lightened (factor > 1), clamped to 0..255."""
    return tuple(max(0, min(255, int(c * factor))) for c in color)  # type: ignore[return-value]


def _soften(color: Color) -> Color:
    # Pure #ff0000 / #0000ff glare on screen; pull them a little toward grey.
    return tuple(int(c * 0.82 + 30) for c in color)  # type: ignore[return-value]
