"""MCTS over whole turns: repeatable under a simulation budget, legal, and leaves the world alone."""

from __future__ import annotations

import random

from game.session.match import run_match
from systems.ai import Budget
from systems.ai.mcts import Mcts, MctsAI
from tests.unit.systems.ai.positions import nearly_dead_hq, two_a_side


def test_a_simulation_budget_is_spent_exactly_and_the_world_is_untouched() -> None:
    engine = two_a_side()
    before = engine.world.snapshot()
    ai = MctsAI(sims=25)
    command = ai.choose(engine, random.Random(0), Budget())
    assert engine.world.snapshot() == before and engine.history == []
    assert ai.last is not None and ai.last.sims == 25
    assert engine.why_illegal(command) is None


def test_visits_add_up_down_the_tree() -> None:
    engine = two_a_side()
    search = Mcts(engine, random.Random(0), c=1.0, widen=1.0, turns=5)
    search.run(None, sims=30, seconds=None)
    root = search.root
    assert root.visits == 30
    # every visit below the root went to exactly one child
    assert sum(child.visits for child in root.children) == root.visits
    # widening: a node never holds more children than its visits allow
    assert len(root.children) <= 1 + int(search.widen * root.visits ** 0.5)
    for child in root.children:
        assert -1.0 <= child.mean() <= 1.0


def test_mcts_takes_the_won_headquarters() -> None:
    engine = nearly_dead_hq()
    side = engine.side
    ai = MctsAI(sims=20)
    rng = random.Random(0)
    while not engine.over and engine.side == side:
        assert engine.submit(ai.choose(engine, rng, Budget())).ok
    assert engine.outcome is not None and engine.outcome[0] == "red"


def test_the_same_seed_gives_the_same_game() -> None:
    seats = {"red": "mcts:sims=8", "blue": "heuristic"}
    first = run_match("maps/outpost.png", seats, seed=3)[1]
    second = run_match("maps/outpost.png", seats, seed=3)[1]
    assert first.commands == second.commands
    assert (first.winner, first.reason) == (second.winner, second.reason)


def test_a_search_stopped_by_the_clock_leaves_the_world_untouched() -> None:
    """The engine follows the tree lazily and may be anywhere in it when time runs out."""
    engine = two_a_side()
    before = engine.world.snapshot()
    for think in (0.001, 0.01, 0.05):
        command = MctsAI(think=think).choose(engine, random.Random(0), Budget())
        assert engine.world.snapshot() == before and engine.history == []
        assert engine.why_illegal(command) is None


def test_a_player_that_keeps_its_memory_chooses_as_a_new_one() -> None:
    """MctsAI keeps its turn-building policies (and what they remember) between searches: on
    positions of one game, searched after each other, it picks what a new MctsAI picks and
    grows the same tree."""
    from game.levels.loader import load_engine
    from game.session.match import make_seats

    engine = load_engine("maps/duel.png", seed=4)
    seats = make_seats(engine, {"red": "heuristic", "blue": "heuristic"}, 4)
    kept = MctsAI(sims=12)
    for _ in range(40):
        if engine.over:
            break
        if len(engine.history) % 5 == 0:
            other = load_engine("maps/duel.png", seed=4)  # another engine: no tree to reuse
            for command in engine.commands():
                other.apply(command)
            fresh = MctsAI(sims=12)
            assert kept.choose(other, random.Random(1), Budget()) == \
                fresh.choose(other, random.Random(1), Budget())
            assert kept.last == fresh.last
        seat = seats[engine.side]
        assert seat.ai is not None
        engine.apply(seat.ai.choose(engine, seat.rng, Budget()))


def test_turns_written_again_from_the_journal_choose_as_turns_played_again(monkeypatch) -> None:
    """The tree reapplies a turn it has played (Engine.reapply) instead of playing it again:
    the same choices, trees and statistics as a search that plays every turn afresh."""
    from game.bench.ai import midgame
    from game.engine import Engine

    engine = midgame()
    reapplied = MctsAI(sims=40)
    first = reapplied.choose(engine, random.Random(2), Budget())
    calls = []
    monkeypatch.setattr(Engine, "reapply", lambda self, played: calls.append(played) is not None)
    afresh = MctsAI(sims=40)
    assert afresh.choose(engine, random.Random(2), Budget()) == first
    assert afresh.last == reapplied.last and calls
