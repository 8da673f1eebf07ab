"""game.encoding: one action numbering and one set of planes, and both adapters use them."""

from __future__ import annotations

import random

import numpy as np
import pytest

from game.commands import EndTurn, Step, Take, Wait
from game.encoding import encoding_for, plane_names
from game.errors import UserError
from game.levels.loader import load_engine

SOURCES = ["outpost", "first-steps", "maps/descent/level-01.txt", "octal:0.137:3,4,5"]


def walk(engine, rng: random.Random, steps: int):
    """Random legal commands from the start, yielding the engine before each one."""
    for _ in range(steps):
        legal = engine.legal_actions()
        if engine.over or not legal:
            return
        yield engine
        engine.apply(rng.choice(legal))


@pytest.mark.parametrize("source", SOURCES)
def test_every_legal_command_has_its_own_number_below_size_and_a_text(source: str) -> None:
    engine = load_engine(source)
    encoding = encoding_for(engine)
    for position in walk(engine, random.Random(3), 40):
        legal = position.legal_actions()
        table = encoding.table(position.world, legal)
        assert len(table) == len(legal)
        assert all(0 <= action < encoding.size for action in table)
        assert all(table[encoding.encode(position.world, c)] == c for c in legal)
        assert all(encoding.text(action) for action in table)
        assert np.flatnonzero(encoding.mask(position)).tolist() == sorted(table)


def test_the_numbers_are_the_documented_ones() -> None:
    skirmish = load_engine("outpost")
    encoding = encoding_for(skirmish)
    assert encoding.size == 1 + 2 * 6 * 12 * 12  # six heroes on 12 x 12
    assert encoding.encode(skirmish.world, EndTurn()) == 0 and encoding.text(0) == "end turn"
    assert encoding.text(1 + 12 * 3 + 2).endswith("moves to (2, 3)")
    assert encoding.text(1 + 6 * 144 + 5).endswith("attacks (5, 0)")
    octal = encoding_for(load_engine("octal:0.137:3,4,5"))
    assert octal.size == 12 * 5 * 5
    assert octal.encode(None, Take(heap=2, count=3, left=1)) == (2 * 5 + 2) * 5 + 1
    assert octal.text((2 * 5 + 2) * 5 + 1) == "take 3 from heap 2 after the first 1"
    puzzle, descent = (encoding_for(load_engine(s)) for s in SOURCES[1:3])
    assert [puzzle.encode(None, c) for c in (Step("u"), Step("r"), Wait())] == [0, 3, 4]
    assert descent.size == 4 and puzzle.size == 5
    with pytest.raises(ValueError, match="not below 4"):
        descent.text(4)


def test_planes_are_named_per_ruleset_and_sides_are_seen_from_the_observer() -> None:
    from game.encoding import Planes

    engine = load_engine("outpost")
    planes = Planes(engine)
    names = plane_names("skirmish")
    assert planes.shape == (len(names), 12, 12)
    red, blue = planes.observe(engine, "red"), planes.observe(engine, "blue")
    own, other = names.index("side:own"), names.index("side:other")
    assert red[own].sum() > 0 and np.array_equal(red[own], blue[other])
    to_play = names.index("to_play")
    assert red[to_play].all() and not blue[to_play].any()  # red moves first
    heroes = red[names.index("kind:hero")]
    assert heroes.sum() == 6 and (red[names.index("hp")][heroes > 0] == 1.0).all()
    octal = load_engine("octal:0.137:3,4,5")
    blocks = Planes(octal).observe(octal, "red")[0]
    assert blocks.sum(axis=1).tolist() == [3, 4, 5]
    descent = load_engine("maps/descent/level-01.txt")
    assert plane_names("descent") == ("height", "kind:ball", "exit")
    assert Planes(descent).observe(descent, "player")[2].sum() == 1


def test_openspiel_and_pettingzoo_number_and_see_a_position_alike() -> None:
    import pyspiel

    import game.openspiel  # noqa: F401  (registers the games)
    from game.envs import octal_env, skirmish_env

    for env, name, params in (
            (skirmish_env(map="outpost"), "rulefront_skirmish", {"map": "outpost"}),
            (octal_env(code="0.137", heaps=[3, 4, 5]), "rulefront_octal",
             {"code": "0.137", "heaps": "3 4 5"})):
        env.reset(seed=0)
        state = pyspiel.load_game(name, params).new_initial_state()
        rng = random.Random(1)
        for _ in range(25):
            if state.is_terminal():
                break
            agent = env.agent_selection
            player = ["red", "blue"].index(agent)
            seen = env.observe(agent)
            assert np.flatnonzero(seen["action_mask"]).tolist() == state.legal_actions()
            assert np.array_equal(seen["observation"].ravel(),
                                  np.asarray(state.observation_tensor(player)))
            action = rng.choice(state.legal_actions())
            assert env.encoding.text(action) == state.action_to_string(player, action)
            state.apply_action(action)
            env.step(action)


def test_an_unknown_ruleset_has_no_planes() -> None:
    with pytest.raises(UserError, match="unknown ruleset 'chess'"):
        plane_names("chess")
