"""Macro moves: the region YOU can walk through without changing anything else, the moves
that leave it, and how a Jump is spelled back into steps."""

from __future__ import annotations

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
