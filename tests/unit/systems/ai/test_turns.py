"""Whole-turn minimax: legal, repeatable, leaves the world alone, plays its plan, breaks ties forward."""

from __future__ import annotations

import random

from game.commands import EndTurn
from game.session.match import run_match
from systems.ai import Budget
from systems.ai.minimax import MinimaxAI
from systems.ai.turns import TurnSearch
from tests.unit.systems.ai.positions import (
    BLUE_HQ,
    RED_SAGE,
    nearly_dead_hq,
    small_duel,
    two_a_side,
)


def test_a_turn_search_leaves_the_world_as_it_found_it_at_any_budget() -> None:
    for nodes in (1, 7, 60, 400):
        engine = two_a_side()
        before = engine.world.snapshot()
        turn = TurnSearch(engine, random.Random(0), nodes=nodes).run()
        assert engine.world.snapshot() == before
        assert engine.history == []
        assert turn  # even a budget of one node yields an action


def test_a_turn_that_wins_at_once_is_taken_at_any_budget() -> None:
    # The game ends inside the turn, so the side to play never changes: the win must be read
    # as the mover's, not negated as if the opponent were to play (it was, until crossing
    # showed a bulwark next to a 3-hp HQ ending its turn for twenty rounds).
    for nodes in (60, 400, 3000):
        engine = nearly_dead_hq()
        search = TurnSearch(engine, random.Random(0), nodes=nodes)
        turn = search.run()
        assert [c.to_json() for c in turn] == [
            {"type": "Attack", "unit": RED_SAGE, "target": BLUE_HQ}]
        assert search.stats.value >= search.evaluate.win - 10
        for command in turn:
            assert engine.submit(command).ok
        assert engine.outcome is not None and engine.outcome.winner == "red"


def test_every_candidate_turn_is_legal_and_ends_the_turn() -> None:
    engine = two_a_side()
    search = TurnSearch(engine, random.Random(0))
    side = engine.side
    turns = list(search.turns(5, None))
    assert len(turns) >= 2
    assert len(set(turns)) == len(turns)
    for turn in turns:
        for command in turn:
            assert engine.submit(command).ok, command
        assert engine.over or engine.side != side
        assert isinstance(turn[-1], EndTurn) or engine.over
        while engine.history:
            engine.undo()


def test_ties_go_to_the_turn_that_deals_more_damage_then_closes_in() -> None:
    engine = two_a_side()
    search = TurnSearch(engine, random.Random(0))
    turns = list(search.turns(5, None))
    progress = {turn: search.progress(turn).key() for turn in turns}
    assert len(set(progress.values())) > 1  # the candidates differ in what they achieve
    picked = search._pick([(0.0, turn) for turn in turns])
    assert progress[picked] == max(progress.values())
    # a clearly better value still wins over progress
    worst = min(turns, key=lambda t: progress[t])
    assert search._pick([(100.0, worst)] + [(0.0, t) for t in turns if t != worst]) == worst


def test_minimax_plays_its_whole_turn_without_searching_again() -> None:
    engine = two_a_side()
    ai = MinimaxAI(nodes=200)
    rng = random.Random(0)
    side = engine.side
    first = ai.choose(engine, rng, Budget())
    assert ai.last is not None and ai.last.nodes > 0
    assert engine.submit(first).ok
    while not engine.over and engine.side == side:
        command = ai.choose(engine, rng, Budget())
        assert ai.last is not None and ai.last.nodes == 0  # read from the plan
        assert engine.submit(command).ok


def test_the_plan_is_dropped_when_the_game_leaves_it() -> None:
    engine = two_a_side()
    ai = MinimaxAI(nodes=200)
    first = ai.choose(engine, random.Random(0), Budget())
    assert engine.submit(first).ok
    engine.undo()  # someone else took the move back: the plan no longer fits
    again = ai.choose(engine, random.Random(0), Budget())
    assert ai.last is not None and ai.last.nodes > 0
    assert engine.why_illegal(again) is None


def test_plan_action_keeps_the_single_action_search() -> None:
    engine = small_duel()
    ai = MinimaxAI(nodes=300, plan="action")
    ai.choose(engine, random.Random(0), Budget())
    assert ai.last is not None and 0 < ai.last.nodes <= 301


def test_whole_turn_minimax_gives_the_same_game_for_the_same_seed_and_only_legal_moves() -> None:
    seats = {"red": "random", "blue": "minimax:nodes=60"}
    first = run_match("maps/outpost.png", seats, seed=4)[1]  # play_match raises on illegal
    second = run_match("maps/outpost.png", seats, seed=4)[1]
    assert first.commands == second.commands
    assert first.winner == second.winner


def test_the_turns_opening_with_other_actions_take_the_best_scored_in_the_engines_order() -> None:
    """The openings are the heuristic's best actions but ending the turn, best first, and
    among equal scores the engine's order (what a stable sort by score gives), after the
    first, which the greedy turn plays anyway."""
    from game.levels.loader import load_engine

    engine = load_engine("maps/duel.png", seed=3)
    search = TurnSearch(engine, random.Random(0))
    rng = random.Random(3)
    for _ in range(40):
        if engine.over:
            break
        for count in (1, 3, 5):
            ranked = sorted(search.policies[0].scores(engine), key=lambda sc: -sc[0])
            best = [c for _s, c in ranked if not isinstance(c, EndTurn)][:count]
            openings = [b.opening for b in search.builders(count, None)
                        if b.opening is not None]
            assert openings == best[1:]
        engine.apply(search.policies[0].choose(engine, rng, Budget()))
