"""The one-player levels as Gymnasium environments: Gymnasium's own env checker, masks in
info, rewards, refusals."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import game.envs  # noqa: F401  (registers rulefront/Puzzle-v0 and rulefront/Descent-v0)
from game.errors import UserError
from systems.ai.solver import solve


@pytest.mark.parametrize(("env_id", "level"), [("rulefront/Puzzle-v0", "first-steps"),
                                               ("rulefront/Descent-v0", "level-03")])
def test_the_level_envs_pass_gymnasiums_env_checker(env_id: str, level: str) -> None:
    env = gym.make(env_id, level=level, render_mode="ansi")
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize(("env_id", "level"), [("rulefront/Puzzle-v0", "first-steps"),
                                               ("rulefront/Descent-v0", "level-03")])
def test_the_solvers_moves_win_the_level_with_reward_one(env_id: str, level: str) -> None:
    env = gym.make(env_id, level=level)
    _, info = env.reset(seed=0)
    solution = solve(env.unwrapped.engine, 5.0, "bfs", None, 1)
    assert solution.solved
    env.reset(seed=0)
    encoding = env.unwrapped.encoding  # game.encoding's, the OpenSpiel game's too
    for index, command in enumerate(solution.commands):
        action = encoding.encode(env.unwrapped.engine.world, command)
        assert info["action_mask"][action] == 1
        _, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert terminated == (index == len(solution.commands) - 1)
    assert reward == 1.0 and info["outcome"]["winner"] == "player"


def test_a_descent_step_into_the_edge_is_refused_and_the_board_stays() -> None:
    env = gym.make("rulefront/Descent-v0", level="level-03")
    obs, info = env.reset()
    assert info["action_mask"].tolist() == [0, 1, 0, 1]  # the ball starts top-left; no wait
    after, reward, terminated, _, info = env.step(0)  # up: off the board
    assert "illegal" in info and reward == 0.0 and not terminated
    assert np.array_equal(obs, after)
    for number in (4, -1):  # no wait in descent, and no number below 0: refused, not raised
        again, reward, terminated, _, info = env.step(number)
        assert info["illegal"] == f"action {number} is not one of 0..3." and not terminated
        assert np.array_equal(obs, again)


def test_max_steps_truncates_an_episode() -> None:
    env = gym.make("rulefront/Puzzle-v0", level="first-steps", max_steps=3)
    env.reset()
    results = [env.step(4)[3] for _ in range(3)]  # wait three times
    assert results == [False, False, True]


def test_a_level_of_another_ruleset_is_refused_in_one_sentence() -> None:
    with pytest.raises(UserError, match="is a descent level; rulefront/Puzzle-v0 takes a puzzle"):
        gym.make("rulefront/Puzzle-v0", level="level-03")


def test_reset_rewinds_to_exactly_the_start_and_a_new_seed_starts_afresh() -> None:
    from game.engine import Engine

    env = gym.make("rulefront/Puzzle-v0", level="first-steps")
    first, _ = env.reset(seed=3)
    engine = env.unwrapped.engine
    for action in (3, 3, 0, 2, 4):
        env.step(action)
    again, _ = env.reset()
    assert env.unwrapped.engine is engine and not engine.history  # rewound, not rebuilt
    assert np.array_equal(first, again)
    fresh = Engine.from_game_map(env.unwrapped.game_map, seed=3)
    assert engine.world.state_key() == fresh.world.state_key()
    env.reset(seed=4)
    assert env.unwrapped.engine is not engine
