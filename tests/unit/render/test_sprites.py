"""The sprite sheets as data: the index names every frame the views ask for, the PNGs are what
the generator draws, and the palette swap and autotile masks do what they say. No GL here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game import DATA
from game.render import sprites_gen
from game.render.sprites import SheetError, autotile, read_index, side_shades, swapped

FOLDER = DATA / "sprites"


def test_the_index_names_every_unit_facing_and_frame_and_every_autotile():
    index = read_index(FOLDER)
    for unit in sprites_gen.UNITS:
        for facing in sprites_gen.FACINGS:
            for frame in sprites_gen.FRAMES:
                assert index.has(f"{unit}.{facing}.{frame}")
    for mask in range(16):
        assert index.has(f"water.{mask}") and index.has(f"wall.{mask}")
    assert index.has("hq") and index.has("tower") and index.has("rock")
    assert index.sheets["units"].team_key and not index.sheets["terrain"].team_key


def test_the_shipped_sheets_are_exactly_what_the_generator_draws(tmp_path):
    sprites_gen.write(tmp_path)
    for name in ("units.png", "buildings.png", "terrain.png", "words.png", "blocks.png",
                 "index.yaml"):
        if name.endswith(".png"):
            ours = Image.open(tmp_path / name).convert("RGBA").tobytes()
            assert ours == Image.open(FOLDER / name).convert("RGBA").tobytes(), name
        else:
            assert (tmp_path / name).read_text() == (FOLDER / name).read_text()


def test_a_palette_swap_paints_the_key_shades_in_the_side_colour_and_nothing_else():
    sheet = read_index(FOLDER).sheets["units"]
    red = swapped(sheet, "red")
    key = {c[:3] for c in sprites_gen.KEY}
    before = [tuple(p) for p in np.asarray(sheet.picture).reshape(-1, 4).tolist()]
    after = [tuple(p) for p in np.asarray(red).reshape(-1, 4).tolist()]
    changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert changed and all(b[:3] in key and b[3] for b, _ in changed)
    assert {a[:3] for _, a in changed} <= set(side_shades("red"))
    blue = swapped(sheet, "blue")
    assert red.tobytes() != blue.tobytes()


@pytest.mark.parametrize("cells, mask", [
    ({(1, 1)}, 0),
    ({(1, 1), (1, 0)}, 1),
    ({(1, 1), (2, 1)}, 2),
    ({(1, 1), (1, 2)}, 4),
    ({(1, 1), (0, 1)}, 8),
    ({(1, 1), (1, 0), (2, 1), (1, 2), (0, 1)}, 15),
    ({(1, 1), (2, 2), (0, 0)}, 0),  # diagonals do not join
])
def test_autotile_masks_count_same_kind_neighbours_on_the_four_sides(cells, mask):
    def kinds_at(x: int, y: int) -> list[str]:
        return ["water"] if (x, y) in cells else []

    assert autotile(kinds_at, 1, 1, frozenset({"water"})) == mask


def test_a_missing_index_or_a_broken_sheet_is_a_sheet_error_naming_the_file(tmp_path):
    with pytest.raises(SheetError, match="index.yaml is missing"):
        read_index(tmp_path)
    (tmp_path / "index.yaml").write_text((FOLDER / "index.yaml").read_text())
    for path in FOLDER.glob("*.png"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    (tmp_path / "units.png").write_bytes(b"not a png")
    with pytest.raises(SheetError, match="units.png"):
        read_index(tmp_path)
    Image.new("RGBA", (16, 16)).save(tmp_path / "units.png")  # too small for its frames
    with pytest.raises(SheetError, match="outside"):
        read_index(tmp_path)


def test_a_modder_sheet_of_the_same_layout_is_read_in_place_of_ours(tmp_path: Path):
    (tmp_path / "index.yaml").write_text((FOLDER / "index.yaml").read_text())
    for path in FOLDER.glob("*.png"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    size = Image.open(FOLDER / "units.png").size
    Image.new("RGBA", size, (0, 200, 0, 255)).save(tmp_path / "units.png")
    index = read_index(tmp_path)
    assert index.sheets["units"].picture.getpixel((0, 0)) == (0, 200, 0, 255)


def test_every_word_has_a_tile_and_its_part_of_speech_shows():
    """Nouns: letters of their colour on a dark tile; properties: a tile of their colour;
    operators: cut (transparent) corners. Words differ from one another."""
    from game.data import words

    index = read_index(FOLDER)
    sheet = index.sheets["words"]
    seen = set()
    for info in words().values():
        name = f"word.{info.text.upper()}"
        assert index.has(name), name
        col, row = sheet.frames[name]
        tile = np.asarray(sheet.picture.crop((col * 16, row * 16, col * 16 + 16, row * 16 + 16)))
        centre = tile[1:15, 1:15, :3].reshape(-1, 3).astype(int)
        ground = np.median(centre, axis=0)  # the tile's fill: most pixels are not letters
        near_colour = int((np.abs(centre - np.array(info.color)).max(axis=1) <= 4).sum())
        if info.part == "property":
            assert np.abs(ground - np.array(info.color)).max() <= 4, name
        else:
            assert ground.max() < 60 and near_colour > 8, name  # dark, with coloured letters
        assert (tile[0, 0, 3] == 0) == (info.part == "operator"), name
        seen.add(tile.tobytes())
    assert len(seen) == len(words())


def test_word_rows_stack_long_words_in_two_rows():
    assert sprites_gen.word_rows("IS") == ["IS"]
    assert sprites_gen.word_rows("BABA") == ["BA", "BA"]
    assert sprites_gen.word_rows("MINION") == ["MIN", "ION"]
    assert sprites_gen.word_rows("WATER") == ["WAT", "ER"]


def test_a_sheet_may_name_its_own_cell_size():
    index = read_index(FOLDER)
    assert index.sheets["blocks"].cell == sprites_gen.CUBE_CELL
    assert index.sheets["words"].cell == index.cell == 16
    assert index.has("cube")
