"""Layout arithmetic and panel words: the pure half of the client, no display needed."""

from __future__ import annotations

import pytest

from game.errors import UserError
from game.levels.loader import load_engine
from game.render.layout import Layout, parse_size
from game.render.panels import rule_lines, status_line
from game.session.narrate import Chronicle


@pytest.mark.parametrize("width, height, cols, rows", [
    (1024, 768, 24, 24), (800, 600, 12, 12), (640, 480, 40, 40), (300, 200, 7, 3),
])
def test_every_cell_maps_back_to_itself_from_its_centre(width, height, cols, rows):
    lay = Layout(width, height, cols, rows)
    for x in range(cols):
        for y in range(rows):
            assert lay.cell_at(*lay.cell_center(x, y)) == (x, y)


def test_board_fits_left_of_the_panel():
    lay = Layout(1024, 768, 40, 40)
    ox, oy = lay.origin
    assert ox + lay.cell * 40 <= lay.panel_x
    assert oy + lay.cell * 40 <= 768


@pytest.mark.parametrize("point", [(-1, 5), (5, -1), (1023, 5), (5, 767)])
def test_points_off_the_board_are_no_cell(point):
    assert Layout(1024, 768, 24, 24).cell_at(*point) is None


def test_row_zero_is_drawn_at_the_top():
    lay = Layout(1024, 768, 24, 24)
    assert lay.cell_center(0, 0)[1] > lay.cell_center(0, 23)[1]


@pytest.mark.parametrize("text, size", [("1024x768", (1024, 768)), ("640X480", (640, 480))])
def test_sizes_parse(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["big", "10x10", "1024", "axb"])
def test_bad_sizes_are_refused_with_a_sentence(text):
    with pytest.raises(UserError, match="--size"):
        parse_size(text)


def test_panel_lists_status_rules_and_the_log():
    engine = load_engine("maps/outpost.png")
    log = Chronicle(engine)
    assert "red to play" in status_line(engine)
    assert "ROCK IS STOP" in rule_lines(engine.world)
    assert log.rows() == []
    engine.submit(engine.legal_actions()[0])
    log.follow()
    assert log.rows()[0] == ("heading", "Round 1 - red") and log.rows()[1][0] == "line"


def test_a_world_without_rules_shows_a_dash():
    engine = load_engine("maps/outpost.png")
    engine.world.set_resource("rules", None)
    assert rule_lines(engine.world) == ["-"]
