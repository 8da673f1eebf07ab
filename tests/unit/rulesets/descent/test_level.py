"""Descent levels from files: text heightmaps and PNG heightmaps, and the broken ones refused."""

from __future__ import annotations

import pytest

from game.errors import UserError
from game.rulesets.descent.level import parse_heights


@pytest.mark.parametrize("text", ["1 2\n3", "a b\nc d", "5", "1 -1\n0 0"])
def test_bad_heightmaps_are_refused_with_a_sentence(text):
    with pytest.raises(UserError):
        parse_heights(text, "bad.txt")


def test_a_png_heightmap_loads_like_its_text_twin(tmp_path):
    from game.levels.loader import load_engine
    from game.rulesets.descent.level import write_png_map

    rows = [[3, 2, 1], [2, 2, 0], [1, 0, 0]]
    write_png_map(tmp_path / "h.png", rows)
    (tmp_path / "h.yaml").write_text("ruleset: descent\n")
    engine = load_engine(tmp_path / "h.png")
    assert engine.ruleset.name == "descent"
    assert engine.ruleset.heights(engine.world) == rows


def test_a_png_off_the_ramp_is_refused(tmp_path):
    from PIL import Image

    from game.levels.loader import load_engine

    Image.new("RGB", (2, 2), (1, 2, 3)).save(tmp_path / "h.png")
    (tmp_path / "h.yaml").write_text("ruleset: descent\n")
    with pytest.raises(UserError, match="ramp"):
        load_engine(tmp_path / "h.png")
