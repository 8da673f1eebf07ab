"""The environments' pictures, in pyglet's headless mode (conftest.py): Gymnasium's env checker
without skipping a check (it makes every render mode, "human" included), PettingZoo's
render_test, frames from the offscreen renderer, and the game's window in "human" mode."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import render_test

from game import registry
from game.envs import env, gym_id
from tests.conformance.test_a_fifth_ruleset import register_counting

SOLO = [spec.name for spec in registry.specs() if spec.capabilities.players == 1]
SIDES = [spec.name for spec in registry.specs() if spec.capabilities.players >= 2]
SMALL = {"skirmish": {"map": "outpost"}}


@pytest.mark.parametrize("ruleset", SOLO)
@pytest.mark.parametrize("render_mode", [None, "human", "ansi", "rgb_array"])
def test_every_one_player_ruleset_passes_gymnasiums_env_checker(ruleset: str,
                                                                render_mode: str | None) -> None:
    made = gym.make(gym_id(ruleset), render_mode=render_mode)
    check_env(made.unwrapped)
    made.close()


@pytest.mark.parametrize("ruleset", SIDES)
def test_every_ruleset_of_sides_passes_pettingzoos_render_test(ruleset: str) -> None:
    render_test(lambda render_mode: env(ruleset, render_mode=render_mode,
                                        **SMALL.get(ruleset, {})))


def test_a_ruleset_registered_by_a_test_passes_the_render_test(monkeypatch) -> None:
    register_counting(monkeypatch)
    render_test(lambda render_mode: env("counting", render_mode=render_mode))


def test_human_mode_draws_the_game_in_its_window_on_every_step() -> None:
    from game.render.offscreen import frame_image

    made = env("skirmish", map="outpost", render_mode="human")
    made.reset(seed=0)
    drawing = made.unwrapped.drawing
    window = drawing._window
    assert window is not None and drawing._engine is made.unwrapped.engine
    assert made.render() is None
    made.step(int(np.flatnonzero(made.observe("red")["action_mask"])[1]))
    assert drawing._window is window  # the same window, drawn again
    assert window.caption == made.unwrapped.engine.ruleset.describe(
        made.unwrapped.engine.world)
    image = frame_image(window, drawing._screen)
    pixels = np.frombuffer(image.get_data("RGBA", image.width * 4), dtype=np.uint8)
    assert pixels.std() > 10  # the board, not a blank
    made.close()
    assert drawing._window is None


def test_level_envs_give_frames_in_rgb_array_mode() -> None:
    for ruleset in SOLO:
        made = gym.make(gym_id(ruleset), render_mode="rgb_array")
        made.reset()
        frame = made.render()
        assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8
        assert frame.std() > 10  # a picture, not a blank
        made.close()


def test_a_skirmish_frame_changes_when_a_hero_moves() -> None:
    made = env("skirmish", map="outpost", render_mode="rgb_array")
    made.reset(seed=0)
    first = made.render()
    mask = made.observe("red")["action_mask"]
    made.step(int(np.flatnonzero(mask)[1]))  # a move (0, EndTurn, is never first in the mask)
    second = made.render()
    assert first.shape == second.shape and (first != second).any()
    made.close()


def test_a_frame_is_the_picture_rulefront_render_would_save() -> None:
    import io

    from PIL import Image

    from game.render.offscreen import frame_image, to_png_bytes

    made = env("skirmish", map="duel", render_mode="rgb_array")
    made.reset(seed=0)
    frame = made.render()
    drawing = made.unwrapped.drawing
    saved = Image.open(io.BytesIO(to_png_bytes(frame_image(drawing._window, drawing._screen))))
    assert np.array_equal(frame, np.asarray(saved.convert("RGB")))
    made.close()
