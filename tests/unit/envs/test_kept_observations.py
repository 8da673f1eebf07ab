"""`copy=False` (games of sides): every observation a read-only array the environment keeps per
side and brings up to date in place; the same values as the new arrays of copy=True, step by
step, and PettingZoo's api_test still passes. One-player games keep new arrays: Gymnasium's
check_env refuses observations that share memory."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import api_test

from game import registry
from game.envs import env, gym_id
from game.errors import UserError

SIDES = {"skirmish": {"map": "duel"}, "octal": {"heaps": "5 7"}}
ONE = [spec.name for spec in registry.specs() if spec.capabilities.players < 2]


@pytest.mark.parametrize("ruleset", list(SIDES))
def test_kept_observations_pass_pettingzoos_api_test(ruleset: str) -> None:
    api_test(env(ruleset, copy=False, **SIDES[ruleset]), num_cycles=300)


@pytest.mark.parametrize("ruleset", ONE)
def test_one_player_games_refuse_the_copy_keyword(ruleset: str) -> None:
    with pytest.raises(UserError, match="no parameter 'copy'"):
        gym.make(gym_id(ruleset), copy=False)


@pytest.mark.parametrize("seed", [0, 7])
def test_kept_observations_equal_new_ones_through_random_games(seed: int) -> None:
    fresh, kept = env("skirmish", map="duel"), env("skirmish", map="duel", copy=False)
    for made in (fresh, kept):
        made.reset(seed=seed)
        for number, agent in enumerate(made.possible_agents):
            made.action_space(agent).seed(seed + number)
    handed: dict[str, np.ndarray] = {}
    for step in range(1500):
        if not fresh.agents:
            fresh.reset()
            kept.reset()
        (a, ra, ta, ua, _), (b, rb, tb, ub, _) = fresh.last(), kept.last()
        assert fresh.agent_selection == kept.agent_selection
        assert (ra, ta, ua) == (rb, tb, ub)
        assert b["observation"].dtype == a["observation"].dtype
        assert np.array_equal(a["observation"], b["observation"]), step
        assert np.array_equal(a["action_mask"], b["action_mask"]), step
        assert not b["observation"].flags.writeable
        # the array a side is handed is that side's, brought up to date in place
        seen = handed.setdefault(fresh.agent_selection, b["observation"])
        assert seen is b["observation"]
        other = [side for side in fresh.possible_agents if side != fresh.agent_selection][0]
        assert np.array_equal(fresh.observe(other)["observation"],
                              kept.observe(other)["observation"])
        done = ta or ua
        action = None if done else fresh.action_space(fresh.agent_selection).sample(
            a["action_mask"])
        kept.action_space(kept.agent_selection).sample(b["action_mask"])  # keep the draws in step
        fresh.step(action)
        kept.step(action)


def test_a_copy_of_a_kept_env_keeps_arrays_of_its_own() -> None:
    import copy

    made = env("skirmish", map="duel", copy=False)
    made.reset(seed=0)
    first = made.last()[0]["observation"]
    twin = copy.deepcopy(made)
    assert twin.last()[0]["observation"] is not first
    assert np.array_equal(twin.last()[0]["observation"], first)
