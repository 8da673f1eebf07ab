"""Copies of OpenSpiel games and states are games of their own, game strings load back, and
OpenSpiel's own checks (random_sim_test with serialization, playthroughs) pass on every game,
the counting ruleset a test registers included, from a folder outside the checkout."""

from __future__ import annotations

import copy
import gc
import json
import os
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel
import pytest

import game.openspiel  # noqa: F401  (registers the games)
from game import ROOT
from game.bench.openspiel import SMALL
from game.errors import UserError
from game.levels.loader import load_engine
from game.openspiel import RulefrontState, game_for, load, register_all
from tests.conformance.counting import SPEC as COUNTING
from tests.conformance.test_a_fifth_ruleset import register_counting
from tests.helpers import OUTPOST

SHIPPED = ("rulefront_descent", "rulefront_octal", "rulefront_puzzle", "rulefront_skirmish")


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counting ruleset registered for one test, and told to OpenSpiel."""
    register_counting(monkeypatch)
    register_all()


def played(state: Any, actions: int = 5) -> Any:
    """`state` after up to `actions` of its last legal actions."""
    for _ in range(actions):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1])
    return state


COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda state: pickle.loads(pickle.dumps(state)),
    "deepcopy": copy.deepcopy,
    "serialize": lambda state: pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(state.get_game(), state))[1],
}


# -- game strings ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_each_game_loads_with_its_defaults_and_its_game_string_loads_back(name: str) -> None:
    game = pyspiel.load_game(name)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.get_parameters() == game.get_parameters()
    assert again.num_distinct_actions() == game.num_distinct_actions()
    assert again.max_game_length() == game.max_game_length()
    assert str(again.new_initial_state()) == str(game.new_initial_state())


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_game_given_parameters_loads_back_from_its_game_string(name: str) -> None:
    game = pyspiel.load_game(name, SMALL[name])
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.params == game.params  # the typed values the ruleset reads


def test_strings_that_read_as_numbers_are_quoted_in_the_game_string_and_typed_again() -> None:
    game = pyspiel.load_game("rulefront_octal", {"code": "0.77", "heaps": "7"})
    assert str(game) == "rulefront_octal(code='0.77',heaps='7',misere=False)"
    again = pyspiel.load_game(str(game))
    assert again.params == {"code": "0.77", "heaps": "7", "misere": False}
    assert str(again) == str(game)
    assert pyspiel.load_game("rulefront_octal(heaps=2 9,misere=True)").params == {
        "code": "0.137", "heaps": "2 9", "misere": True}


def test_a_value_a_game_string_would_split_is_refused_in_one_sentence() -> None:
    with pytest.raises(UserError, match=r"'heaps' is '3,4': an OpenSpiel game string cannot "
                                        r"carry , in a value \(separate a list with spaces\)"):
        pyspiel.load_game("rulefront_octal", {"heaps": "3,4"})


def test_descents_default_level_is_the_shipped_name() -> None:
    assert pyspiel.load_game("rulefront_descent").get_parameters()["level"] == "level-01"


# -- copies --------------------------------------------------------------------------------


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_copied_state_is_on_a_game_of_its_own_and_the_original_outlives_it(
        name: str, how: str) -> None:
    game = pyspiel.load_game(name, SMALL[name])
    state = played(game.new_initial_state())
    before, history = str(state), state.history()
    copied = COPIES[how](state)
    assert isinstance(copied, RulefrontState)
    assert copied.get_game() is not game and str(copied.get_game()) == str(game)
    assert str(copied) == before and copied.history() == history
    assert copied.legal_actions() == state.legal_actions()
    assert copied.engine() is not state.engine()
    if not copied.is_terminal():
        copied.apply_action(copied.legal_actions()[0])  # the copy moves; the original stays
    assert str(state) == before
    del copied
    gc.collect()
    assert str(state) == before and state.history() == history
    played(state, 3)  # the original plays on after the copy is gone
    assert len(state.history()) >= len(history)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_copied_game_is_loaded_again_from_its_parameters(name: str) -> None:
    game = pyspiel.load_game(name, SMALL[name])
    for copied in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert copied is not game and str(copied) == str(game)
        assert copied.pool.cursors[0].engine is not game.pool.cursors[0].engine
        assert str(copied.new_initial_state()) == str(game.new_initial_state())


def test_a_clone_shares_the_game_and_a_copy_does_not() -> None:
    game = pyspiel.load_game("rulefront_octal", {"heaps": "3 4"})
    state = played(game.new_initial_state(), 1)
    assert state.clone().get_game() is game
    assert copy.deepcopy(state).get_game() is not game


def test_a_seats_game_copies_by_replaying_its_engine_and_leaves_the_engine_alone() -> None:
    engine = load_engine(OUTPOST)
    engine.apply(engine.legal_actions()[0])
    game = game_for(engine)
    state = played(game.new_initial_state(), 2)
    text = str(state)
    for copied in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert str(copied) == text and copied.engine() is not engine
        copied.apply_action(copied.legal_actions()[0])
        del copied
        gc.collect()
    assert str(state) == text
    game.pool.reset()
    assert len(engine.history) == 1  # the seat's Engine is back where the game began


# -- OpenSpiel's own checks ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SMALL))
def test_each_game_passes_random_sim_test_with_serialization(name: str) -> None:
    game = pyspiel.load_game(name, SMALL[name])
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_a_playthrough_is_generated_and_replayed_for_each_game(name: str,
                                                               tmp_path: Path) -> None:
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()  # replay reads a flag of the playthrough tool
    params = {**SMALL[name], "turn_limit": 1} if "turn_limit" in SMALL[name] else SMALL[name]
    game_string = str(pyspiel.load_game(name, params))
    text = generate_playthrough.playthrough(game_string, None, seed=3)
    assert text.startswith(f"game: {game_string}\n") and "# Apply action" in text
    path = tmp_path / "playthrough.txt"
    path.write_text(text, encoding="utf-8")
    original, replayed = generate_playthrough.replay(str(path))
    assert replayed == original


# -- a ruleset registered by a test --------------------------------------------------------


def test_a_ruleset_registered_later_loads_once_register_all_runs_again(counting) -> None:
    game = pyspiel.load_game("rulefront_counting")
    assert str(game) == "rulefront_counting(tokens=7)"
    assert game.num_players() == 2 and game.num_distinct_actions() == 3
    assert pyspiel.load_game(str(game)).params == {"tokens": 7}
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = played(pyspiel.load_game("rulefront_counting", {"tokens": 9}).new_initial_state(), 2)
    copied = pickle.loads(pickle.dumps(state))
    assert str(copied) == str(state) == "ooo\n3 tokens, red to play"
    assert load(COUNTING.name, {"tokens": 4}).max_game_length() == 4


OUTSIDE = textwrap.dedent("""
    import json, sys
    import pyspiel
    from game import registry
    import game.openspiel
    if sys.argv[1] == "rulefront_counting":
        from tests.conformance.counting import SPEC
        registry.register(SPEC)
        game.openspiel.register_all()
    name, params = sys.argv[1], json.loads(sys.argv[2])
    loaded = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=True, verbose=False)
    assert str(pyspiel.load_game(str(loaded))) == str(loaded)
    default = pyspiel.load_game(name)
    assert str(pyspiel.load_game(str(default))) == str(default)
    print("passed", str(loaded))
""")


@pytest.mark.parametrize("name", [*sorted(SMALL), "rulefront_counting"])
def test_from_a_folder_outside_the_checkout_each_game_passes_openspiels_checks(
        name: str, tmp_path: Path) -> None:
    params = SMALL.get(name, {"tokens": 5})
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # to import tests.conformance.counting
    done = subprocess.run([sys.executable, "-c", OUTSIDE, name, json.dumps(params)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(f"passed {name}(")
