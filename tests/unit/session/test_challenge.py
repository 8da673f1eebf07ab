"""Skirmish challenges on the engine: the deadline the ruleset keeps, and the search that finds
the shortest win with the words and proves there is none without them."""

from __future__ import annotations

from pathlib import Path

from game.commands import EndTurn
from game.levels.loader import load_engine
from game.session.challenge import Goal, actions_in, goal_of, solve
from tests.helpers import draw_cells, engine_for

# A red duelist beside a block; blue's HQ is WEAK only once the word WEAK is pushed into
# BLUE IS _: then the block shoved into the HQ breaks it.
BRITTLE = {
    (1, 1): "red hq", (7, 1): "blue bulwark", (3, 2): "word BLUE", (4, 2): "word IS",
    (5, 3): "word WEAK", (6, 4): "block", (7, 4): "blue hq", (5, 5): "red duelist",
}
GOAL = {"brief": "Win this turn.", "turns": 1}


def brittle(tmp_path: Path, goal: dict | None = None, cells: dict | None = None):
    path = draw_cells(tmp_path / "brittle.png", 9, 7, cells or BRITTLE,
                      {"challenge": goal or GOAL})
    return load_engine(path)


def test_a_sidecar_challenge_is_read_with_its_defaults(tmp_path):
    engine = brittle(tmp_path)
    assert goal_of(engine.map) == Goal("Win this turn.", 1, "red", "heuristic", 0, {})


def test_a_map_without_a_challenge_has_no_goal(tmp_path):
    engine = engine_for(tmp_path, ["Q.D..", "....q", "d...."])
    assert goal_of(engine.map) is None


def test_the_player_who_ends_the_last_turn_without_a_win_loses(tmp_path):
    engine = brittle(tmp_path)
    engine.apply(EndTurn())
    assert engine.over and engine.outcome.winner == "blue"
    assert engine.outcome.reason == "red did not win within 1 turn"
    engine.undo()
    assert not engine.over and engine.side == "red"


def test_two_turns_give_the_opponent_its_turn_in_between(tmp_path):
    engine = brittle(tmp_path, {"brief": "Win in two.", "turns": 2})
    engine.apply(EndTurn())
    assert not engine.over and engine.side == "blue"
    engine.apply(EndTurn())
    engine.apply(EndTurn())
    assert engine.outcome.winner == "blue" and "within 2 turns" in engine.outcome.reason
    assert actions_in(engine, "red") == 0


def test_the_search_finds_the_shortest_line_with_words_and_puts_the_engine_back(tmp_path):
    engine = brittle(tmp_path)
    before = engine.world.snapshot()
    found = solve(engine, goal_of(engine.map))
    assert found.won and found.exhausted and found.actions == 4
    assert engine.world.snapshot() == before and not engine.history
    for command in found.commands:
        engine.apply(command)
    assert engine.outcome.winner == "red"
    assert "blue headquarters was destroyed" in engine.outcome.reason


def test_without_words_every_line_is_searched_and_none_wins(tmp_path):
    engine = brittle(tmp_path)
    proof = solve(engine, goal_of(engine.map), words=False)
    assert not proof.won and proof.exhausted and proof.states > 1


def test_a_win_that_needs_no_word_is_found_without_words(tmp_path):
    cells = dict(BRITTLE)
    cells[(7, 1)] = "blue pathfinder"  # 10 hit points ...
    cells[(6, 1)] = "red duelist"  # ... beside a second red duelist, who hits for 5
    cells[(5, 1)] = "red sage"  # and a sage for 6
    engine = brittle(tmp_path, cells=cells)
    proof = solve(engine, goal_of(engine.map), words=False)
    assert proof.won and proof.actions == 2


def test_a_budget_of_states_stops_the_search_unfinished(tmp_path):
    engine = brittle(tmp_path)
    cut = solve(engine, goal_of(engine.map), words=False, states=5)
    assert not cut.won and not cut.exhausted


def test_stars_count_the_players_commands_and_give_one_for_any_win(tmp_path):
    engine = brittle(tmp_path, {**GOAL, "stars": {3: 4, 2: 6}})
    goal = goal_of(engine.map)
    found = solve(engine, goal)
    for command in found.commands:
        engine.apply(command)
    assert actions_in(engine, "red") == 4 and actions_in(engine, "blue") == 0
    assert [goal.stars_for(n) for n in (4, 5, 6, 7)] == [3, 2, 2, 1]


def test_a_win_the_turns_end_brings_counts_before_the_deadline(tmp_path):
    cells = {(0, 0): "red hq", (0, 2): "red duelist", (3, 1): "red tower",
             (5, 1): "blue sage", (6, 2): "blue hq"}
    path = draw_cells(tmp_path / "shot.png", 7, 3, cells,
                      {"challenge": GOAL, "units": {"heroes": {"sage": {"hp": 3}}}})
    engine = load_engine(path)
    engine.apply(EndTurn())  # red's tower fires at the end of red's turn: the sage falls
    assert engine.outcome.winner == "red" and "every blue hero fell" in engine.outcome.reason


def test_the_status_line_counts_the_players_turns_down(tmp_path):
    engine = brittle(tmp_path, {"brief": "Win in two.", "turns": 2})
    said = []
    for _ in range(3):
        said.append(engine.ruleset.describe(engine.world).split("; ")[1])
        engine.apply(EndTurn())
    assert said == ["red must win within 2 turns", "red must win in its next turn",
                    "red must win this turn"]
    blue = brittle(tmp_path, {"brief": "Win as blue.", "side": "blue"})
    assert blue.ruleset.describe(blue.world).endswith("; blue must win in its next turn")
    blue.apply(EndTurn())
    assert blue.ruleset.describe(blue.world).endswith("; blue must win this turn")
    blue.apply(EndTurn())
    assert blue.outcome.winner == "red" and blue.outcome.reason == \
        "blue did not win within 1 turn"
