"""The map editor without a display: paint, fill, undo, validate, save and reload."""

from __future__ import annotations

import pytest

from game.errors import UserError
from game.levels.maps import load_map
from game.render.controllers.editor import EditorController, load_draft, new_draft
from tests.helpers import color_of


def editor(tmp_path, size="6x4"):
    return EditorController(new_draft(size), tmp_path / "new.png")


def paint_a_playable_map(ed: EditorController) -> None:
    for name, cell in (("red hq", (0, 3)), ("blue hq", (5, 0)),
                       ("red duelist", (0, 2)), ("blue duelist", (5, 1))):
        ed.paint(cell, color_of(name))


def test_paint_save_and_reload_gives_the_painted_map(tmp_path):
    ed = editor(tmp_path)
    paint_a_playable_map(ed)
    ed.fill((2, 0), (3, 1), color_of("rock"))
    ed.set_field("name", "Painted")
    ed.set_field("turn_limit", 7)
    assert ed.save(), ed.message
    game_map = load_map(tmp_path / "new.png")
    assert {(x, y): e.color for x, y, e in game_map.cells} == ed.draft.cells
    assert game_map.sidecar["name"] == "Painted" and game_map.sidecar["turn_limit"] == 7
    assert load_draft(tmp_path / "new.png").cells == ed.draft.cells


def test_a_map_that_fails_the_check_is_not_saved(tmp_path):
    ed = editor(tmp_path)
    ed.paint((0, 0), color_of("red hq"))
    assert not ed.save()
    assert "not saved" in ed.message and "new.png" in ed.message
    assert not (tmp_path / "new.png").exists()


def test_undo_and_redo_walk_the_edits(tmp_path):
    ed = editor(tmp_path)
    ed.paint((1, 1), color_of("rock"))
    ed.paint((2, 1), color_of("water"))
    ed.undo()
    assert ed.draft.cells == {(1, 1): color_of("rock")}
    ed.redo()
    assert ed.draft.cells[(2, 1)] == color_of("water")


def test_erase_and_the_rectangle_tool_take_clicks(tmp_path):
    ed = editor(tmp_path)
    ed.pick_color(color_of("wall"))
    ed.use("rect")
    ed.click((0, 0))
    ed.click((2, 1))
    assert len(ed.draft.cells) == 6
    ed.use("erase")
    ed.click((1, 1))
    assert (1, 1) not in ed.draft.cells and len(ed.draft.cells) == 5


def test_resize_drops_cells_outside_and_undo_restores_them(tmp_path):
    ed = editor(tmp_path)
    ed.paint((5, 3), color_of("rock"))
    ed.key("LEFT", ctrl=True)
    assert ed.draft.width == 5 and ed.draft.cells == {}
    ed.key("U")
    assert ed.draft.cells == {(5, 3): color_of("rock")}


def test_palette_keys_cycle_the_brush(tmp_path):
    ed = editor(tmp_path)
    first = ed.brush
    ed.key("BRACKETRIGHT")
    ed.key("BRACKETLEFT")
    assert ed.brush == first


@pytest.mark.parametrize("size", ["big", "0x4", "500x500"])
def test_bad_new_sizes_are_refused(size):
    with pytest.raises(UserError):
        new_draft(size)


def test_unknown_sidecar_fields_are_refused(tmp_path):
    with pytest.raises(UserError, match="not editable"):
        editor(tmp_path).set_field("colour", "red")


def test_the_ruleset_and_turn_limit_keys_edit_the_sidecar(tmp_path):
    from game.render.controllers.editor import EditorController, new_draft

    ctrl = EditorController(new_draft("12x12"), tmp_path / "m.png")
    before = ctrl.draft.sidecar.get("ruleset", "skirmish")
    ctrl.key("G")
    assert ctrl.draft.sidecar["ruleset"] != before
    ctrl.key("EQUAL")
    ctrl.key("EQUAL")
    ctrl.key("MINUS")
    assert ctrl.draft.sidecar["turn_limit"] == 110
    ctrl.undo()
    assert ctrl.draft.sidecar["turn_limit"] == 120
