"""Loading maps: every broken input is one sentence naming the file and the fix; files are
written atomically."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from game.data import shipped_levels
from game.errors import UserError
from game.levels.loader import load_engine
from game.levels.maps import load_map
from tests.helpers import draw_map

GOOD = ["Q.....", "B.....", ".....b", ".....q"]


def test_every_shipped_map_loads_and_has_both_sides():
    skirmish = [s.path for s in shipped_levels() if s.relative.count("/") == 0]
    names = {p.name for p in skirmish}
    assert {"duel.png", "outpost.png", "frontier.png"} <= names
    sizes = {p.name: load_map(p) for p in skirmish}
    assert (sizes["duel.png"].width, sizes["duel.png"].height) == (24, 24)
    for path in skirmish:
        assert load_engine(path).ruleset.sides == ("red", "blue")


def test_transparent_pixels_are_floor(tmp_path):
    path = draw_map(tmp_path / "m.png", GOOD)
    image = Image.open(path).convert("RGBA")
    image.putpixel((2, 2), (12, 34, 56, 0))
    image.save(path)
    assert len(load_map(path).cells) == 4


def error_for(path):
    with pytest.raises(UserError) as info:
        load_engine(path)
    return str(info.value)


def test_an_unknown_colour_names_the_pixel_its_rgb_and_the_nearest_entry(tmp_path):
    path = draw_map(tmp_path / "m.png", GOOD)
    image = Image.open(path).convert("RGBA")
    image.putpixel((3, 1), (250, 10, 10, 255))
    image.save(path)
    message = error_for(path)
    assert "pixel (3, 1)" in message and "#fa0a0a" in message and "'red hero'" in message


def test_a_half_transparent_pixel_is_refused(tmp_path):
    path = draw_map(tmp_path / "m.png", GOOD)
    image = Image.open(path).convert("RGBA")
    image.putpixel((0, 3), (0, 0, 0, 128))
    image.save(path)
    assert "half transparent" in error_for(path)


@pytest.mark.parametrize("rows, missing", [
    ([".....", "B....", "....b", "....q"], "no red headquarters"),
    (["Q....", "B....", "....b", "....."], "no blue headquarters"),
    (["Q....", ".....", "....b", "....q"], "no red hero"),
])
def test_a_map_without_both_sides_is_refused(tmp_path, rows, missing):
    assert missing in error_for(draw_map(tmp_path / "m.png", rows))


def test_an_image_larger_than_128_is_refused(tmp_path):
    path = tmp_path / "big.png"
    Image.new("RGBA", (129, 10), (255, 255, 255, 255)).save(path)
    assert "at most 128x128" in error_for(path)


def test_a_file_that_is_not_a_png_is_refused(tmp_path):
    path = tmp_path / "m.png"
    path.write_text("hello")
    assert "is not a PNG" in error_for(path)
    Image.new("RGB", (4, 4)).save(tmp_path / "m.jpg", format="JPEG")
    assert "is not a level file" in error_for(tmp_path / "m.jpg")


def test_a_truncated_png_is_refused(tmp_path):
    path = draw_map(tmp_path / "m.png", GOOD)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    assert "damaged or truncated" in error_for(path)


def test_a_missing_file_is_named(tmp_path):
    assert "no such map file" in error_for(tmp_path / "nope.png")


@pytest.mark.parametrize("text, complaint", [
    ("name: [unclosed", "not valid YAML"),
    ("- a list", "must be a YAML mapping"),
    ("colour: red", "unknown key 'colour'"),
    ("turn_limit: -3", "'turn_limit' must be a whole number"),
    ("heroes: {red: [wizard]}", "lists the class 'wizard', which is not in data/units.yaml"),
    ("heroes: {red: []}", "must list a class for each"),
    ("ruleset: chess", "unknown ruleset 'chess'"),
])
def test_a_malformed_sidecar_is_refused(tmp_path, text, complaint):
    path = draw_map(tmp_path / "m.png", ["QH...", "....q", "h...."])
    path.with_suffix(".yaml").write_text(text)
    message = error_for(path)
    assert complaint in message and "m.yaml" in message


def test_hero_classes_come_from_the_sidecar_in_reading_order(tmp_path):
    from components import Kind, Team, UnitClass

    path = draw_map(tmp_path / "m.png", ["QH.H.", "....q", "h...."],
                    {"heroes": {"red": ["sage", "duelist"], "blue": ["ranger"]}})
    engine = load_engine(path)
    world = engine.world
    classes = [(world.get(e, Team).side, world.get(e, UnitClass).name)
               for e, k in world.query(Kind) if k.name == "hero"]
    assert classes == [("red", "sage"), ("red", "duelist"), ("blue", "ranger")]


def test_saves_are_written_atomically_and_leave_no_temporary_files(tmp_path):
    from game.levels.files import atomic_write

    target = tmp_path / "save.json"
    atomic_write(target, b"one")
    atomic_write(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["save.json"]
    assert target.stat().st_mode & 0o044  # readable by others like any file, not 0600


def test_an_atomic_write_refuses_to_replace_a_device_or_a_folder(tmp_path):
    from game.levels.files import atomic_write

    for target in (Path("/dev/null"), tmp_path):
        with pytest.raises(UserError) as info:
            atomic_write(target, b"{}")
        assert "is not a regular file" in str(info.value)
    assert Path("/dev/null").is_char_device()
    assert list(tmp_path.iterdir()) == []
