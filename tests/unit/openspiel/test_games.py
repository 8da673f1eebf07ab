"""The OpenSpiel games are typed by their rulesets' edges and agree with our engine (copies,
game strings and OpenSpiel's checks with serialization: test_copies.py)."""

from __future__ import annotations

import functools
import operator

import numpy as np
import pyspiel
import pytest

import game.openspiel  # noqa: F401  (registers the games)
from game.bench.openspiel import SMALL
from game.grundy.codes import parse_code
from game.grundy.solver import grundy_reference
from game.openspiel import RulefrontGame, RulefrontState
from game.rulesets.octal.ruleset import parse_heaps


def test_one_class_serves_every_ruleset_and_reads_its_edges() -> None:
    loaded = {name: pyspiel.load_game(name, params) for name, params in SMALL.items()}
    assert {type(one) for one in loaded.values()} == {RulefrontGame}
    for name, one in loaded.items():
        assert one.spec.name == name.removeprefix("rulefront_")
        assert one.num_players() == one.spec.capabilities.players
        specification = one.get_type().parameter_specification
        assert sorted(specification) == sorted(param.name for param in one.spec.params)


def test_the_games_are_registered_with_the_types_of_their_rulesets() -> None:
    names = set(pyspiel.registered_names())
    assert {f"rulefront_{r}" for r in ("skirmish", "puzzle", "descent", "octal")} <= names
    for name, players, utility in (
            ("rulefront_skirmish", 2, pyspiel.GameType.Utility.ZERO_SUM),
            ("rulefront_octal", 2, pyspiel.GameType.Utility.ZERO_SUM),
            ("rulefront_puzzle", 1, pyspiel.GameType.Utility.GENERAL_SUM),
            ("rulefront_descent", 1, pyspiel.GameType.Utility.GENERAL_SUM)):
        game = pyspiel.load_game(name, SMALL[name])
        kind = game.get_type()
        assert game.num_players() == players
        assert kind.utility == utility
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL


def test_skirmish_encoding_and_length_follow_the_map_and_its_turn_limit() -> None:
    game = pyspiel.load_game("rulefront_skirmish", {"map": "outpost", "turn_limit": 4})
    # outpost is 12x12 with three heroes a side: end turn + (move, attack) x 6 heroes x 144.
    assert game.num_distinct_actions() == 1 + 2 * 6 * 144
    # Each turn a side's heroes (a duelist walks 4, a ranger and a sage 3) walk every point
    # and attack once each, then the turn ends; two turns a round, four rounds.
    assert game.max_game_length() == 2 * 4 * ((4 + 1) + (3 + 1) + (3 + 1) + 1)
    state = game.new_initial_state()
    assert state.action_to_string(0) == "end turn"
    assert 0 in state.legal_actions()
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert all("red" in t for t in texts if t != "end turn")
    shape = game.observation_tensor_shape()
    assert shape[1:] == [12, 12]
    assert len(state.observation_tensor()) == int(np.prod(shape))


def test_an_action_is_the_engines_command_and_a_clone_is_independent() -> None:
    game = pyspiel.load_game("rulefront_skirmish", {"map": "outpost", "turn_limit": 4})
    state = game.new_initial_state()
    assert isinstance(state, RulefrontState)
    engine = state.engine()
    commands = engine.legal_actions()
    assert sorted(game.num_distinct_actions() > a for a in state.legal_actions())
    assert len(state.legal_actions()) == len(set(commands))
    move = next(a for a in state.legal_actions() if a != 0)
    before = str(state)
    child = state.clone()
    child.apply_action(move)
    assert str(child) != before
    assert str(state) == before  # the parent did not move
    assert state.legal_actions() != child.legal_actions()
    child.apply_action(0)  # end turn: blue to play
    assert child.current_player() == 1 and state.current_player() == 0


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("rulefront_octal", {"code": "0.137", "heaps": "3 4"})
    state = game.new_initial_state()
    before = str(state)
    illegal = next(a for a in range(game.num_distinct_actions())
                   if a not in state.legal_actions())
    with pytest.raises(ValueError, match="not legal"):
        state.apply_action(illegal)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action_with_legality_check(illegal)
    assert str(state) == before and state.history() == []
    assert state.legal_actions() == game.new_initial_state().legal_actions()


def test_puzzle_ends_won_with_return_one_on_its_solution() -> None:
    game = pyspiel.load_game("rulefront_puzzle", {"level": "first-steps"})
    state = game.new_initial_state()
    from game.levels.loader import load_engine
    from systems.ai.solver import solve
    solution = solve(load_engine("first-steps"))
    assert solution.solved and solution.commands
    for command in solution.commands:
        words = {"u": "step up", "d": "step down", "l": "step left", "r": "step right"}
        action = next(a for a in state.legal_actions()
                      if state.action_to_string(a) == words.get(getattr(command, "direction", ""), "wait"))
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0]


def test_a_one_player_game_stops_unfinished_at_max_moves() -> None:
    game = pyspiel.load_game("rulefront_puzzle", {"level": "first-steps", "max_moves": 3})
    state = game.new_initial_state()
    wait = next(a for a in state.legal_actions() if state.action_to_string(a) == "wait")
    for _ in range(3):
        state.apply_action(wait)
    assert state.is_terminal() and state.returns() == [0.0]


# First-player wins and losses (nimber 0: 0.137 on 4 and on 1,6; Kayles on 1,2,3 and on
# 1,4; 0.07 on 5; Nim on 1,2,3) under four codes.
OCTAL_POSITIONS = [("0.137", "5"), ("0.137", "3 4"), ("0.137", "4"), ("0.137", "1 6"),
                   ("0.77", "5"), ("0.77", "1 2 3"), ("0.77", "1 4"), ("0.07", "7"),
                   ("0.07", "5"), ("nim", "1 2 3"), ("nim", "2 5")]


@pytest.mark.parametrize(("code", "heaps"), OCTAL_POSITIONS)
def test_alpha_beta_agrees_with_our_grundy_values(code: str, heaps: str) -> None:
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    sizes = parse_heaps(heaps)
    values = grundy_reference(parse_code(code), max(sizes))  # checked against the kernels
    nimber = functools.reduce(operator.xor, (int(values[n]) for n in sizes), 0)
    game = pyspiel.load_game("rulefront_octal", {"code": code, "heaps": heaps})
    value, action = alpha_beta_search(game, maximum_depth=sum(sizes) + 1)
    assert value == (1.0 if nimber else -1.0)
    if nimber:  # the move alpha-beta picks leaves a zero position, as Grundy theory says
        state = game.new_initial_state()
        state.apply_action(action)
        after = [int(values[n]) for n in parse_heaps(_heaps_of(state))]
        assert functools.reduce(operator.xor, after, 0) == 0


def _heaps_of(state: RulefrontState) -> str:
    from game.rulesets.octal.ruleset import heap_sizes
    return ",".join(str(n) for n in heap_sizes(state.engine().world)) or "0"


def test_mcts_bot_with_random_rollouts_picks_legal_skirmish_moves() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("rulefront_skirmish", {"map": "outpost", "turn_limit": 2})
    rng = np.random.RandomState(7)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=12,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    for _ in range(6):
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        state.apply_action(action)


def test_evaluate_bots_plays_whole_skirmish_games_with_uniform_random_bots() -> None:
    from open_spiel.python.algorithms import evaluate_bots

    game = pyspiel.load_game("rulefront_skirmish", {"map": "outpost", "turn_limit": 3})
    for seed in range(3):
        bots = [pyspiel.make_uniform_random_bot(player, seed * 2 + player) for player in (0, 1)]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seed))
        assert state.is_terminal()
        assert sum(returns) == 0 and set(returns) <= {-1.0, 0.0, 1.0}
        assert len(state.history()) <= game.max_game_length()
        outcome = state.engine().outcome
        assert outcome is not None


def test_clones_share_a_few_engines_instead_of_copying_the_world() -> None:
    game = pyspiel.load_game("rulefront_skirmish", {"map": "outpost", "turn_limit": 4})
    state = game.new_initial_state()
    for action in state.legal_actions()[:5]:
        state.clone().apply_action(action)
    for _ in range(3):
        state.apply_action(state.legal_actions()[-2])
    children = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        children.append((child, str(child)))
    # every branch is still its own position when read again, in any order
    engines = [cursor.engine for cursor in game.pool.cursors]
    for child, text in reversed(children):
        assert str(child) == text
        assert any(child.engine() is engine for engine in engines)
    assert len(game.pool.cursors) <= 3  # engines at the start, walked; never one per clone


def test_bench_openspiel_reports_clone_apply_and_sim_test_figures(capsys) -> None:
    from tests.helpers import run_json

    figures = run_json(capsys, "bench", "openspiel", "--repeat", "1", "--json")
    assert set(figures) == {"openspiel.clone_us", "openspiel.apply_us",
                            "openspiel.engine_apply_retract_us", "openspiel.set_from_us",
                            "openspiel.set_from_again_us",
                            *(f"openspiel.sim_test_{r}_s"
                              for r in ("skirmish", "puzzle", "descent", "octal"))}
    assert all(value > 0 for value in figures.values())
