"""`rulefront render REPLAY.json -o FILE.png` draws the replay's final position, not its start."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from game.cli import main

pytestmark = pytest.mark.integration


def test_a_replay_is_drawn_at_its_final_position(tmp_path, capsys):
    replay = tmp_path / "game.json"
    assert main(["match", "maps/outpost.png", "--seed", "3", "--replay", str(replay)]) == 0
    start, end = tmp_path / "start.png", tmp_path / "end.png"
    assert main(["render", "maps/outpost.png", "-o", str(start), "--size", "320x240"]) == 0
    assert main(["render", str(replay), "-o", str(end), "--size", "320x240"]) == 0
    assert "wrote" in capsys.readouterr().out
    first = np.asarray(Image.open(start).convert("RGB")).astype(int)
    last = np.asarray(Image.open(end).convert("RGB")).astype(int)
    assert first.shape == last.shape == (240, 320, 3)
    assert np.abs(first - last).max(axis=2).mean() > 1  # units died and moved: not the start
