"""Macro moves: the region YOU can walk through without changing anything else, the moves
that leave it, and how a Jump is spelled back into steps."""

from __future__ import annotations

import random

import pytest

from components.resources import SIZE_KEY
from game.commands import Step
from game.engine import Impossible
from game.rulesets.puzzle.guess import DEADLY_COST, spell_win, through
from game.rulesets.puzzle.walks import Jump
from tests.helpers import keke_level

OPEN_ROOM = ["b...r", ".....", "B12.f", "F13.."]


def settled(rows: list[str]):
    """A level after one wait-like step that changes nothing (a step into the border)."""
    engine = keke_level(rows)
    engine.apply(Step("u"))
    return engine


def test_states_that_differ_only_by_a_walk_share_one_region_key():
    engine = settled(OPEN_ROOM)
    rules = engine.ruleset
    here = rules.walk_region(engine.world).key
    plain = rules.state_key(engine.world)
    engine.apply(Step("r"))
    engine.apply(Step("d"))
    assert rules.walk_region(engine.world).key == here
    assert rules.state_key(engine.world) != plain  # the plain hash moved with YOU


def test_a_push_makes_a_new_region_key():
    engine = settled(["b.r..", ".....", "B12.f", "F13..", "R15.."])
    rules = engine.ruleset
    before = rules.walk_region(engine.world).key
    engine.apply(Step("r"))
    assert rules.walk_region(engine.world).key == before  # walked up to the rock
    engine.apply(Step("r"))
    assert rules.walk_region(engine.world).key != before  # pushed it


def test_there_is_no_region_before_the_first_turn_or_with_two_yous_or_a_move_word():
    assert keke_level(OPEN_ROOM).ruleset.walk_region(keke_level(OPEN_ROOM).world) is None
    two = settled(["b..b.", ".....", "B12.f", "F13.."])
    assert two.ruleset.walk_region(two.world) is None
    moving = settled(["b...k", "K17..", "B12.f", "F13.."])
    assert moving.ruleset.walk_region(moving.world) is None


def test_the_moves_out_of_a_region_are_steps_into_words_and_wins_with_their_walk_cost():
    engine = settled(OPEN_ROOM)
    rules = engine.ruleset
    area = rules.walk_region(engine.world)
    moves = dict(rules.walk_moves(engine.world, area))
    # YOU at (0, 0); the flag at (4, 2) is entered from (3, 2) going right, 5 steps away
    # plus the step itself; a plain rock (no rule) is free ground, so no move enters it.
    assert moves[Jump(3, 2, "r")] == 6
    assert moves[Jump(0, 1, "d")] == 2  # into the BABA word
    assert all(not (j.x == 3 and j.y == 0 and j.direction == "r") for j in moves)


def test_a_jump_spelled_as_steps_reaches_the_same_state_as_the_jump():
    engine = settled(OPEN_ROOM)
    rules = engine.ruleset
    area = rules.walk_region(engine.world)
    jump = Jump(3, 2, "r")
    steps = rules.walk_steps(engine.world, area, jump)
    assert len(steps) == 6 and steps[-1] == Step("r")
    engine.apply(jump)
    jumped = rules.state_key(engine.world)
    assert rules.verdict(engine.world) == 1
    engine.retract()
    for step in steps:
        engine.submit(step)
    assert rules.state_key(engine.world) == jumped and engine.outcome[0] == "player"


def test_a_jump_is_refused_when_submitted():
    engine = settled(OPEN_ROOM)
    before = engine.world.snapshot()
    assert isinstance(engine.submit(Jump(3, 2, "r")), Impossible)
    assert engine.world.snapshot() == before


def test_the_fill_guess_prices_a_sink_on_the_way_instead_of_walling_it_off():
    # The flag is behind a column of goop (GOOP IS SINK): the plain walk field finds no way.
    engine = keke_level(["b.g.f", "..g..", "B12..", "F13..", "G10.."])
    world = engine.world
    assert through(world, -1.0) == 4 + DEADLY_COST
    clear = keke_level(["b...f", ".....", "B12..", "F13..", "G10.."])
    assert through(clear.world, -1.0) == 4


def test_the_spell_guess_falls_as_the_win_word_nears_its_place():
    # FLAG IS WIN is to be spelled: the WIN word starts three cells right of its place.
    far = keke_level(["b.....", "......", "B12...", "F1...3", "f....."])
    near = keke_level(["b.....", "......", "B12...", "F1.3..", "f....."])
    assert spell_win(near.world, 1000.0) < spell_win(far.world, 1000.0) < 1000.0


def test_the_spell_guess_leaves_out_a_slot_whose_word_no_push_can_take_away():
    # BABA IS YOU in the top right corner: WIN can never take YOU's place there (no push
    # moves YOU off the corner but into the IS), so BABA IS WIN is no slot (Keke 59). One
    # row lower, WIN pushed up from below moves YOU out: the slot is priced.
    corner = keke_level(["...B12", ".....3", "b.....", "......"])
    lower = keke_level(["......", "...B12", ".....3", "b....."])
    assert spell_win(corner.world, 1000.0) == 1000.0
    assert spell_win(lower.world, 1000.0) < 1000.0


DEADLY_ROOM = ["b..s.g.r.", ".........", "S14..gg..", "B12...rf.", "F13......", "G10.R15.."]


def test_a_step_that_would_kill_you_is_no_move_out_of_the_region():
    engine = settled(DEADLY_ROOM)
    rules = engine.ruleset
    moves = dict(rules.walk_moves(engine.world, rules.walk_region(engine.world)))
    assert Jump(2, 0, "r") not in moves  # into the skull: SKULL IS KILL
    assert Jump(4, 0, "r") not in moves  # into the goop: GOOP IS SINK
    assert Jump(5, 1, "u") not in moves
    assert Jump(6, 0, "r") in moves  # the rock is PUSH: it moves


@pytest.mark.parametrize("seed", range(4))
def test_every_jump_left_out_of_a_region_changes_nothing_or_loses(seed):
    """Each jump from each cell of the region, tried by hand: one that leaves a new state
    without losing is among the region's moves (on random walks of macro moves)."""
    rng = random.Random(seed)
    engine = settled(DEADLY_ROOM)
    rules = engine.ruleset
    world = engine.world
    width, height = world.resource(SIZE_KEY)
    for _turn in range(25):
        area = rules.walk_region(world)
        if area is None or rules.verdict(world) != 0:
            break
        moves = dict(rules.walk_moves(world, area))
        cells = area.cells
        for cell in range(width * height):
            if not cells >> cell & 1:
                continue
            for direction in "udlr":
                jump = Jump(cell % width, cell // width, direction)
                engine.apply(jump)
                lost = rules.verdict(world) == -1
                after = rules.walk_region(world)
                same = after is not None and after.key == area.key
                engine.retract()
                assert lost or same or jump in moves, (jump, seed)
        engine.apply(rng.choice(sorted(moves, key=repr)))
