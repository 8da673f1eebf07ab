"""Solvers: shortest and cheapest solutions on levels whose answers are known, hints, and
levels that cannot be won."""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path

import pytest

from game import MAPS
from game.levels.loader import load_engine
from systems.ai.solver import moves_text, solve
from tests.helpers import descent_board, keke_level

# (rows, shortest length)
PUZZLES = [
    (["b..f", "B12.", "F13."], 3),
    (["b...", "....", "..f.", "B12.", "F13."], 4),
    (["bw.f", ".w..", "....", "B12.", "F13.", "W16."], 7),  # around the wall
]


@pytest.mark.parametrize("rows, length", PUZZLES)
def test_breadth_first_finds_the_shortest_puzzle_solution(rows, length):
    solution = solve(keke_level(rows), None, "bfs")
    assert solution.solved
    assert solution.length == length


def test_a_solution_needs_a_rule_to_be_made():
    # FLAG IS WIN is missing: push the WIN word (below) up into place.
    engine = keke_level(["b...f", ".....", "B12..", "F1...", "..3.."])
    solution = solve(engine, None, "bfs")
    assert solution.solved
    for command in solution.commands:
        engine.submit(command)
    assert engine.outcome[0] == "player"


def test_an_unwinnable_puzzle_is_reported_as_such():
    solution = solve(keke_level(["b...", "B12."]), None, "bfs")
    assert not solution.solved
    assert solution.exhausted


def test_the_search_leaves_the_engine_as_it_found_it():
    engine = keke_level(["b..f", "B12.", "F13."])
    before = engine.world.snapshot()
    solve(engine, None, "bfs")
    assert engine.world.snapshot() == before
    assert engine.history == []


def test_tower_descends_in_ten_moves():
    engine = load_engine(MAPS / "descent" / "tower.txt")
    solution = solve(engine, None, "bfs")
    assert solution.length == 10


def test_a_descent_that_needs_a_push_cannot_be_solved_without_one():
    rows = ["2 3 0 0", "3 3 3 0", "3 3 3 0", "3 3 3 0"]
    assert not solve(descent_board(rows, push=False), None, "bfs").solved
    solution = solve(descent_board(rows), None, "bfs")
    assert moves_text(solution.commands) == "rrrddd"


def test_cost_optimal_search_avoids_pushes_when_walking_round_is_cheaper():
    # Pushing right first (cost 2) or walking round below (all moves cost 1): both take 6
    # moves, and only the walk costs 6.
    rows = ["1 2 0 0", "1 1 1 0", "3 3 3 0", "3 3 3 0"]
    cheapest = solve(descent_board(rows), None, "cost")
    assert cheapest.solved
    assert cheapest.cost == 6
    assert moves_text(cheapest.commands).startswith("d")
    dear = solve(descent_board(rows, costs={"move": 1, "push": 1}), None, "cost")
    assert dear.cost == 6


@pytest.mark.parametrize("path", sorted((MAPS / "descent").glob("level-0[1-4].txt")))
def test_shipped_descent_levels_are_solved_at_their_recorded_optimum(path: Path):
    import yaml

    optimal = yaml.safe_load(path.with_suffix(".yaml").read_text())["optimal"]
    assert solve(load_engine(path), None, "bfs").length == optimal


def test_astar_and_greedy_also_solve():
    for method in ("astar", "greedy", "novelty", "auto"):
        assert solve(keke_level(["b...", "....", "..f.", "B12.", "F13."]), 5, method).solved


def test_two_workers_give_the_shortest_answer_and_leave_the_engine_alone():
    engine = keke_level(PUZZLES[2][0])
    before = engine.world.snapshot()
    solution = solve(engine, 5.0, workers=2)
    assert solution.solved and solution.length == PUZZLES[2][1] and solution.method == "bfs"
    assert engine.world.snapshot() == before and engine.history == []


def test_two_workers_report_an_unwinnable_puzzle():
    solution = solve(keke_level(["b...", "B12."]), 5.0, workers=2)
    assert not solution.solved and solution.exhausted


def test_a_greedy_answer_is_taken_when_breadth_first_is_still_searching(monkeypatch, tmp_path):
    import systems.ai.solver as solver

    run = solver._run

    def stuck_bfs(engine, method, *args):
        if method != "bfs":
            return run(engine, method, *args)
        time.sleep(60)  # the portfolio ends this worker once the greedy one has answered
        (tmp_path / "finished").touch()

    monkeypatch.setattr(solver, "_run", stuck_bfs)
    monkeypatch.setitem(solver.PAIR, "passes", (("greedy w=3", 1.0),))
    others = set(multiprocessing.active_children())  # another test's child may linger
    solution = solve(keke_level(PUZZLES[1][0]), 30.0, workers=2)
    assert solution.solved and solution.method.startswith("greedy")
    # The answer came while the stuck search slept, and the search was ended, not waited for.
    assert not (tmp_path / "finished").exists()
    assert set(multiprocessing.active_children()) <= others  # none of the solver's is left


def test_a_guided_answer_waits_for_breadth_first_only_while_its_stage_lasts(monkeypatch):
    import systems.ai.solver as solver

    monkeypatch.setitem(solver.PAIR, "bfs", (("bfs", 0.2), ("greedy w=3", 1.0)))
    assert solver.hold(10.0, 0.5) == 1.0  # as long again, within bfs's 2 s
    assert solver.hold(10.0, 1.5) == 2.0  # until bfs's stage ends
    assert solver.hold(10.0, 6.0) == pytest.approx(6.2)  # bfs is over: only the least wait
    assert solver.hold(10.0, 0.01) == pytest.approx(0.21)


def test_one_worker_runs_its_stages_in_turn_each_with_its_share_of_the_time_left(monkeypatch):
    import systems.ai.solver as solver
    from systems.ai.tree import Solution

    asked = []

    def unsolved(engine, method, seconds, max_states):
        asked.append((method, seconds))
        return Solution(False, states=1, seconds=seconds)

    monkeypatch.setattr(solver, "_run", unsolved)
    found = solve(keke_level(PUZZLES[1][0]), 10.0, workers=1)
    left, expected = 10.0, []
    for method, share in solver.SOLO:
        expected.append((method, pytest.approx(left * share)))
        left -= left * share
    assert asked == expected
    assert not found.solved and found.states == len(solver.SOLO)
    # The first of two workers has a plan of its own, which `hold` needs to open with bfs.
    assert solver.PAIR["bfs"][0][0] == "bfs"


def test_a_stage_of_the_plans_can_be_asked_for_by_name():
    import systems.ai.solver as solver
    from game.errors import UserError

    for plan in (solver.SOLO, *solver.PAIR.values()):
        assert all(solver.staged(method) for method, _share in plan)
    solution = solve(keke_level(PUZZLES[1][0]), 5.0, "macro-novelty2 p=5")
    assert solution.solved and solution.method == "macro-novelty2 p=5"
    for wrong in ("macro p=5", "bfs p=5", "greedy w=x", "macro-novelty2 p=", "nope"):
        with pytest.raises(UserError, match="unknown solver method"):
            solve(keke_level(PUZZLES[1][0]), 5.0, wrong)


def test_a_worker_error_reaches_the_caller(monkeypatch):
    import systems.ai.solver as solver

    def broken(*_args):
        raise ValueError("broken search")

    monkeypatch.setattr(solver, "_run", broken)
    with pytest.raises(ValueError, match="broken search"):
        solve(keke_level(PUZZLES[0][0]), 5.0, workers=2)


@pytest.mark.parametrize("rows, length", PUZZLES)
def test_macro_search_solutions_replay_to_a_win(rows, length):
    for method in ("macro", "macro-fill", "macro-spell", "macro-novelty", "macro-novelty2",
                   "macro-spell-novelty2", "macro-chain-novelty2"):
        engine = keke_level(rows)
        before = engine.world.snapshot()
        solution = solve(engine, None if method == "macro" else 5.0, method)
        assert solution.solved and solution.length >= length
        assert engine.world.snapshot() == before and engine.history == []
        for command in solution.commands:
            engine.submit(command)
        assert engine.outcome[0] == "player"


class FactBoard:
    """A stand-in ruleset for novelty: the state is its list of facts and its regime."""

    def __init__(self) -> None:
        self.guide = 0.0

    def atoms(self, world):
        return world[0]

    def regime(self, world):
        return world[1]

    def heuristic(self, world):
        return self.guide


def test_width_two_novelty_ranks_new_facts_then_new_pairs_then_the_rest():
    from systems.ai.solver import novelty

    guess = novelty(FactBoard(), penalty=50.0, width=2)
    assert guess((["a", "b"], "R")) == 0.0  # the first state: every fact is new
    assert guess((["a", "c"], "R")) == 0.0  # c is new
    assert guess((["b", "c"], "R")) == 50.0  # no new fact, but c never stood beside b
    assert guess((["b", "c"], "R")) == 100.0  # nothing new at all
    assert guess((["a", "b"], "R")) == 100.0  # the first state's pairs were all seen there
    assert guess((["a", "b"], "S")) == 0.0  # other rules: the same facts count as new
    assert guess((["a", "c"], "S")) == 0.0
    assert guess((["b", "c"], "S")) == 100.0  # pairs are not told apart by rules here...
    by_rules = novelty(FactBoard(), penalty=50.0, width=2, pairs_by_regime=True)
    for facts in (["a", "b"], ["a", "c"]):
        by_rules((facts, "R"))
    assert by_rules((["b", "c"], "R")) == 50.0
    by_rules((["a", "b"], "S"))
    by_rules((["a", "c"], "S"))
    assert by_rules((["b", "c"], "S")) == 50.0  # ...but are here


@pytest.mark.parametrize("by_regime", [False, True])
def test_width_two_novelty_finds_a_new_pair_exactly_when_a_plain_set_of_pairs_would(by_regime):
    import random

    from systems.ai.solver import novelty

    rng = random.Random(7)
    guess = novelty(FactBoard(), penalty=50.0, width=2, pairs_by_regime=by_regime)
    first: set[str] = set()
    seen: dict[str, set[str]] = {}
    pairs: set[tuple[str, str, str]] = set()  # (regime or "", changed fact, fact beside it)
    for _ in range(400):
        facts = set(rng.sample("abcdefghij", rng.randint(3, 7)))
        regime = rng.choice("RS")
        score = guess((sorted(facts), regime))
        first = first or facts
        known = seen.get(regime)
        if known is None or not facts <= known:
            seen.setdefault(regime, set()).update(facts)
            assert score == 0.0
            continue
        tag = regime if by_regime else ""
        new = {(tag, changed, fact) for changed in facts - first for fact in facts} - pairs
        pairs |= new
        assert score == (50.0 if new else 100.0)


def test_width_one_novelty_ignores_the_regime():
    from systems.ai.solver import novelty

    board = FactBoard()
    board.guide = 3.0
    guess = novelty(board, penalty=50.0)
    assert guess((["a"], "R")) == 3.0
    assert guess((["a"], "S")) == 53.0


def test_macro_search_proves_an_unwinnable_puzzle():
    solution = solve(keke_level(["b...", "..r.", "B12."]), None, "macro")
    assert not solution.solved and solution.exhausted


def test_macro_search_needs_fewer_states_than_breadth_first_in_an_open_room():
    rows = ["b.......", "........", "........", "........", ".......f", "B12.....", "F13....."]
    plain = solve(keke_level(rows), None, "bfs")
    macro = solve(keke_level(rows), None, "macro")
    # The first move is searched plainly (meetings are resolved by the first turn), then
    # the walk to the flag is one macro move: a step longer at most, in a tenth of the states.
    assert macro.solved and macro.length <= plain.length + 1
    assert macro.states * 10 < plain.states


def test_macro_methods_are_refused_where_the_ruleset_has_no_walks():
    from game.errors import UserError

    with pytest.raises(UserError, match="macro moves"):
        solve(load_engine(MAPS / "descent" / "tower.txt"), 5.0, "macro")


def test_auto_skips_macro_stages_where_the_ruleset_has_no_walks():
    solution = solve(load_engine(MAPS / "descent" / "tower.txt"), 5.0, "auto", workers=1)
    assert solution.solved and solution.method == "bfs"


def test_every_stage_of_the_auto_plans_runs_and_its_answer_replays_to_a_win():
    import systems.ai.solver as solver

    stages = {method for method, _share in solver.SOLO}
    for plan in solver.PAIR.values():
        stages |= {method for method, _share in plan}
    assert {"bfs", "macro-chain-novelty2", "macro-chain-novelty2 p=3",
            "macro-chain-novelty2 p=5", "macro-spell-novelty2", "macro-spell-novelty2 p=3",
            "greedy w=3"} <= stages
    rows = PUZZLES[1][0]
    for method in sorted(stages):
        engine = keke_level(rows)
        solution = solver._run(engine, method, 5.0, None)
        assert solution.solved and solution.method == method, method
        for command in solution.commands:
            engine.submit(command)
        assert engine.outcome[0] == "player", method
    for plan in (solver.SOLO, *solver.PAIR.values()):
        shares = [share for _method, share in plan]
        assert all(0 < share <= 1 for share in shares) and shares[-1] == 1.0
