"""Every ruleset's view against its golden picture, drawn by `rulefront render`; the sprite
sheets' fallback to shapes. Regenerate the pictures with `python -m tests.integration.regenerate_views`
(and look at them) when the look changes on purpose."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game.render import sprites
from tests.helpers import run_cli
from tests.integration.regenerate_views import GOLDEN, VIEWS, render_args

pytestmark = pytest.mark.integration


def picture(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB")).astype(int)


def close_to(frame: np.ndarray, golden: np.ndarray) -> bool:
    """Same size, and at most small differences (font hinting, GL rounding)."""
    if frame.shape != golden.shape:
        return False
    diff = np.abs(frame - golden).max(axis=2)
    return bool(diff.mean() < 2 and (diff <= 8).mean() > 0.99)


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_each_view_looks_like_its_golden_picture(view, tmp_path, capsys):
    out = tmp_path / f"{view}.png"
    code, _, _ = run_cli(capsys, *render_args(view, out))
    assert code == 0
    assert close_to(picture(out), picture(GOLDEN / f"{view}.png"))


def test_the_views_differ_from_one_another():
    shots = [picture(GOLDEN / f"{view}.png") for view in sorted(VIEWS)]
    for i, one in enumerate(shots):
        for other in shots[i + 1:]:
            assert not close_to(one, other)


def test_a_missing_sheet_falls_back_to_shapes_with_one_warning(tmp_path, capsys, monkeypatch):
    broken = tmp_path / "sprites"
    broken.mkdir()
    (broken / "index.yaml").write_text("cell: 16\nsheets:\n  units: {file: units.png}\n")
    monkeypatch.setenv(sprites.SPRITES_ENV, str(broken))
    shots = []
    for n in range(2):
        out = tmp_path / f"shapes{n}.png"
        code, _, err = run_cli(capsys, *render_args("skirmish", out))
        assert code == 0
        assert err.count("warning:") == (1 if n == 0 else 0)  # one warning, then quiet
        if n == 0:
            assert "units.png" in err and "plain shapes" in err
        shots.append(picture(out))
    assert close_to(shots[0], shots[1])
    # Drawn as shapes: not the sprite picture, but the same board in the same place.
    assert not close_to(shots[0], picture(GOLDEN / "skirmish.png"))
