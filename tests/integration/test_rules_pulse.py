"""Rule changes pulse in the rules panel: a rule a command breaks shows in red, marked broken, and fades,
a rule it forms flashes yellow and settles; an undo plays the change backward."""

from __future__ import annotations

import numpy as np
import pytest

from game.commands import Step
from game.events import Pushed, RuleBroken, RuleFormed
from game.render import colors
from game.render.app import backward
from game.render.offscreen import frame_image, to_array
from game.render.screen import BROKEN, PULSE, Screen, pulse_color, rule_changes
from tests.helpers import keke_level

pytestmark = pytest.mark.integration

# Baba under WIN: stepping up pushes WIN out of FLAG IS WIN.
ROWS = [".....", "F13..", "..b..", ".....", "B12.f"]


def panel_pixels(image: np.ndarray, screen: Screen, color: tuple[int, int, int]) -> int:
    """Pixels of the panel nearer `color` than the panel's plain text colour is (anti-aliased
    letters are blends of the text colour and the ground)."""
    panel = image[:, screen.layout.panel_x:].astype(int)
    near = np.abs(panel - np.array(color)).sum(axis=2)
    plain = np.abs(panel - np.array(colors.TEXT)).sum(axis=2)
    ground = np.abs(panel - np.array(colors.PANEL)).sum(axis=2)
    return int(((near < plain) & (near < ground) & (near < 120)).sum())


def texts(screen: Screen) -> list[str]:
    return [key[0] for key in screen.labels]


def test_a_broken_rule_shows_in_red_then_goes(window):
    engine = keke_level(ROWS)
    screen = Screen(engine, *window.get_size())
    frame_image(window, screen)
    assert engine.submit(Step("u"))
    screen.invalidate()
    length = screen.play(engine.history[-1].events, clock=0.0)
    assert length >= PULSE
    assert "FLAG IS WIN  (broken)" in texts(screen) and "FLAG IS WIN" not in texts(screen)
    screen.pose(0.05)
    early = to_array(frame_image(window, screen))
    screen.pose(PULSE)
    late = to_array(frame_image(window, screen))  # the pulse over: the panel is rebuilt
    assert panel_pixels(early, screen, BROKEN) > 20
    assert panel_pixels(late, screen, BROKEN) == 0
    assert not any("(broken)" in text for text in texts(screen))


def board_pixels(image: np.ndarray, screen: Screen, color: tuple[int, int, int]) -> int:
    board = image[:, :screen.layout.panel_x].astype(int)
    return int((np.abs(board - np.array(color)).sum(axis=2) < 40).sum())


def test_the_broken_sentence_is_boxed_on_the_board_where_it_stood_then_unboxed(window):
    engine = keke_level(ROWS)
    screen = Screen(engine, *window.get_size())
    before = to_array(frame_image(window, screen))
    assert engine.submit(Step("u"))
    screen.play(engine.history[-1].events, clock=0.0)
    # FLAG IS WIN stood on row 1, columns 0-2, before WIN was pushed up out of it
    assert screen.rule_cells == {(0, 1): "broken", (1, 1): "broken", (2, 1): "broken"}
    screen.pose(0.05)
    early = to_array(frame_image(window, screen))
    screen.pose(PULSE)
    late = to_array(frame_image(window, screen))
    assert board_pixels(early, screen, BROKEN) > board_pixels(before, screen, BROKEN) + 50
    assert board_pixels(late, screen, BROKEN) == board_pixels(before, screen, BROKEN)
    assert not screen.rule_boxes


def test_undoing_the_break_makes_the_rule_form_again_and_flash(window):
    engine = keke_level(ROWS)
    screen = Screen(engine, *window.get_size())
    assert engine.submit(Step("u"))
    frame_image(window, screen)
    events = engine.history[-1].events
    engine.undo()
    screen.invalidate()
    screen.play(backward(events), clock=0.0)
    label = next(label for key, label in screen.labels.items() if key[0].startswith("FLAG IS WIN ("))
    assert tuple(label.color[:3]) == colors.SELECT
    flash = to_array(frame_image(window, screen))
    screen.pose(PULSE)
    assert tuple(label.color[:3]) == colors.TEXT
    settled = to_array(frame_image(window, screen))
    assert panel_pixels(flash, screen, colors.SELECT) > panel_pixels(settled, screen,
                                                                     colors.SELECT)


def test_a_rule_broken_and_formed_by_one_command_did_not_change():
    assert rule_changes([RuleBroken("A IS B"), RuleFormed("A IS B"), RuleFormed("C IS D"),
                         Pushed(1, 0, 0, 1, 0)]) == {"C IS D": "formed"}


def test_the_pulse_fades_a_broken_rule_and_settles_a_formed_one():
    assert pulse_color("broken", 0.0) == (BROKEN, 255)
    assert pulse_color("broken", PULSE) == (BROKEN, 0)
    assert pulse_color("formed", 0.0) == (colors.SELECT, 255)
    assert pulse_color("formed", PULSE) == (colors.TEXT, 255)


def test_backward_swaps_formed_and_broken_rules():
    undone = backward([Pushed(1, 0, 0, 1, 0), RuleBroken("A IS B"), RuleFormed("C IS D")])
    assert undone == [RuleBroken("C IS D"), RuleFormed("A IS B"), Pushed(1, 1, 0, 0, 0)]
