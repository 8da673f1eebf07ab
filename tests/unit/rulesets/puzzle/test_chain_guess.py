"""The chain guess: a WIN kind with nothing of its kind on the board is priced by the
transformation that would make one (guess.py's chain_win, the ruleset's chain_heuristic)."""

from __future__ import annotations

from game.commands import Step
from systems.ai.solver import solve
from tests.helpers import keke_level

# FLAG IS WIN with no flag: ROCK IS FLAG is one push away (ROCK right, from the left edge).
CHAIN = ["......", "B12...", "F13...", "b.....", ".R.1F.", "....r."]


def test_the_guess_is_the_distance_guess_where_a_win_thing_stands():
    engine = keke_level(["b...", "....", "..f.", "B12.", "F13."])
    guess = engine.ruleset.chain_heuristic
    assert guess(engine.world) == engine.ruleset.heuristic(engine.world)


def test_a_win_kind_with_no_things_is_priced_by_the_transformation_that_makes_one():
    engine = keke_level(CHAIN)
    guess = engine.ruleset.chain_heuristic
    far = guess(engine.world)
    assert far < engine.ruleset.heuristic(engine.world)  # that one sees only the WIN word
    engine.submit(Step("d"))  # YOU beside the ROCK word, ready to push it
    assert guess(engine.world) < far


def test_the_chain_search_solves_a_level_won_through_a_transformation():
    engine = keke_level(CHAIN)
    solution = solve(engine, 5.0, "macro-chain-novelty2")
    assert solution.solved
    for command in solution.commands:
        engine.submit(command)
    assert engine.outcome[0] == "player"
