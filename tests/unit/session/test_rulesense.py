"""What a command would do to the rules, read by applying and retracting it; the sentences of
a rule's meaning; fixed rules apart from word rules and where each sentence stands; the log's
sentence for a broken rule; and the observation's `prop:` planes following the rules."""

from __future__ import annotations

from game.commands import EndTurn, Move
from game.encoding import Planes
from game.levels.loader import load_engine
from game.render.controllers.preview import preview
from game.session.narrate import sentence
from game.session.rulesense import fixed_and_word, foresee, meaning, panel_lines, told, where

HERO = 2


def over_the_is():
    """Crossing with a red hero standing over the IS of WATER IS STOP (7,5), its move left."""
    engine = load_engine("maps/crossing.png", seed=7)
    for command in (Move(HERO, 6, 3), EndTurn(), EndTurn(), Move(HERO, 7, 4)):
        assert engine.submit(command)
    return engine


def test_a_push_out_of_a_sentence_is_foreseen_and_the_world_is_left_as_it_was():
    engine = over_the_is()
    before = (engine.world.version(), engine.world.resource("rules"), len(engine.history))
    assert foresee(engine, Move(HERO, 7, 5)) == {"WATER IS STOP": "broken"}
    assert (engine.world.version(), engine.world.resource("rules"), len(engine.history)) \
        == before
    assert foresee(engine, Move(HERO, 8, 4)) == {}  # a plain walk changes no rule


def test_hovering_the_push_says_what_it_breaks_and_what_that_changes():
    engine = over_the_is()
    shown = preview(engine, engine.legal_actions(), HERO, (7, 5))
    assert "WATER IS STOP is broken: water loses STOP, which meant: solid: no unit walks in, and a push against it is blocked" in shown.lines
    # the board boxes the sentence where it stands now (the window draws these in red)
    assert shown.sentences == (((6, 5), "broken"), ((7, 5), "broken"), ((8, 5), "broken"))
    plain = preview(engine, engine.legal_actions(), HERO, (8, 4))
    assert not any("is broken" in line for line in plain.lines) and not plain.sentences


def test_meanings_name_the_kind_and_what_it_gains_or_loses():
    # read from data/properties.yaml: scenery's column for water, a unit's for a side
    assert meaning("WATER IS STOP", True) == "water gains STOP: solid: no unit walks in, " \
        "and a push against it is blocked"
    assert meaning("RED IS TOUGH", True).startswith("red gains TOUGH: takes 2 less damage")
    assert meaning("ROCK IS WATER", True) == "every rock turns into water"
    assert told("BLOCK IS PUSH", "formed") == "BLOCK IS PUSH is formed: block gains PUSH: a " \
        "hero stepping into it shoves the line one cell for one move point"


def test_fixed_rules_stand_apart_from_word_rules_with_their_places():
    engine = load_engine("maps/crossing.png", seed=7)
    fixed, worded = fixed_and_word(engine.world)
    assert fixed == ["ROCK IS STOP", "WALL IS STOP", "TEXT IS PUSH"]
    assert worded == [("WATER IS STOP", ((6, 5), (7, 5), (8, 5))),
                      ("BLOCK IS PUSH", ((7, 11), (8, 11), (9, 11)))]
    assert ("WATER IS STOP (6,5)→", "word", "WATER IS STOP") in panel_lines(engine.world)
    assert where(((2, 3), (2, 4), (2, 5))) == "(2,3)↓"


def test_the_log_tells_the_broken_rule_and_its_meaning():
    engine = over_the_is()
    assert engine.submit(Move(HERO, 7, 5))
    lines = [sentence(engine.world, e) for e in engine.history[-1].events]
    assert "WATER IS STOP is broken: water loses STOP, which meant: solid: no unit walks in, and a push against it is blocked" in lines


def test_the_stop_plane_goes_dark_on_the_water_when_water_is_stop_breaks():
    engine = over_the_is()
    planes = Planes(engine)
    stop, water = planes.index["prop:STOP"], planes.index["kind:water"]
    seen = planes.observe(engine, "red")
    assert (seen[stop] >= seen[water]).all() and seen[water].sum() > 0
    assert engine.submit(Move(HERO, 7, 5))
    seen = planes.observe(engine, "red")
    assert seen[water].sum() > 0 and (seen[stop] * seen[water]).sum() == 0
    engine.undo()
    assert (planes.observe(engine, "red")[stop] >= seen[water]).all()


def test_a_rule_naming_a_side_lights_its_units_on_the_property_plane(tmp_path):
    from tests.helpers import draw_cells

    cells = {(0, 0): "red hq", (9, 9): "blue hq", (3, 1): "red bulwark", (8, 8): "blue bulwark",
             (2, 5): "word RED", (3, 5): "word IS", (4, 5): "word TOUGH"}
    engine = load_engine(draw_cells(tmp_path / "t.png", 10, 10, cells, {"name": "t"}))
    assert "RED IS TOUGH" in engine.world.resource("rules")
    planes = Planes(engine)
    tough = planes.observe(engine, "blue")[planes.index["prop:TOUGH"]]
    assert tough[1, 3] == 1.0 and tough[0, 0] == 1.0  # the red bulwark and the red hq
    assert tough[8, 8] == 0.0 and tough.sum() == 2.0
