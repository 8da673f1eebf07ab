"""Games of sides as PettingZoo AEC environments, made by the one factory from the ruleset's
spec: PettingZoo's own API test on every ruleset of sides (the counting ruleset registered by
a test too), the standard wrappers, the action numbering, refusals, truncation and rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test
from pettingzoo.utils import wrappers

from game import registry
from game.encoding import plane_names
from game.envs import env, raw_env, rulefront_v0
from game.errors import UserError
from tests.conformance.test_a_fifth_ruleset import register_counting

SIDES = [spec.name for spec in registry.specs() if spec.capabilities.players >= 2]
SMALL = {"skirmish": {"map": "outpost"}, "octal": {"heaps": "5 7"}}


def test_there_are_rulesets_of_sides_to_test() -> None:
    assert {"skirmish", "octal"} <= set(SIDES)


@pytest.mark.parametrize("ruleset", SIDES)
def test_every_ruleset_of_sides_passes_pettingzoos_api_test(ruleset: str) -> None:
    api_test(env(ruleset, **SMALL.get(ruleset, {})), num_cycles=300)


def test_a_ruleset_registered_by_a_test_passes_the_api_test(monkeypatch) -> None:
    register_counting(monkeypatch)
    made = env("counting", tokens=9)
    assert made.metadata["name"] == "rulefront_counting_v0"
    api_test(made, num_cycles=300)
    api_test(env("counting", end_on_illegal=True), num_cycles=300)


def test_env_wraps_raw_env_in_pettingzoos_standard_wrappers() -> None:
    made = rulefront_v0.env("octal", end_on_illegal=True)
    assert isinstance(made, wrappers.OrderEnforcingWrapper)
    assert isinstance(made.env, wrappers.AssertOutOfBoundsWrapper)
    assert isinstance(made.env.env, wrappers.TerminateIllegalWrapper)
    assert type(made.unwrapped) is type(raw_env("octal"))
    assert not isinstance(env("octal").env.env, wrappers.TerminateIllegalWrapper)


def test_the_wrappers_refuse_the_state_before_a_reset_and_read_the_bare_envs_after() -> None:
    made = env("octal", end_on_illegal=True)
    for name in ("agent_selection", "terminations", "truncations", "infos", "rewards", "agents"):
        with pytest.raises(AttributeError, match="cannot be accessed before reset"):
            getattr(made, name)
    made.reset(seed=0)
    bare = made.unwrapped
    for layer in (made, made.env, made.env.env):
        assert layer.agent_selection == bare.agent_selection
        assert layer.terminations is bare.terminations and layer.infos is bare.infos
        assert layer._cumulative_rewards is bare._cumulative_rewards
        assert layer.action_space(bare.agent_selection) is bare.action_space(bare.agent_selection)
    assert str(made) == str(bare)
    with pytest.raises(AttributeError, match="private attribute"):
        made._elsewhere  # noqa: B018 - the wrappers' own refusal still stands


def test_the_old_factory_names_still_make_each_rulesets_env() -> None:
    from game.envs import octal_env, skirmish_env

    assert skirmish_env(map="outpost").unwrapped.params == {"map": "outpost", "turn_limit": 0}
    assert octal_env(heaps=[3, 4, 5]).unwrapped.params["heaps"] == "3 4 5"


@pytest.mark.parametrize("ruleset", SIDES)
def test_state_is_the_whole_board_in_the_state_space(ruleset: str) -> None:
    made = env(ruleset, **SMALL.get(ruleset, {}))
    made.reset(seed=0)
    state = made.state()
    assert made.unwrapped.state_space.contains(state)
    first = made.possible_agents[0]
    assert np.array_equal(state, made.observe(first)["observation"])


@pytest.mark.parametrize("ruleset", SIDES)
def test_every_legal_command_has_its_own_number_and_the_mask_marks_exactly_those(
        ruleset: str) -> None:
    made = raw_env(ruleset, **SMALL.get(ruleset, {}))
    made.reset(seed=2)
    rng = random.Random(2)
    for _ in range(60):
        agent = made.agent_selection
        if made.terminations[agent] or made.truncations[agent]:
            break
        legal = made.engine.legal_actions()
        numbers = [made.encoding.encode(made.engine.world, c) for c in legal]
        assert len(set(numbers)) == len(legal)
        mask = made.observe(agent)["action_mask"]
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(numbers)
        assert np.array_equal(made.action_masks(), mask.astype(bool))
        mask[:] = 1  # each mask a new array: a learner writing into one changes no other
        again = made.observe(agent)["action_mask"]
        assert again is not mask and sorted(np.flatnonzero(again).tolist()) == sorted(numbers)
        other = next(a for a in made.possible_agents if a != agent)
        assert not made.observe(other)["action_mask"].any()
        made.step(rng.choice(numbers))


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    made = raw_env("skirmish", map="outpost")
    made.reset(seed=1)
    before = made.engine.world.state_key()
    mask = made.observe("red")["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    made.step(illegal)
    assert made.engine.world.state_key() == before
    assert made.agent_selection == "red"
    text = made.encoding.text(illegal)  # e.g. "red duelist (unit 7) moves to (0, 0)"
    assert made.infos["red"]["illegal"] == f"action {illegal} ({text}) is not legal now."
    made.step(made.encoding.size)  # past the last number: refused all the same
    assert made.infos["red"]["illegal"] == \
        f"action {made.encoding.size} is not one of 0..{made.encoding.size - 1}."
    assert made.engine.world.state_key() == before


@pytest.mark.parametrize("action", [2.7, 2.0, "2", True, None, np.array([1.5])])
def test_an_action_that_is_not_an_integer_is_an_error_not_a_rounded_move(action) -> None:
    made = raw_env("octal")
    made.reset()
    with pytest.raises(TypeError, match="is not an integer"):
        made.step(action)
    assert not made.engine.history
    made.step(np.int64(0))  # NumPy's integers are integers
    made.step(np.array(0))


def test_the_wrapped_env_refuses_an_action_out_of_its_space() -> None:
    made = env("octal")
    made.reset()
    with pytest.raises(AssertionError, match="not in action space"):
        made.step(2.7)


@pytest.mark.parametrize("ruleset", SIDES)
def test_five_thousand_illegal_steps_end_the_episode(ruleset: str) -> None:
    made = env(ruleset)  # the defaults: duel, 0.137 on 5 7
    made.reset(seed=0)
    steps = 0
    for agent in made.agent_iter(5_000):
        _obs, _reward, terminated, truncated, _ = made.last()
        if terminated or truncated:
            made.step(None)
            continue
        steps += 1
        mask = made.observe(agent)["action_mask"]
        made.step(int(np.flatnonzero(mask == 0)[0]))
    assert not made.agents  # the episode ended, every agent is done
    assert steps == made.unwrapped.max_steps <= 5_000
    assert not made.unwrapped.engine.history  # every step was refused, each one counted


def test_max_steps_counts_refused_and_played_steps_alike() -> None:
    made = raw_env("octal", heaps="9", max_steps=3)
    made.reset()
    made.step(made.encoding.size - 1)  # illegal
    made.step(int(np.flatnonzero(made.observe(made.agent_selection)["action_mask"])[0]))
    assert not any(made.truncations.values())
    made.step(made.encoding.size - 1)
    assert all(made.truncations.values()) and not any(made.terminations.values())


def test_the_terminate_illegal_option_ends_the_game_against_the_side_that_erred() -> None:
    made = env("octal", end_on_illegal=True)
    made.reset()
    agent = made.agent_selection
    mask = made.observe(agent)["action_mask"]
    made.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(made.terminations.values())
    assert made.unwrapped._cumulative_rewards[agent] == -1


def random_game(made, seed: int) -> tuple[list[int], dict[str, float]]:
    """Play uniformly among the legal actions to the end: the actions and the final rewards."""
    made.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, totals = [], dict.fromkeys(made.possible_agents, 0.0)
    for agent in made.agent_iter():
        obs, reward, terminated, truncated, _ = made.last()
        totals[agent] += reward
        if terminated or truncated:
            made.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        made.step(action)
    return actions, totals


def test_a_random_octal_game_ends_with_one_winner_and_the_same_seed_replays_it() -> None:
    made = env("octal", code="0.07", heaps="9")
    actions, totals = random_game(made, 5)
    assert sorted(totals.values()) == [-1.0, 1.0]
    winner = made.unwrapped.engine.outcome[0]
    assert totals[winner] == 1.0
    assert random_game(made, 5) == (actions, totals)


def test_reset_options_move_to_another_level_of_the_same_shape() -> None:
    made = raw_env("octal", code="0.07", heaps="3 6")
    made.reset(options={"heaps": "6 3"})
    assert made.engine.ruleset.report(made.engine.world)["heaps"] == [6, 3]
    made.reset()  # the level the options chose stays until other options come
    assert made.engine.ruleset.report(made.engine.world)["heaps"] == [6, 3]
    with pytest.raises(UserError, match="make a new environment for it"):
        made.reset(options={"heaps": "2 2 2 2"})
    assert made.params["heaps"] == "6 3"  # refused: the environment is as it was
    made.reset(options={"unrelated": 1})  # other tools' options are ignored


def test_skirmish_observation_planes_show_own_and_enemy_units() -> None:
    made = raw_env("skirmish", map="outpost")
    made.reset(seed=0)
    red, blue = made.observe("red")["observation"], made.observe("blue")["observation"]
    names = plane_names("skirmish")
    assert red.shape == (len(names), made.game_map.height, made.game_map.width)
    own, enemy = names.index("side:own"), names.index("side:other")
    assert red[own].sum() == blue[enemy].sum() > 0
    assert np.array_equal(red[own], blue[enemy]) and np.array_equal(red[enemy], blue[own])
    assert made.observation_space("red")["observation"].contains(red)


def test_ansi_render_is_the_text_board() -> None:
    made = env("octal", render_mode="ansi")
    made.reset()
    text = made.render()
    assert made.unwrapped.engine.ruleset.text_board(made.unwrapped.engine.world) in text


def test_a_level_of_another_ruleset_is_refused_in_one_sentence() -> None:
    with pytest.raises(UserError, match="is a descent level, not a skirmish one"):
        env("skirmish", map="level-03")
    with pytest.raises(UserError, match="has no parameter 'level'"):
        env("skirmish", level="duel")


def test_reset_rewinds_a_long_game_in_one_rollback_to_exactly_its_start() -> None:
    from game.engine import Engine

    made = raw_env("skirmish", source="duel")
    made.reset(seed=3)
    engine, first = made.engine, made.observe(made.agent_selection)
    rng = random.Random(3)
    for _ in range(600):  # whole turns of both sides: more entries than a Board patches
        if made.terminations[made.agent_selection]:
            break
        made.step(rng.choice(list(made.encoding.legal(made.engine))))
    assert len(engine.history) > 100
    world = engine.world
    rollbacks = []
    rollback = world.rollback
    world.rollback = lambda mark: (rollbacks.append(mark), rollback(mark))  # type: ignore[method-assign]
    made.reset()
    del world.rollback
    assert len(rollbacks) == 1 and made.engine is engine and not engine.history
    fresh = Engine.from_game_map(made.game_map, seed=3)
    assert world.state_key() == fresh.world.state_key()
    again = made.observe(made.agent_selection)
    for name in ("observation", "action_mask"):
        assert np.array_equal(first[name], again[name])
    assert np.array_equal(made.state(), made.planes.observe(fresh, made.possible_agents[0]))
