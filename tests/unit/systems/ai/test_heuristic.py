"""The heuristic AI: targets, approach, retreat, HQ defence, and rule changes it judges by the
evaluation."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from components.resources import RULES_KEY
from game.commands import Attack, EndTurn, Move
from game.engine import Engine
from game.levels.loader import load_engine
from game.session.match import run_match
from systems.ai import Budget
from systems.ai.heuristic import HeuristicAI
from tests.helpers import draw_cells
from tests.unit.systems.ai.positions import (
    BLUE_BULWARK,
    BLUE_RANGER,
    BLUE_SAGE,
    RED_BULWARK,
    RED_RANGER,
    RED_SAGE,
    arrange,
    spawn_minion,
)


def choose(engine: Engine):
    return HeuristicAI().choose(engine, random.Random(0), Budget())


# The red sage (6 damage, range 3) in the open with two blue heroes two cells away.
SAGE_FACING_TWO = {RED_SAGE: (10, 16), BLUE_BULWARK: (10, 14), BLUE_RANGER: (12, 16)}


@pytest.mark.parametrize(
    ("hp", "target"),
    [
        ({BLUE_BULWARK: 7, BLUE_RANGER: 6}, BLUE_RANGER),  # the kill, though not the weakest
        ({BLUE_BULWARK: 8, BLUE_RANGER: 9}, BLUE_BULWARK),  # no kill: the weakest
        ({BLUE_BULWARK: 16, BLUE_RANGER: 9}, BLUE_RANGER),
    ],
)
def test_it_attacks_the_target_it_can_kill_else_the_weakest(hp, target) -> None:
    engine = arrange(place=SAGE_FACING_TWO, hp=hp)
    assert choose(engine) == Attack(RED_SAGE, target)


def test_it_walks_toward_the_nearest_enemy_while_its_attack_is_unused() -> None:
    engine = arrange()
    command = choose(engine)
    assert isinstance(command, Move)
    hero_before = {RED_BULWARK: (2, 3), RED_RANGER: (4, 3), RED_SAGE: (3, 4)}[command.unit]
    target = (20, 19)
    before = abs(hero_before[0] - target[0]) + abs(hero_before[1] - target[1])
    after = abs(command.x - target[0]) + abs(command.y - target[1])
    assert after < before


def test_after_attacking_it_steps_out_of_reach_of_the_tower() -> None:
    # The red ranger (range 4) hits the blue sage from inside the blue tower's range (3), then
    # should leave that range with its remaining move points.
    engine = arrange(remove=(BLUE_BULWARK, BLUE_RANGER),
                     place={RED_RANGER: (15, 16), BLUE_SAGE: (15, 12)})
    first = choose(engine)
    assert isinstance(first, Attack)
    engine.submit(first)
    second = choose(engine)
    assert isinstance(second, Move) and second.unit == RED_RANGER
    tower = (17, 17)
    assert abs(second.x - tower[0]) + abs(second.y - tower[1]) > 3


def test_it_turns_back_to_defend_the_hq_against_a_minion_wave() -> None:
    engine = arrange(place={RED_BULWARK: (6, 3)})
    raider = spawn_minion(engine, "blue", 2, 1, hp=5)
    command = choose(engine)
    assert command in (Attack(RED_SAGE, raider), Attack(RED_RANGER, raider)) or (
        isinstance(command, Move))
    # Whoever moves first moves toward the raider rather than toward the enemy heroes.
    if isinstance(command, Move):
        assert abs(command.x - 2) + abs(command.y - 1) <= 4


def test_it_ends_the_turn_when_nothing_helps() -> None:
    engine = arrange(moves={RED_BULWARK: 0, RED_RANGER: 0, RED_SAGE: 0})
    assert choose(engine) == EndTurn()


def test_heuristic_beats_random_on_the_default_map_in_a_few_games() -> None:
    for seed, seats in [(1, {"red": "heuristic", "blue": "random"}),
                        (1, {"red": "random", "blue": "heuristic"})]:
        _engine, result = run_match("maps/duel.png", seats, seed)
        winner_seat = seats.get(result.winner)
        assert winner_seat == "heuristic", result


def test_a_move_that_changes_the_rules_for_the_better_is_judged_by_the_evaluation(
        tmp_path: Path) -> None:
    # The red bulwark stands under ROCK, one cell out of TOWER IS _: pushing it up spells
    # TOWER IS ROCK, and the only tower, blue's, turns to rock.
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (5, 3): "red bulwark", (8, 8): "blue bulwark",
             (9, 5): "blue tower", (3, 1): "word TOWER", (4, 1): "word IS", (5, 2): "word ROCK"}
    engine = load_engine(draw_cells(tmp_path / "t.png", 10, 10, cells,
                                    {"name": "t", "base_rules": ["ROCK IS STOP", "TEXT IS PUSH"]}))
    bulwark = next(iter(engine.world.at(5, 3)))
    ai = HeuristicAI(pushes=False)  # the one action's own score, not a line of several
    scores = dict((c, s) for s, c in ai.scores(engine))
    assert scores[Move(bulwark, 5, 2)] == max(scores.values()) > 40  # the tower's worth
    assert ai.choose(engine, random.Random(0), Budget()) == Move(bulwark, 5, 2)
    engine.apply(Move(bulwark, 5, 2))
    assert "TOWER IS ROCK" in engine.world.resource(RULES_KEY)


@pytest.mark.parametrize("level", ["maps/duel.png", "maps/crossing.png"])
def test_a_heuristic_that_remembers_scores_every_position_as_a_fresh_one(level: str) -> None:
    """What a heuristic keeps between choices (distance fields, cell values against an enemy
    line-up) never changes a score: along a game and back through its undo, one heuristic that
    remembers and a new one for each position give the same scores in the same order, and so
    do the two policies of a whole-turn search, which share one memory."""
    from game.levels.loader import load_engine
    from systems.ai.turns import press_policies, press_weights

    engine = load_engine(level, seed=2)
    remembering, rng = HeuristicAI(), random.Random(2)
    # the two policies of a whole-turn search share one memory (some of it per weights)
    sharing = press_policies()
    pressing = press_weights(sharing[0].w)
    for _ in range(250):  # the heuristic's game, with a random action now and then: contact
        if engine.over:
            break
        assert remembering.scores(engine) == HeuristicAI().scores(engine)
        assert remembering.scores(engine) == HeuristicAI().scores(engine)  # asked again
        assert sharing[1].scores(engine) == HeuristicAI(pressing).scores(engine)
        assert sharing[0].scores(engine) == HeuristicAI().scores(engine)
        engine.apply(rng.choice(engine.legal_actions()) if rng.random() < 0.2
                     else remembering.choose(engine, rng, Budget()))
    while engine.history:
        engine.retract()
        assert remembering.scores(engine) == HeuristicAI().scores(engine)
        assert sharing[1].scores(engine) == HeuristicAI(pressing).scores(engine)


@pytest.mark.parametrize("seed", range(4))
def test_the_distance_field_counts_steps_as_grid_distances_does_even_past_unreached(
        seed: int) -> None:
    """The heuristic's flat breadth-first field (a cell at UNREACHED is one not reached yet),
    whole or walked only as far as the cells asked about, agrees with
    systems.board.grid_distances, on random boards and on a winding corridor whose walks are
    longer than UNREACHED steps."""
    from systems.ai.heuristic import UNREACHED, GoalSteps, _grid, _steps
    from systems.board import grid_distances

    rng = random.Random(seed)
    boards = [(60, 5, frozenset((x, y) for x in range(60) for y in (1, 3)
                                if x != (59 if y == 1 else 0)), [(0, 0)])]
    for _ in range(50):
        width, height = rng.randint(2, 25), rng.randint(2, 25)
        solid = frozenset((rng.randrange(width), rng.randrange(height))
                          for _ in range(rng.randint(0, width * height // 3)))
        goals = [(rng.randrange(width), rng.randrange(height)) for _ in range(rng.randint(1, 3))]
        boards.append((width, height, solid, goals))
    for width, height, solid, goals in boards:
        expected = grid_distances(goals, solid, width, height)
        whole = [expected.get((x, y), UNREACHED) for y in range(height) for x in range(width)]
        assert _steps(_grid(solid, width, height), goals, width) == whole
        # walked only as far as each cell asked about, in any order
        lazy = GoalSteps(_grid(solid, width, height), goals, width)
        cells = list(range(width * height))
        rng.shuffle(cells)
        assert [(i, lazy.at(i)) for i in cells] == [(i, whole[i]) for i in cells]
    assert max(_steps(_grid(boards[0][2], 60, 5), [(0, 0)], 60)) > UNREACHED
