"""One-player rulesets as Gymnasium environments, made by the one factory from the ruleset's
spec and registered for each: ids that make with defaults and a time limit, masks, rewards,
refusals, truncation by every step, the end-on-illegal option and curricula by reset options.
(Gymnasium's own checker, which opens each render mode's window, runs in
tests/integration/test_env_frames.py.)"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from game import registry
from game.envs import env, gym_id, raw_env
from game.errors import UserError
from systems.ai.solver import solve

SOLO = [spec.name for spec in registry.specs() if spec.capabilities.players == 1]
LEVELS = {"puzzle": "first-steps", "descent": "level-03"}


def test_every_one_player_ruleset_has_a_registered_id() -> None:
    assert {"puzzle", "descent"} <= set(SOLO)
    for ruleset in SOLO:
        assert gym_id(ruleset) in gym.registry


@pytest.mark.parametrize("ruleset", SOLO)
def test_an_id_makes_the_default_level_with_a_time_limit(ruleset: str) -> None:
    made = gym.make(gym_id(ruleset))
    spec = registry.spec(ruleset)
    assert made.spec.max_episode_steps == spec.defaults()["max_moves"]
    assert made.unwrapped.params == spec.typed({})
    obs, info = made.reset(seed=0)
    assert made.observation_space.contains(obs) and info["action_mask"].any()
    assert type(env(ruleset).unwrapped) is type(raw_env(ruleset))


@pytest.mark.parametrize("ruleset", SOLO)
def test_the_solvers_moves_win_the_level_with_reward_one(ruleset: str) -> None:
    made = gym.make(gym_id(ruleset), level=LEVELS[ruleset])
    _, info = made.reset(seed=0)
    solution = solve(made.unwrapped.engine, 5.0, "bfs", None, 1)
    assert solution.solved
    made.reset(seed=0)
    encoding = made.unwrapped.encoding  # game.encoding's, the OpenSpiel game's too
    for index, command in enumerate(solution.commands):
        action = encoding.encode(made.unwrapped.engine.world, command)
        assert info["action_mask"][action] == 1
        assert made.unwrapped.action_masks()[action]
        _, reward, terminated, truncated, info = made.step(action)
        assert not truncated
        assert terminated == (index == len(solution.commands) - 1)
    assert reward == 1.0 and info["outcome"]["winner"] == "player"
    again = made.unwrapped.step(0)  # past the end: nothing is paid twice
    assert again[1:4] == (0.0, True, False) and "ended" in again[4]


def test_a_descent_step_into_the_edge_is_refused_and_the_board_stays() -> None:
    made = gym.make("rulefront/Descent-v0", level="level-03")
    obs, info = made.reset()
    assert info["action_mask"].tolist() == [0, 1, 0, 1]  # the ball starts top-left; no wait
    after, reward, terminated, _, info = made.step(0)  # up: off the board
    assert info["illegal"] == "action 0 (step up) is not legal now."
    assert reward == 0.0 and not terminated and np.array_equal(obs, after)
    raw = made.unwrapped
    for number in (4, -1):  # no wait in descent, and no number below 0: refused, not raised
        again, reward, terminated, _, info = raw.step(number)
        assert info["illegal"] == f"action {number} is not one of 0..3." and not terminated
        assert np.array_equal(obs, again)


@pytest.mark.parametrize("action", [2.7, 1.0, "1", True, np.array([0.5])])
def test_an_action_that_is_not_an_integer_is_an_error(action) -> None:
    made = raw_env("descent", level="level-03")
    made.reset()
    with pytest.raises(TypeError, match="is not an integer"):
        made.step(action)
    assert made.steps == 0 and not made.engine.history
    made.step(np.int64(1))
    assert made.engine.history


def test_max_steps_truncates_an_episode_counting_refused_steps() -> None:
    made = gym.make("rulefront/Puzzle-v0", level="first-steps", max_steps=3)
    made.reset()
    results = [made.step(action)[3] for action in (4, 0, 4)]  # wait, a refused step up, wait
    assert results == [False, False, True]


@pytest.mark.parametrize("ruleset", SOLO)
def test_five_thousand_illegal_steps_end_the_episode(ruleset: str) -> None:
    made = gym.make(gym_id(ruleset))
    made.reset(seed=0)
    steps = 0
    while steps < 5_000:
        steps += 1
        mask = made.unwrapped.action_masks()
        illegal = np.flatnonzero(~mask)
        _, reward, terminated, truncated, info = made.step(
            int(illegal[0]) if len(illegal) else made.action_space.n)  # out of range if all legal
        assert "illegal" in info and reward == 0.0
        if terminated or truncated:
            break
    assert truncated and steps == made.spec.max_episode_steps
    assert not made.unwrapped.engine.history


def test_the_end_on_illegal_option_ends_the_episode_with_minus_one() -> None:
    made = gym.make("rulefront/Descent-v0", level="level-03", end_on_illegal=True)
    made.reset()
    _, reward, terminated, truncated, info = made.step(0)
    assert (reward, terminated, truncated) == (-1.0, True, False) and "illegal" in info
    assert made.unwrapped.step(1)[1:4] == (0.0, True, False)  # and stays ended


def test_reset_options_choose_the_next_level_for_curricula() -> None:
    made = gym.make("rulefront/Descent-v0")  # level-01, 4 x 4
    made.reset(options={"level": "level-02"})  # 4 x 4 too
    assert made.unwrapped.game_map.path.name == "level-02.txt"
    first, _ = made.reset()  # the level the options chose stays until other options come
    assert made.unwrapped.game_map.path.name == "level-02.txt"
    made.reset(options={"source": "level-01"})
    made.reset(options={"source": "level-02"})
    assert np.array_equal(first, made.reset()[0])
    with pytest.raises(UserError, match=r"is \(3, 5, 5\).*make a new environment for it"):
        made.reset(options={"level": "level-03"})
    assert made.unwrapped.game_map.path.name == "level-02.txt"  # refused: nothing changed
    made.reset(options={"unrelated": 1})  # other tools' options are ignored


def test_a_level_of_another_ruleset_is_refused_in_one_sentence() -> None:
    with pytest.raises(UserError, match="is a descent level, not a puzzle one"):
        gym.make("rulefront/Puzzle-v0", level="level-03")


def test_reset_rewinds_to_exactly_the_start_and_a_new_seed_starts_afresh() -> None:
    from game.engine import Engine

    made = gym.make("rulefront/Puzzle-v0", level="first-steps")
    first, _ = made.reset(seed=3)
    engine = made.unwrapped.engine
    for action in (3, 3, 0, 2, 4):
        made.step(action)
    again, _ = made.reset()
    assert made.unwrapped.engine is engine and not engine.history  # rewound, not rebuilt
    assert np.array_equal(first, again)
    fresh = Engine.from_game_map(made.unwrapped.game_map, seed=3)
    assert engine.world.state_key() == fresh.world.state_key()
    made.reset(seed=4)
    assert made.unwrapped.engine is not engine
