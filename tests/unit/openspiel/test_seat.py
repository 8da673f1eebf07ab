"""The openspiel-mcts seat: OpenSpiel's MCTSBot plays in our matches like any AI."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game.errors import UserError
from game.levels.loader import load_engine
from game.session.match import make_seats, play_match
from systems.ai import Budget, make_ai
from tests.helpers import OUTPOST, draw_map, octal_engine


def test_the_seat_chooses_a_legal_command_and_hands_the_engine_back_untouched() -> None:
    engine = load_engine(OUTPOST)
    ai = make_ai("openspiel-mcts:sims=6,eval=heuristic")
    for _ in range(4):
        key, history = engine.ruleset.state_key(engine.world), len(engine.history)
        command = ai.choose(engine, random.Random(3), Budget())
        assert engine.ruleset.state_key(engine.world) == key
        assert len(engine.history) == history
        assert command in engine.legal_actions()
        assert engine.submit(command).ok


SMALL_MAP = [
    "Q.R.....",
    "........",
    "........",
    ".....b.q",
]


def test_the_same_seed_gives_the_same_choice_with_a_simulation_budget(tmp_path: Path) -> None:
    engine = load_engine(draw_map(tmp_path / "small.png", SMALL_MAP, {"turn_limit": 3}))
    ai = make_ai("openspiel-mcts:sims=10,rollouts=1")
    engine.apply(engine.legal_actions()[0])
    first = ai.choose(engine, random.Random(11), Budget())
    again = ai.choose(engine, random.Random(11), Budget())
    assert first == again


def test_with_random_rollouts_the_seat_finds_the_winning_octal_moves() -> None:
    # 0.137 on heaps 1 and 3: G = 1 xor 2, a first-player win; the winning moves leave
    # nimber 0 (heaps 1,2 or 1,1), every other move hands the win to blue.
    from game.grundy.codes import parse_code
    from game.grundy.solver import grundy_reference
    from game.rulesets.octal.ruleset import heap_sizes

    values = grundy_reference(parse_code("0.137"), 3)
    for seed in range(3):
        engine = octal_engine("0.137", [1, 3])
        command = make_ai("openspiel-mcts:sims=300").choose(engine, random.Random(seed), Budget())
        engine.apply(command)
        nimber = 0
        for size in heap_sizes(engine.world):
            nimber ^= values[size]
        assert nimber == 0, command


def test_a_short_match_against_random_plays_to_its_end(tmp_path: Path) -> None:
    path = draw_map(tmp_path / "small.png", SMALL_MAP, {"turn_limit": 3})
    engine = load_engine(path)
    seats = make_seats(engine, {"red": "openspiel-mcts:sims=4,eval=heuristic",
                                "blue": "random"}, seed=5)
    result = play_match(engine, seats, seed=5)
    assert engine.over and result.winner in ("red", "blue", "draw")
    assert seats["red"].actions > 0


@pytest.mark.parametrize(("spec", "words"), [
    ("openspiel-mcts:eval=greedy", "random or heuristic"),
    ("openspiel-mcts:sims=0", "from 1 to 1,000,000"),
    ("openspiel-mcts:think=-1", "more than 0"),
    ("openspiel-mcts:depth=3", "options"),
])
def test_bad_options_are_refused_in_one_sentence(spec: str, words: str) -> None:
    with pytest.raises(UserError, match=words):
        make_ai(spec)


@pytest.mark.parametrize("think", ["0.05", "0.000001"])
def test_a_think_budget_stops_the_search_and_still_gives_a_legal_command(think: str) -> None:
    # a budget smaller than one rollout still runs the two simulations that expand the root
    engine = load_engine(OUTPOST)
    ai = make_ai(f"openspiel-mcts:think={think}")
    command = ai.choose(engine, random.Random(1), Budget())
    assert command in engine.legal_actions()


def test_without_openspiel_naming_the_seat_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util
    import sys

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "pyspiel" else real(name, *a))
    for name in [m for m in sys.modules if m.startswith("game.openspiel")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(UserError, match=r"pip install 'rulefront\[openspiel\]'"):
        make_ai("openspiel-mcts:sims=5")


def test_a_rollout_the_clock_has_stopped_counts_as_a_draw() -> None:
    import numpy as np
    import pyspiel

    import game.openspiel  # noqa: F401
    from game.openspiel.seat import TimedMCTSBot, TimedRolloutEvaluator

    game = pyspiel.load_game("rulefront_octal", {"code": "0.137", "heaps": "1 3"})
    rng = np.random.RandomState(0)
    bot = TimedMCTSBot(game, 2.0, 10, None, random_state=rng, seconds=1.0)
    evaluator = TimedRolloutEvaluator(3, rng, bot)
    state = game.new_initial_state()
    bot.deadline = None  # no clock: each of the 3 rollouts ends in a win or a loss (odd sum)
    played = evaluator.evaluate(state)
    assert played[0] == -played[1] != 0.0
    bot.deadline = 0.0  # long past: no rollout takes a step
    assert list(evaluator.evaluate(state)) == [0.0, 0.0]
    assert state.history() == []


def test_rulefront_match_seats_openspiel_mcts_like_any_ai(tmp_path: Path, capsys) -> None:
    from tests.helpers import run_json

    path = draw_map(tmp_path / "small.png", SMALL_MAP, {"turn_limit": 3})
    result = run_json(capsys, "match", str(path), "--red", "random",
                      "--blue", "openspiel-mcts:sims=3,eval=heuristic", "--seed", "2", "--json")
    assert result["winner"] in ("red", "blue", "draw") and result["commands"] > 0
    again = run_json(capsys, "match", str(path), "--red", "random",
                     "--blue", "openspiel-mcts:sims=3,eval=heuristic", "--seed", "2", "--json")
    assert again == result  # a simulation budget and a seed make the same match
