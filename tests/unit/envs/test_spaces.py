"""The environments' action space: Gymnasium's Discrete with a faster masked sample, drawing
exactly what Discrete draws and refusing what Discrete refuses, with Discrete's messages."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium import spaces

from game.envs import raw_env
from game.envs.spaces import MaskedDiscrete


@pytest.mark.parametrize(("n", "start", "dtype"), [(6913, 0, np.int64), (5, 0, np.int64),
                                                   (9, 3, np.int64), (1, 0, np.int64),
                                                   (9, 3, np.int32)])
def test_masked_sample_draws_what_discrete_draws_from_the_same_seed(n: int, start: int,
                                                                    dtype: type) -> None:
    ours = MaskedDiscrete(n, seed=7, start=start, dtype=dtype)
    theirs = spaces.Discrete(n, seed=7, start=start, dtype=dtype)
    masks = np.random.default_rng(0)
    for _ in range(500):
        mask = (masks.random(n) < masks.random() * 0.3).astype(np.int8)  # some all zeros
        drawn, expected = ours.sample(mask), theirs.sample(mask)
        assert drawn == expected and type(drawn) is type(expected)
    assert ours.sample() == theirs.sample()  # no mask: Discrete's own draw


@pytest.mark.parametrize("mask", [np.array([0, 2, 1], dtype=np.int8),
                                  np.array([0, -1, 1], dtype=np.int8),
                                  np.array([0, 1, 1], dtype=np.int64),
                                  np.array([0, 1], dtype=np.int8)])
def test_a_bad_mask_gets_the_error_discrete_gives(mask: np.ndarray) -> None:
    with pytest.raises(AssertionError) as ours:
        MaskedDiscrete(3, seed=0).sample(mask)
    with pytest.raises(AssertionError) as theirs:
        spaces.Discrete(3, seed=0).sample(mask)
    assert str(ours.value) == str(theirs.value)


def test_every_environment_offers_it_and_it_stays_a_discrete_space() -> None:
    env = raw_env("skirmish", map="duel")
    env.reset(seed=0)
    space = env.action_space(env.agent_selection)
    assert isinstance(space, MaskedDiscrete) and isinstance(space, spaces.Discrete)
    assert space == spaces.Discrete(env.encoding.size)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[space.sample(mask)] == 1
    env.close()
