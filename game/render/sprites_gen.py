"""Draws the project's pixel-art sprite sheets: `python -m game.render.sprites_gen [DIR]`.

Writes `units.png`, `buildings.png`, `terrain.png`, `words.png`, `blocks.png` and
`index.yaml` into DIR (default `data/sprites/`). Every picture is drawn here from rectangles and pixels, so the art is the
project's own and regenerating it is one command. Cells are 16x16. Team colour is not drawn
per side: units and buildings are painted in the magenta KEY shades, which the loader swaps for
each side's colours (`game/render/sprites.py`). Water and walls get 16 variants each, one per
set of same-kind neighbours (bit 1 north, 2 east, 4 south, 8 west), for autotiling. Word
tiles get one frame per word of `data/words.yaml` (`word.BABA`), its letters drawn here in a
3x5 pixel font, on two rows from four letters up: a noun is letters of its colour on a dark
tile, a property dark letters on a tile of its colour, an operator bare letters on a tile with
cut corners. The descent cube (`blocks.png`, 48x48 cells) is one block in the descent view's
oblique projection, in greys the view tints by level.

Pillow only, no pyglet: the generator runs without a display.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw

from game.render.sprites import CUBE_DX, CUBE_DY, CUBE_EDGE, CUBE_RISE

CELL = 16
RGBA = tuple[int, int, int, int]
# The team shades the loader replaces: light, main, dark.
KEY = ((255, 128, 255, 255), (255, 0, 255, 255), (160, 0, 160, 255))
KEY_HEX = ["#ff80ff", "#ff00ff", "#a000a0"]
T_LIGHT, T_MAIN, T_DARK = KEY
OUTLINE = (22, 20, 26, 255)
SKIN = (238, 196, 150, 255)
STEEL, STEEL_DARK = (206, 212, 222, 255), (120, 126, 142, 255)
WOOD, WOOD_DARK = (150, 100, 54, 255), (98, 64, 34, 255)
GOLD = (246, 204, 64, 255)
WHITE = (250, 250, 250, 255)
HEROES = ("bulwark", "duelist", "ranger", "sage", "pathfinder")
UNITS = (*HEROES, "minion")
FACINGS = ("down", "up", "left", "right")
FRAMES = ("idle", "attack")
STEP = {"down": (0, 1), "up": (0, -1), "left": (-1, 0), "right": (1, 0)}
THINGS = ("rock", "block", "baba", "keke", "flag", "skull", "love", "lava", "goop", "grass",
          "floor")


def blank() -> Image.Image:
    return Image.new("RGBA", (CELL, CELL), (0, 0, 0, 0))


def outlined(picture: Image.Image) -> Image.Image:
    """`picture` with a one-pixel dark outline round everything it paints."""
    out = blank()
    alpha = picture.getchannel("A")
    for y in range(CELL):
        for x in range(CELL):
            if alpha.getpixel((x, y)):
                continue
            if any(0 <= x + dx < CELL and 0 <= y + dy < CELL and alpha.getpixel((x + dx, y + dy))
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                out.putpixel((x, y), OUTLINE)
    out.alpha_composite(picture)
    return out


# -- units ----------------------------------------------------------------------------------


def body(draw: ImageDraw.ImageDraw, facing: str, small: bool) -> None:
    """Head, torso and legs, facing the viewer (down), away (up) or to the side."""
    top = 5 if small else 3
    left, right = (6, 9) if small else (5, 10)
    draw.rectangle((left, top + 5, right, 12), fill=T_MAIN)  # torso
    draw.rectangle((left, 11, right, 11), fill=T_DARK)  # belt
    draw.rectangle((left, 13, left + 1, 14), fill=T_DARK)  # legs
    draw.rectangle((right - 1, 13, right, 14), fill=T_DARK)
    draw.rectangle((left, top, right, top + 4), fill=SKIN)  # head
    draw.rectangle((left, top, right, top), fill=T_LIGHT)  # hair band
    eye_y = top + 2
    if facing == "down":
        draw.point([(left + 1, eye_y), (right - 1, eye_y)], fill=OUTLINE)
    elif facing == "right":
        draw.point([(right - 1, eye_y)], fill=OUTLINE)
    elif facing == "left":
        draw.point([(left + 1, eye_y)], fill=OUTLINE)
    else:  # seen from behind: hair over the whole head
        draw.rectangle((left, top, right, top + 3), fill=T_DARK)


def gear(name: str) -> tuple[Image.Image, Image.Image]:
    """(headgear, weapon) of a unit class, drawn for a unit facing right or down."""
    head, weapon = blank(), blank()
    h, w = ImageDraw.Draw(head), ImageDraw.Draw(weapon)
    if name == "bulwark":
        h.rectangle((5, 2, 10, 3), fill=STEEL)  # helmet
        w.rectangle((1, 7, 5, 12), fill=STEEL)  # shield
        w.rectangle((2, 8, 4, 11), fill=T_MAIN)
        w.point([(3, 9)], fill=GOLD)
    elif name == "duelist":
        w.line((12, 3, 12, 10), fill=STEEL)  # sword
        w.line((11, 10, 13, 10), fill=GOLD)
        w.point([(12, 11)], fill=WOOD_DARK)
    elif name == "ranger":
        h.rectangle((4, 2, 11, 3), fill=T_DARK)  # hood
        h.point([(4, 4), (11, 4)], fill=T_DARK)
        for y, x in ((4, 12), (5, 13), (6, 13), (7, 13), (8, 13), (9, 13), (10, 12)):
            w.point([(x, y)], fill=WOOD)  # bow
        w.line((12, 4, 12, 10), fill=WHITE)
    elif name == "sage":
        h.polygon([(5, 3), (10, 3), (8, 0), (7, 0)], fill=T_MAIN)  # pointed hat
        h.line((4, 3, 11, 3), fill=T_DARK)
        w.line((12, 3, 12, 14), fill=WOOD)  # staff
        w.rectangle((11, 1, 13, 2), fill=GOLD)
    elif name == "pathfinder":
        h.line((5, 4, 10, 4), fill=(80, 180, 90, 255))  # headband
        w.line((12, 2, 12, 14), fill=WOOD)  # spear
        w.polygon([(12, 0), (11, 2), (13, 2)], fill=STEEL)
    else:  # minion: a club
        w.line((11, 7, 11, 12), fill=WOOD_DARK)
        w.rectangle((10, 6, 12, 7), fill=WOOD)
    return head, weapon


def unit(name: str, facing: str, frame: str) -> Image.Image:
    """One frame of a unit: the attack frame lunges a pixel and thrusts its weapon with a glint."""
    side_on = facing in ("left", "right")
    picture = blank()
    body(ImageDraw.Draw(picture), "right" if facing == "left" else facing, name == "minion")
    head, weapon = gear(name)
    if facing == "up":
        picture.alpha_composite(weapon)  # seen from behind, the weapon is in front of nothing
        picture.alpha_composite(head)
    else:
        picture.alpha_composite(head)
        picture.alpha_composite(weapon)
    if frame == "attack":
        dx, dy = STEP["right" if side_on else facing]
        shifted = blank()
        shifted.paste(picture, (dx, dy))
        picture = shifted
        glint = ImageDraw.Draw(picture)
        glint.point([(14 if side_on or facing == "down" else 1, 3 if facing != "down" else 13)],
                    fill=WHITE)
    picture = outlined(picture)
    return picture.transpose(Image.Transpose.FLIP_LEFT_RIGHT) if facing == "left" else picture


# -- buildings -------------------------------------------------------------------------------


def hq() -> Image.Image:
    picture = blank()
    d = ImageDraw.Draw(picture)
    d.rectangle((1, 6, 14, 14), fill=(150, 146, 138, 255))  # keep
    for x in (1, 4, 7, 10, 13):
        d.rectangle((x, 4, x + 1, 5), fill=(150, 146, 138, 255))  # battlements
    for y in (8, 11):
        d.line((1, y, 14, y), fill=(120, 116, 110, 255))
    d.rectangle((6, 10, 9, 14), fill=(60, 40, 30, 255))  # gate
    d.line((8, 0, 8, 5), fill=WOOD_DARK)  # flag pole and banner
    d.rectangle((9, 0, 12, 2), fill=T_MAIN)
    d.rectangle((3, 7, 5, 9), fill=T_MAIN)
    d.rectangle((10, 7, 12, 9), fill=T_MAIN)
    return outlined(picture)


def tower() -> Image.Image:
    picture = blank()
    d = ImageDraw.Draw(picture)
    d.rectangle((4, 5, 11, 14), fill=(150, 146, 138, 255))
    d.polygon([(3, 5), (12, 5), (8, 0), (7, 0)], fill=T_MAIN)  # roof
    d.line((3, 5, 12, 5), fill=T_DARK)
    d.rectangle((7, 7, 8, 9), fill=(40, 34, 30, 255))  # window
    d.line((4, 11, 11, 11), fill=(120, 116, 110, 255))
    d.rectangle((6, 12, 9, 14), fill=T_DARK)
    return outlined(picture)


# -- terrain ---------------------------------------------------------------------------------


def speckled(base: RGBA, dots: list[RGBA], seed: int, count: int = 18) -> Image.Image:
    """A full cell of `base` with a fixed scatter of dots (same seed, same picture)."""
    picture = Image.new("RGBA", (CELL, CELL), base)
    rng = random.Random(seed)
    for _ in range(count):
        picture.putpixel((rng.randrange(CELL), rng.randrange(CELL)), rng.choice(dots))
    return picture


def water(mask: int) -> Image.Image:
    """Water, with foam and a sandy rim on each side whose neighbour is not water."""
    picture = speckled((47, 111, 208, 255), [(90, 150, 230, 255), (36, 90, 180, 255)], 7)
    d = ImageDraw.Draw(picture)
    for x in (2, 9):
        d.line((x, 5, x + 3, 5), fill=(140, 190, 245, 255))  # wavelets
    d.line((5, 11, 8, 11), fill=(140, 190, 245, 255))
    shore, foam = (214, 196, 140, 255), (200, 228, 250, 255)
    sides = {1: ((0, 0, 15, 0), (0, 1, 15, 1)), 2: ((15, 0, 15, 15), (14, 0, 14, 15)),
             4: ((0, 15, 15, 15), (0, 14, 15, 14)), 8: ((0, 0, 0, 15), (1, 0, 1, 15))}
    for bit, (_, inner) in sides.items():
        if not mask & bit:
            d.line(inner, fill=foam)
    for bit, (rim, _) in sides.items():
        if not mask & bit:
            d.line(rim, fill=shore)
    return picture


def wall(mask: int) -> Image.Image:
    """A wall post, joined by wall arms toward each neighbouring wall."""
    picture = blank()
    d = ImageDraw.Draw(picture)
    stone, top, mortar = (64, 64, 70, 255), (104, 104, 112, 255), (40, 40, 44, 255)
    boxes = [(3, 3, 12, 12)]
    if mask & 1:
        boxes.append((3, 0, 12, 3))
    if mask & 2:
        boxes.append((12, 3, 15, 12))
    if mask & 4:
        boxes.append((3, 12, 12, 15))
    if mask & 8:
        boxes.append((0, 3, 3, 12))
    for box in boxes:
        d.rectangle(box, fill=stone)
    for y in range(1, CELL, 4):  # brick courses
        d.line((0, y, 15, y), fill=mortar)
    clip = blank()
    ImageDraw.Draw(clip).rectangle((0, 0, 15, 15), fill=(0, 0, 0, 0))
    for box in boxes:
        ImageDraw.Draw(clip).rectangle(box, fill=(255, 255, 255, 255))
    picture.putalpha(clip.getchannel("A"))
    d = ImageDraw.Draw(picture)
    d.line((3, 3, 12, 3), fill=top)  # lit top edge of the post
    return outlined(picture) if mask != 15 else picture


def thing(kind: str) -> Image.Image:
    if kind == "lava":
        return speckled((230, 70, 20, 255), [(255, 170, 40, 255), (160, 30, 10, 255)], 3, 30)
    if kind == "goop":
        return speckled((0, 100, 0, 255), [(40, 150, 40, 255), (0, 70, 0, 255)], 4, 24)
    if kind == "grass":
        return speckled((96, 180, 60, 255), [(60, 140, 40, 255), (140, 220, 80, 255)], 5, 30)
    if kind == "floor":
        return speckled((158, 158, 126, 255), [(140, 140, 110, 255)], 6, 10)
    picture = blank()
    d = ImageDraw.Draw(picture)
    if kind == "rock":
        d.ellipse((1, 3, 14, 14), fill=(92, 84, 76, 255))
        d.ellipse((3, 4, 9, 9), fill=(128, 120, 110, 255))
        d.point([(10, 11), (5, 12), (11, 7)], fill=(60, 54, 50, 255))
    elif kind == "block":
        d.rectangle((1, 1, 14, 14), fill=(160, 112, 60, 255))
        d.rectangle((1, 1, 14, 14), outline=WOOD_DARK)
        d.line((2, 2, 13, 13), fill=WOOD_DARK)
        d.line((2, 13, 13, 2), fill=WOOD_DARK)
    elif kind in ("baba", "keke"):
        color = (236, 236, 250, 255) if kind == "baba" else (255, 140, 0, 255)
        d.ellipse((2, 4, 13, 13), fill=color)
        d.rectangle((3, 13, 4, 14), fill=color)
        d.rectangle((11, 13, 12, 14), fill=color)
        d.point([(6, 7), (10, 7)], fill=OUTLINE)
        if kind == "baba":
            d.line((4, 1, 5, 4), fill=color)
            d.line((11, 1, 10, 4), fill=color)
    elif kind == "flag":
        d.line((4, 1, 4, 14), fill=WOOD_DARK)
        d.polygon([(5, 1), (13, 4), (5, 8)], fill=(255, 215, 0, 255))
    elif kind == "skull":
        d.ellipse((3, 2, 12, 11), fill=(230, 226, 214, 255))
        d.rectangle((5, 10, 10, 13), fill=(230, 226, 214, 255))
        d.rectangle((5, 5, 6, 7), fill=(139, 0, 0, 255))
        d.rectangle((9, 5, 10, 7), fill=(139, 0, 0, 255))
    elif kind == "love":
        d.polygon([(2, 5), (8, 13), (13, 5), (11, 2), (8, 4), (4, 2)], fill=(255, 105, 180, 255))
    return outlined(picture)


# -- word tiles ------------------------------------------------------------------------------

# A 3x5 pixel font: five rows of three columns per letter, '#' painted.
GLYPHS = {
    "A": ".#./#.#/###/#.#/#.#", "B": "##./#.#/##./#.#/##.", "C": ".##/#../#../#../.##",
    "D": "##./#.#/#.#/#.#/##.", "E": "###/#../##./#../###", "F": "###/#../##./#../#..",
    "G": ".##/#../#.#/#.#/.##", "H": "#.#/#.#/###/#.#/#.#", "I": "###/.#./.#./.#./###",
    "J": "..#/..#/..#/#.#/.#.", "K": "#.#/#.#/##./#.#/#.#", "L": "#../#../#../#../###",
    "M": "#.#/###/###/#.#/#.#", "N": "##./#.#/#.#/#.#/#.#", "O": "###/#.#/#.#/#.#/###",
    "P": "##./#.#/##./#../#..", "Q": ".#./#.#/#.#/##./.##", "R": "##./#.#/##./#.#/#.#",
    "S": ".##/#../.#./..#/##.", "T": "###/.#./.#./.#./.#.", "U": "#.#/#.#/#.#/#.#/###",
    "V": "#.#/#.#/#.#/#.#/.#.", "W": "#.#/#.#/#.#/###/#.#", "X": "#.#/#.#/.#./#.#/#.#",
    "Y": "#.#/#.#/.#./.#./.#.", "Z": "###/..#/.#./#../###",
}
WORD_DARK = (30, 30, 36, 255)
MAX_WORD = 8  # two rows of four letters fill the 16-pixel tile


def word_rows(text: str) -> list[str]:
    """One row up to three letters, else two (the first the longer), as Baba Is You stacks them."""
    if len(text) <= 3:
        return [text]
    half = (len(text) + 1) // 2
    return [text[:half], text[half:]]


def letters(d: ImageDraw.ImageDraw, text: str, color: RGBA) -> None:
    rows = word_rows(text)
    top = 5 if len(rows) == 1 else 2
    for r, row in enumerate(rows):
        left = (CELL - (4 * len(row) - 1) + 1) // 2
        for i, char in enumerate(row):
            for gy, line in enumerate(GLYPHS.get(char, "").split("/")):
                for gx, bit in enumerate(line):
                    if bit == "#":
                        d.point([(left + 4 * i + gx, top + 7 * r + gy)], fill=color)


def word_tile(text: str, part: str, color: tuple[int, int, int]) -> Image.Image:
    """A word tile: nouns, properties and operators told apart by how the colour is used."""
    picture = blank()
    d = ImageDraw.Draw(picture)
    rgba = (*color, 255)
    rim = tuple(max(0, int(c * 0.55)) for c in color) + (255,)
    if part == "property":
        d.rectangle((0, 0, 15, 15), fill=rgba, outline=rim)
        letters(d, text, WORD_DARK)
    elif part == "noun":
        d.rectangle((0, 0, 15, 15), fill=WORD_DARK, outline=rim)
        letters(d, text, rgba)
    else:
        d.rectangle((1, 1, 14, 14), fill=WORD_DARK)
        d.point([(1, 1), (14, 1), (1, 14), (14, 14)], fill=(0, 0, 0, 0))
        letters(d, text, rgba)
    return picture


def word_cells() -> list[tuple[str, Image.Image]]:
    from game.data import words

    return [(f"word.{info.text.upper()}", word_tile(info.text.upper(), info.part, info.color))
            for info in words().values() if len(info.text) <= MAX_WORD]


# -- the descent cube ------------------------------------------------------------------------

CUBE_CELL = 48


def cube() -> Image.Image:
    """One block of the descent view: front, right and top faces in greys (the view tints them
    by level with the top face's colour), with dark edges and a few scuffs. Its bottom-left pixel is the block's near
    bottom-left corner, so the view places it there and scales it by edge / CUBE_EDGE."""
    picture = Image.new("RGBA", (CUBE_CELL, CUBE_CELL), (0, 0, 0, 0))
    d = ImageDraw.Draw(picture)
    E, DX, DY, H = CUBE_EDGE, CUBE_DX, CUBE_DY, CUBE_RISE
    b = CUBE_CELL - 1  # PIL rows grow downward: y up is b - y

    def at(x: float, y: float) -> tuple[float, float]:
        return x, b - y

    front = [at(0, 0), at(E, 0), at(E, H), at(0, H)]
    right = [at(E, 0), at(E + DX, DY), at(E + DX, DY + H), at(E, H)]
    top = [at(0, H), at(E, H), at(E + DX, DY + H), at(DX, DY + H)]
    edge = (102, 102, 104, 255)
    for face, grey in ((front, 196), (right, 150), (top, 255)):
        d.polygon(face, fill=(grey, grey, grey, 255), outline=edge)
    rng = random.Random(11)
    for _ in range(40):  # scuffs on the front and the top
        x, y = rng.randrange(2, E - 2), rng.randrange(2, H - 2)
        d.point([at(x, y)], fill=(182, 182, 182, 255))
        tx, ty = rng.uniform(0.1, 0.9), rng.uniform(0.1, 0.9)
        d.point([at(tx * E + ty * DX, H + ty * DY)], fill=(236, 236, 236, 255))
    return picture


# -- sheets ----------------------------------------------------------------------------------


def sheet(cells: list[tuple[str, Image.Image]], columns: int) -> tuple[Image.Image, dict]:
    """Cells laid out left to right, top to bottom; the index maps each name to [col, row]."""
    rows = (len(cells) + columns - 1) // columns
    picture = Image.new("RGBA", (columns * CELL, rows * CELL), (0, 0, 0, 0))
    index: dict[str, list[int]] = {}
    for i, (name, cell) in enumerate(cells):
        col, row = i % columns, i // columns
        picture.paste(cell, (col * CELL, row * CELL))
        index[name] = [col, row]
    return picture, index


def sheets() -> dict[str, tuple[Image.Image, dict, bool]]:
    """name -> (picture, frames, team coloured)."""
    unit_cells = [(f"{name}.{facing}.{frame}", unit(name, facing, frame))
                  for name in UNITS for facing in FACINGS for frame in FRAMES]
    terrain_cells: list[tuple[str, Image.Image]] = [(f"water.{m}", water(m)) for m in range(16)]
    terrain_cells += [(f"wall.{m}", wall(m)) for m in range(16)]
    terrain_cells += [(kind, thing(kind)) for kind in THINGS]
    builds: list[tuple[str, Callable[[], Image.Image]]] = [("hq", hq), ("tower", tower)]
    result = {}
    for name, cells, columns, team in (
            ("units", unit_cells, len(FACINGS) * len(FRAMES), True),
            ("buildings", [(n, f()) for n, f in builds], 2, True),
            ("terrain", terrain_cells, 16, False),
            ("words", word_cells(), 16, False)):
        picture, frames = sheet(cells, columns)
        result[name] = (picture, frames, team)
    result["blocks"] = (cube(), {"cube": [0, 0]}, False)
    return result


def picture_cell(picture: Image.Image) -> int:
    """The cell size of a sheet: 16, except the one-frame cube sheet."""
    return CUBE_CELL if picture.size == (CUBE_CELL, CUBE_CELL) else CELL


def index_text(found: dict[str, tuple[Image.Image, dict, bool]]) -> str:
    """The YAML index, written by hand so each frame sits on one line."""
    lines = ["# Sprite sheets: written by `python -m game.render.sprites_gen`; edit the PNGs or",
             "# the generator. Each frame is [column, row] in cells of `cell` pixels. Sheets with",
             "# team_key are palette-swapped: those three shades become a side's light, main and",
             "# dark colour. Water and walls are autotiled: NAME.MASK, bits 1 N, 2 E, 4 S, 8 W.",
             f"cell: {CELL}", "sheets:"]
    for name, (picture, frames, team) in found.items():
        lines.append(f"  {name}:")
        lines.append(f"    file: {name}.png")
        if picture_cell(picture) != CELL:
            lines.append(f"    cell: {picture_cell(picture)}")
        if team:
            lines.append(f"    team_key: [{', '.join(repr(c) for c in KEY_HEX)}]")
        lines.append("    frames:")
        for frame, (col, row) in frames.items():
            lines.append(f"      {frame}: [{col}, {row}]")
    return "\n".join(lines) + "\n"


def write(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    found = sheets()
    written = []
    for name, (picture, _frames, _team) in found.items():
        path = folder / f"{name}.png"
        picture.save(path)
        written.append(path)
    index = folder / "index.yaml"
    index.write_text(index_text(found))
    return [*written, index]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    from game import ROOT

    folder = Path(args[0]) if args else ROOT / "data" / "sprites"
    for path in write(folder):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
