"""The environments' rgb_array mode: frames from the offscreen renderer, checked by the
envs' own checkers too."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.utils.env_checker import check_env

from game.envs import skirmish_env


def test_level_envs_pass_the_checker_in_rgb_array_mode() -> None:
    for env_id, level in (("rulefront/Puzzle-v0", "first-steps"),
                          ("rulefront/Descent-v0", "level-03")):
        env = gym.make(env_id, level=level, render_mode="rgb_array")
        check_env(env.unwrapped)
        env.reset()
        frame = env.render()
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
        assert frame.std() > 10  # a picture, not a blank
        env.close()


def test_a_skirmish_frame_changes_when_a_hero_moves() -> None:
    env = skirmish_env(map="outpost", render_mode="rgb_array")
    env.reset(seed=0)
    first = env.render()
    mask = env.observe("red")["action_mask"]
    env.step(int(np.flatnonzero(mask)[1]))  # a move (0, EndTurn, is never first in the mask)
    second = env.render()
    assert first.shape == second.shape and (first != second).any()
    env.close()


def test_a_frame_is_the_picture_rulefront_render_would_save() -> None:
    import io

    from PIL import Image

    from game.render.offscreen import frame_image, to_png_bytes

    env = skirmish_env(map="duel", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    drawing = env.drawing
    saved = Image.open(io.BytesIO(to_png_bytes(frame_image(drawing._window, drawing._screen))))
    assert np.array_equal(frame, np.asarray(saved.convert("RGB")))
    env.close()
