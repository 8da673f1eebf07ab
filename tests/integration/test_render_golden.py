"""The drawn board against a golden picture, and `rulefront render` end to end.

When the look changes on purpose, regenerate the golden picture and review it by eye:

    python -m game render maps/outpost.png -o tests/golden/outpost.png --size 640x480
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.levels.loader import load_engine
from game.render.offscreen import frame_image, to_array
from game.render.screen import Screen
from tests.helpers import run_cli

pytestmark = pytest.mark.integration

GOLDEN = Path(__file__).parent.parent / "golden" / "outpost.png"


def test_outpost_looks_like_its_golden_picture(window):
    engine = load_engine("maps/outpost.png")
    frame = to_array(frame_image(window, Screen(engine, *window.get_size())))
    golden = np.asarray(Image.open(GOLDEN).convert("RGB"))
    assert frame.shape == golden.shape
    diff = np.abs(frame.astype(int) - golden.astype(int)).max(axis=2)
    assert diff.mean() < 2
    assert (diff <= 8).mean() > 0.99


def test_render_command_writes_a_png_of_the_asked_size(tmp_path, capsys):
    picture = tmp_path / "duel.png"
    code, out, _ = run_cli(capsys, "render", "maps/duel.png", "-o", str(picture), "--size",
                           "400x300")
    assert code == 0 and Image.open(picture).size == (400, 300)
    assert "wrote" in out


def test_render_refuses_a_bad_size(tmp_path, capsys):
    code, _, err = run_cli(capsys, "render", "maps/duel.png", "-o", str(tmp_path / "x.png"),
                           "--size", "x")
    assert code == 2 and "--size" in err
