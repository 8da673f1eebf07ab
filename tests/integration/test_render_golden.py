"""`rulefront render` end to end (the golden pictures of every view are in
test_views_golden.py)."""

from __future__ import annotations

import pytest
from PIL import Image

from tests.helpers import run_cli

pytestmark = pytest.mark.integration

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
