"""The colour-blind palette of Settings: the window's colours and the terminal's styles."""

from __future__ import annotations

from game.render import colors
from game.session.settings import Settings


def test_the_colour_blind_palette_recolours_sides_and_overlays_and_switches_back():
    standard = (colors.side_color("red"), colors.side_color("blue"), colors.REACH,
                colors.TARGET)
    try:
        colors.use_palette("colour-blind")
        assert colors.side_color("red") == colors.COLOUR_BLIND_SIDES["red"]
        assert colors.side_color("blue") == colors.COLOUR_BLIND_SIDES["blue"]
        assert (colors.COLOUR_BLIND["REACH"],
                                                 colors.COLOUR_BLIND["TARGET"]) == (colors.REACH, colors.TARGET)
        assert colors.building_color("hq", "red") != standard[0]
        threat = (colors.THREAT_MOVE, colors.THREAT_STRIKE)
        assert threat == (colors.REACH, colors.TARGET)  # the same two hues, outlined
    finally:
        colors.use_palette("standard")
    assert (colors.side_color("red"), colors.side_color("blue"), colors.REACH,
            colors.TARGET) == standard


def test_the_terminal_takes_the_palette_and_the_key_bindings():
    from game.text import app

    plain = (app.STYLES["red"], app.REACH, app.TARGET)
    try:
        app.use_settings(Settings(palette="colour-blind", keys={"end_turn": "SPACE"}))
        assert app.STYLES["red"] != plain[0] and plain[1] != app.REACH
        threat = (app.THREAT_MOVE, app.THREAT_STRIKE)
        assert threat == app.COLOUR_BLIND_THREAT
        assert app.bound == {"space": "end_turn"}
    finally:
        app.use_settings(Settings())
    assert (app.STYLES["red"], app.REACH, app.TARGET) == plain and app.bound == {}
    back = app.THREAT_MOVE
    assert back != app.COLOUR_BLIND_THREAT[0]
