"""The map editor without a display: paint, fill, undo, validate, save and reload."""

from __future__ import annotations

import pytest

from game.errors import UserError
from game.levels.maps import load_map
from game.render.controllers.editor import EditorController, load_draft, new_draft
from tests.helpers import color_of, draw_map


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


def test_the_palette_is_grouped_from_the_data_files(tmp_path):
    from game.data import words

    ed = editor(tmp_path)
    groups = {g.title: [ed.entries[i] for i in g.entries] for g in ed.groups}
    assert list(groups)[:4] == ["terrain", "red units", "blue units", "buildings"]
    assert all(e.team == "red" and e.prefab == "hero" for e in groups["red units"])
    assert {e.prefab for e in groups["buildings"]} == {"hq", "tower", "spawn"}
    for part in {info.part for info in words().values()}:  # every part of speech, by name
        title = f"words: {part[:-1] + 'ies' if part.endswith('y') else part + 's'}"
        shown = {e.word for e in groups[title]}
        assert shown == {w for w, info in words().items() if info.part == part}
    assert sum(len(g.entries) for g in ed.groups) == len(ed.entries)  # nothing left out


def test_q_with_unsaved_changes_asks_and_only_d_or_s_quits(tmp_path):
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    ed = EditorController(load_draft(path), path)
    ed.key("Q")
    assert ed.quit and not ed.asking  # nothing to lose: quits at once
    ed = EditorController(load_draft(path), path)
    ed.paint((2, 1), color_of("rock"))
    ed.key("Q")
    assert ed.asking and not ed.quit
    ed.key("ESCAPE")  # keep editing
    assert not ed.asking and not ed.quit and ed.dirty
    ed.key("Q")
    ed.key("D")
    assert ed.quit and load_draft(path).cells.get((2, 1)) is None  # not written


def test_s_in_the_question_saves_then_quits_and_undoing_back_is_clean(tmp_path):
    path = draw_map(tmp_path / "m.png", ["D....q", "......", "Q....d"])
    ed = EditorController(load_draft(path), path)
    ed.paint((2, 1), color_of("rock"))
    ed.undo()
    assert not ed.dirty  # back to what the file holds
    ed.redo()
    ed.key("ESCAPE")
    assert ed.asking
    ed.key("S")
    assert ed.quit and load_draft(path).cells[(2, 1)] == color_of("rock")


def test_p_saves_then_plays_the_map_and_a_broken_map_is_not_played(tmp_path):
    played = []
    ed = EditorController(new_draft("6x4"), tmp_path / "new.png", launch=played.append)
    ed.paint((0, 0), color_of("red hq"))
    ed.key("P")
    assert played == [] and "not saved" in ed.message
    ed.erase((0, 0))
    paint_a_playable_map(ed)
    ed.key("P")
    assert played == [tmp_path / "new.png"] and not ed.dirty


def test_painting_floor_on_floor_is_no_edit(tmp_path):
    ed = editor(tmp_path)
    ed.paint((1, 1), color_of("floor"))
    assert not ed.undo_stack and not ed.dirty


def test_the_right_button_erases_whatever_the_tool(tmp_path):
    ed = editor(tmp_path)
    ed.paint((1, 1), color_of("rock"))
    ed.click((1, 1), erase=True)
    assert ed.draft.cells == {}
