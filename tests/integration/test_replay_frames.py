"""Replays worth sharing, read off their frames: `rulefront render REPLAY -o X.gif` (the real
command, in a process of its own) gives the board most of the frame at the default size with
cells a sprite's own size, and nothing of the panel runs off the frame; the replay viewer
(`rulefront replay FILE --window`, under Xvfb) shows its whole footer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from game import ROOT
from game.render.colors import PANEL
from tests.helpers import until
from tests.integration.xdesk import HEIGHT, WIDTH, Desk, x_server

pytestmark = pytest.mark.integration

FRAME = (10, 10, 12)  # the dark line around the board (GridView.backdrop)


def rulefront(*args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "game", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def short_replay(tmp_path: Path, game_map: str, commands: int) -> Path:
    """A replay of the first `commands` commands of a random game (an unfinished game)."""
    whole = tmp_path / "whole.json"
    rulefront("match", game_map, "--red", "random", "--blue", "random", "--seed", "3",
              "--replay", str(whole))
    record = json.loads(whole.read_text())
    record["commands"] = record["commands"][:commands]
    record.pop("result", None)
    short = tmp_path / "short.json"
    short.write_text(json.dumps(record))
    return short


def near(pixels: np.ndarray, colour: tuple[int, int, int], slack: int) -> np.ndarray:
    """Where `pixels` are `colour` (within `slack` a channel: video frames are compressed)."""
    return (np.abs(pixels.astype(int) - colour) <= slack).all(axis=-1)


def board_box(frame: np.ndarray, slack: int) -> tuple[int, int, int, int]:
    """(left, top, right, bottom) of the board's dark frame line."""
    line = near(frame, FRAME, slack)
    cols, rows = np.nonzero(line.mean(axis=0) > 0.3)[0], np.nonzero(line.mean(axis=1) > 0.3)[0]
    return int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1


def last_frame(movie: Path) -> np.ndarray:
    if movie.suffix == ".mp4":
        import imageio.v2 as imageio

        with imageio.get_reader(str(movie), format="FFMPEG") as reader:
            return np.asarray([frame for frame in reader][-1])[..., :3]
    with Image.open(movie) as gif:
        gif.seek(gif.n_frames - 1)
        return np.asarray(gif.convert("RGB"))


@pytest.mark.parametrize(("game_map", "side", "suffix"),
                         [("duel", 24, ".gif"), ("frontier", 40, ".gif"), ("duel", 24, ".mp4")])
def test_the_board_gets_most_of_the_frame_with_cells_a_sprite_wide(tmp_path, game_map, side,
                                                                   suffix):
    movie = tmp_path / f"game{suffix}"
    rulefront("render", str(short_replay(tmp_path, game_map, 6)), "-o", str(movie), "--tween",
              "0")
    frame = last_frame(movie)
    slack = 0 if suffix == ".gif" else 24
    height, width = frame.shape[:2]
    left, top, right, bottom = board_box(frame, slack)
    share = (right - left) * (bottom - top) / (width * height)
    assert share > 0.6, f"the board has {share:.0%} of the frame"
    assert (right - left - 6) / side >= 16  # cells of 16 pixels at least: a sprite's own size
    ground = near(frame, PANEL, slack)
    assert ground[:, -4:].all(), "the panel's text is cut at the frame's edge"
    panel_x = int(np.nonzero(ground.mean(axis=0) > 0.5)[0].min())
    assert ground[-4:, panel_x:].all(), "the panel's text is cut at the bottom"


def test_the_replay_viewer_shows_its_whole_footer(tmp_path):
    replay = short_replay(tmp_path, "duel", 4)
    with x_server() as display:
        desk = Desk(display, tmp_path)
        viewer = subprocess.Popen([sys.executable, "-m", "game", "replay", str(replay),
                                   "--window", "--size", f"{WIDTH}x{HEIGHT}"], cwd=ROOT,
                                  env={**desk.env, "PYTHONPATH": str(ROOT)},
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            window = desk.window("^Rulefront replay")

            def footer_drawn() -> np.ndarray | None:
                shot = desk.window_shot(window)
                bottom = shot[HEIGHT - 80:, WIDTH - 300:]  # the panel's lowest lines
                ground = (bottom == PANEL).all(axis=2)
                return shot if ground.mean() > 0.5 and (~ground).sum() > 200 else None

            shot = until(footer_drawn, "the footer")
            assert (shot[:, -4:] == PANEL).all(), "the footer runs off the window's right edge"
            assert (shot[-4:, WIDTH - 300:] == PANEL).all(), "the footer runs off the bottom"
        finally:
            viewer.kill()
            viewer.wait(10)
