"""The games of sides as PettingZoo AEC environments: PettingZoo's own API test, the action
numbering, refusals, rewards and seeds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from game.encoding import plane_names
from game.envs import octal_env, skirmish_env
from game.errors import UserError


def test_skirmish_passes_pettingzoo_api_test() -> None:
    api_test(skirmish_env(map="outpost"), num_cycles=300)


@pytest.mark.parametrize("heaps", ["5,7", "3,4,6"])
def test_octal_passes_pettingzoo_api_test(heaps: str) -> None:
    api_test(octal_env(code="0.137", heaps=heaps))


@pytest.mark.parametrize("make", [lambda: skirmish_env(map="outpost"),
                                  lambda: octal_env(code="0.777", heaps="6,8")])
def test_every_legal_command_has_its_own_number_and_the_mask_marks_exactly_those(make) -> None:
    env = make()
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            break
        legal = env.engine.legal_actions()
        numbers = [env.encoding.encode(env.engine.world, c) for c in legal]
        assert len(set(numbers)) == len(legal)
        mask = env.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(numbers)
        other = next(a for a in env.possible_agents if a != agent)
        assert not env.observe(other)["action_mask"].any()
        env.step(rng.choice(numbers))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = skirmish_env(map="outpost")
    env.reset(seed=1)
    before = env.engine.world.state_key()
    mask = env.observe("red")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    env.step(illegal)
    assert env.engine.world.state_key() == before
    assert env.agent_selection == "red"
    text = env.encoding.text(illegal)  # e.g. "red duelist (unit 7) moves to (0, 0)"
    assert env.infos["red"]["illegal"] == f"action {illegal} ({text}) is not legal now."
    env.step(env.encoding.size)  # past the last number: refused all the same
    assert env.infos["red"]["illegal"] == f"action {env.encoding.size} is not legal now."
    assert env.engine.world.state_key() == before


def random_game(env, seed: int) -> tuple[list[int], dict[str, float]]:
    """Play uniformly among the legal actions to the end: the actions and the final rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        env.step(action)
    return actions, totals


def test_a_random_octal_game_ends_with_one_winner_and_the_same_seed_replays_it() -> None:
    env = octal_env(code="0.07", heaps="9")
    actions, totals = random_game(env, 5)
    assert sorted(totals.values()) == [-1.0, 1.0]
    winner = env.engine.outcome[0]
    assert totals[winner] == 1.0
    assert random_game(env, 5) == (actions, totals)


def test_skirmish_observation_planes_show_own_and_enemy_units() -> None:
    env = skirmish_env(map="outpost")
    env.reset(seed=0)
    red, blue = env.observe("red")["observation"], env.observe("blue")["observation"]
    names = plane_names("skirmish")
    assert red.shape == (len(names), env.game_map.height, env.game_map.width)
    own, enemy = names.index("side:own"), names.index("side:other")
    assert red[own].sum() == blue[enemy].sum() > 0
    assert np.array_equal(red[own], blue[enemy]) and np.array_equal(red[enemy], blue[own])
    assert env.observation_space("red")["observation"].contains(red)


def test_ansi_render_is_the_text_board() -> None:
    env = octal_env(code="0.137", heaps="5,7", render_mode="ansi")
    env.reset()
    text = env.render()
    assert env.engine.ruleset.text_board(env.engine.world) in text


def test_a_map_of_another_ruleset_is_refused_in_one_sentence() -> None:
    with pytest.raises(UserError, match="is a descent map; skirmish_env takes a skirmish map"):
        skirmish_env(map="level-03")
