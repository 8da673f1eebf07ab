"""A copy or a pickle of an environment is a game of its own: stepping it leaves the original
untouched, and the original plays on once the copy is collected (a World frees only the esper
context it made)."""

from __future__ import annotations

import copy
import gc
import pickle

import gymnasium as gym
import numpy as np
import pytest

from game.envs import env

COPIES = {"deepcopy": copy.deepcopy, "pickle": lambda made: pickle.loads(pickle.dumps(made))}
MAKERS = {"pettingzoo skirmish": lambda: env("skirmish", map="outpost"),
          "pettingzoo octal": lambda: env("octal"),
          "gymnasium descent": lambda: gym.make("rulefront/Descent-v0"),
          "gymnasium puzzle": lambda: gym.make("rulefront/Puzzle-v0")}


def first_legal(made) -> int:
    if hasattr(made, "agent_selection"):
        return int(np.flatnonzero(made.observe(made.agent_selection)["action_mask"])[0])
    return int(np.flatnonzero(made.unwrapped.action_masks())[0])


def play(made, steps: int) -> None:
    for _ in range(steps):
        made.step(first_legal(made))


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("maker", MAKERS)
def test_a_copy_steps_on_its_own_and_the_original_outlives_it(maker: str, how: str) -> None:
    made = MAKERS[maker]()
    made.reset(seed=0)
    play(made, 1)
    original = made.unwrapped
    key, played = original.engine.world.state_key(), original.engine.commands()
    twin = COPIES[how](made)
    assert twin.unwrapped.engine.world.name != original.engine.world.name
    assert twin.unwrapped.engine.world.state_key() == key  # the same position...
    play(twin, 2)
    assert len(twin.unwrapped.engine.history) == 3
    assert original.engine.world.state_key() == key  # ...played on apart
    assert original.engine.commands() == played
    del twin
    gc.collect()
    play(made, 2)  # the original's esper context is still there
    assert len(original.engine.history) == 3


def test_a_copy_of_a_rendering_env_draws_in_a_window_of_its_own() -> None:
    made = env("octal", render_mode="ansi")
    made.reset()
    twin = copy.deepcopy(made)
    assert twin.unwrapped.drawing is not made.unwrapped.drawing
    assert twin.render() == made.render()
