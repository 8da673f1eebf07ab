"""Minimax: finds forced wins, matches plain minimax, and its speed-ups change nothing else."""

from __future__ import annotations

import random

import pytest

from game.commands import Attack, Command, EndTurn
from game.engine import Engine
from game.rulesets.skirmish.evaluate import evaluate, evaluation_weights
from systems.ai import Budget
from systems.ai.heuristic import HeuristicAI
from systems.ai.minimax import MinimaxAI, Search
from tests.unit.systems.ai.positions import (
    BLUE_HQ,
    last_hero_two_hits,
    nearly_dead_hq,
    small_duel,
    two_a_side,
)


def play_out_turn(engine: Engine, ai, limit: int = 30) -> list[Command]:
    """Let `ai` act until it ends its turn or the game ends; the actions it chose."""
    side = engine.side
    chosen = []
    rng = random.Random(0)
    while not engine.over and engine.side == side and len(chosen) < limit:
        command = ai.choose(engine, rng, Budget())
        chosen.append(command)
        assert engine.submit(command).ok
        if isinstance(command, EndTurn):
            break
    return chosen


def plain_minimax(engine: Engine, depth: int, ply: int = 0) -> float:
    """Textbook minimax (no pruning, no table, engine order), for the side to play."""
    side = engine.side
    if depth == 0 or engine.over:
        return evaluate(engine, side, evaluation_weights(), ply)
    best = -float("inf")
    for command in engine.legal_actions():
        engine.apply(command)
        v = plain_minimax(engine, depth - 1, ply + 1)
        if engine.side != side:
            v = -v
        engine.retract()
        best = max(best, v)
    return best


def test_minimax_kills_the_last_hero_with_two_hits_where_heuristic_takes_the_minion() -> None:
    engine, hero = last_hero_two_hits()
    play_out_turn(engine, HeuristicAI())
    assert engine.outcome is None or engine.outcome[0] != "red"

    engine, hero = last_hero_two_hits()
    play_out_turn(engine, MinimaxAI(nodes=3000))
    assert engine.outcome is not None
    assert engine.outcome == ("red", "every blue hero fell")


def test_minimax_destroys_a_nearly_dead_hq_where_heuristic_kills_a_hero() -> None:
    engine = nearly_dead_hq()
    first = HeuristicAI().choose(engine, random.Random(0), Budget())
    assert isinstance(first, Attack) and first.target != BLUE_HQ

    engine = nearly_dead_hq()
    ai = MinimaxAI(nodes=2000)
    command = ai.choose(engine, random.Random(0), Budget())
    assert isinstance(command, Attack) and command.target == BLUE_HQ
    assert ai.last is not None and ai.last.value >= evaluation_weights().win - 10


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alpha_beta_returns_the_plain_minimax_value(depth: int) -> None:
    engine = small_duel()
    expected = plain_minimax(engine, depth)
    search = Search(engine, width=0)
    search.run(max_depth=depth)
    assert search.stats.value == pytest.approx(expected)
    assert len(engine.history) == 0


@pytest.mark.parametrize("depth", [2, 3])
def test_alpha_beta_matches_plain_minimax_on_a_wider_position(depth: int) -> None:
    engine = last_hero_two_hits()[0] if depth == 2 else small_duel()
    expected = plain_minimax(engine, depth)
    search = Search(engine, width=0)
    search.run(max_depth=depth)
    assert search.stats.value == pytest.approx(expected)


@pytest.mark.parametrize("depth", [3, 5])
def test_the_table_and_ordering_change_the_node_count_but_not_the_value(depth: int) -> None:
    runs = {}
    for tt in (False, True):
        for ordering in (False, True):
            engine = two_a_side()
            search = Search(engine, tt=tt, ordering=ordering, width=0)
            best = search.run(max_depth=depth)
            runs[(tt, ordering)] = (best, search.stats.value, search.stats.nodes)
    assert len({(best, value) for best, value, _nodes in runs.values()}) == 1
    assert runs[(True, True)][2] < runs[(False, False)][2]
    assert runs[(True, False)][2] < runs[(False, False)][2]
    assert runs[(True, True)][1] == pytest.approx(plain_minimax(two_a_side(), depth))


def test_a_node_budget_gives_the_same_choice_every_time() -> None:
    choices = []
    for _ in range(2):
        engine = last_hero_two_hits()[0]
        ai = MinimaxAI(nodes=1500)
        choices.append((ai.choose(engine, random.Random(1), Budget()), ai.last.nodes))
    assert choices[0] == choices[1]


def test_search_leaves_the_world_as_it_found_it_even_when_the_budget_runs_out() -> None:
    engine = nearly_dead_hq()
    before = engine.world.snapshot()
    MinimaxAI(nodes=777).choose(engine, random.Random(0), Budget())
    assert engine.world.snapshot() == before
    assert engine.history == []


def test_the_budget_passed_by_a_match_is_used_when_the_seat_names_none() -> None:
    engine = small_duel()
    ai = MinimaxAI()
    ai.choose(engine, random.Random(0), Budget(nodes=50))
    assert ai.last is not None and ai.last.nodes <= 51


def test_the_same_seed_and_node_budget_give_the_same_game() -> None:
    from game.session.match import run_match

    seats = {"red": "minimax:nodes=150", "blue": "heuristic"}
    first = run_match("maps/outpost.png", seats, seed=11)[1]
    second = run_match("maps/outpost.png", seats, seed=11)[1]
    assert first.commands == second.commands
    assert (first.winner, first.reason) == (second.winner, second.reason)
