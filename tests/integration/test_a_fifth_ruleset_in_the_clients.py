"""The counting ruleset (tests/conformance/counting.py), registered by the test alone, plays in
the Textual client with the keys a player presses and draws in the window offscreen (pyglet's
headless EGL mode, conftest.py): everything it needed is in its own file, its spec's edges
(input mode, evaluator, capabilities) included."""

from __future__ import annotations

import asyncio

import pytest
from textual.pilot import Pilot

from game.commands import Take
from game.levels.loader import load_engine
from game.session.match import make_seats
from game.text.app import RulefrontApp
from tests.conformance.test_a_fifth_ruleset import register_counting


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> None:
    register_counting(monkeypatch)


def test_counting_plays_in_the_textual_client_by_keys_until_the_game_ends(counting) -> None:
    engine = load_engine("counting:7", seed=0)
    seats = make_seats(engine, {"red": "human", "blue": "perfect"}, 0)  # impartial, exact
    app = RulefrontApp(engine, seats, 0, None, ai_delay=3600.0)  # the AI plays on space

    async def scenario(pilot: Pilot) -> None:
        await pilot.pause()
        assert app.cursor.mode == "heaps"
        await pilot.press("right", "right", "enter")  # the third take: 3 tokens
        assert engine.history[0].command == Take(0, 3, 0)
        assert engine.side == "blue"
        await pilot.press("space")  # the AI's turn at once: whatever it takes, 4 - k are left
        for _ in range(500):  # it thinks in its own process (game/session/think.py)
            if engine.side == "red":
                break
            await pilot.pause(0.02)
        assert len(engine.history) == 2 and engine.side == "red"
        left = len(engine.ruleset.tokens(engine.world))  # type: ignore[attr-defined]
        await pilot.press(*["right"] * (left - 1), "enter")  # take them all
        await pilot.pause()

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await scenario(pilot)

    asyncio.run(run())
    assert engine.outcome is not None and engine.outcome.winner == "red"
    assert app.prompt().startswith("game over: red (red took the last token)")


def test_counting_draws_in_the_window_offscreen(counting, window) -> None:
    from game.render.offscreen import frame_image, to_array
    from game.render.screen import Screen
    from game.render.uiview import UiView

    engine = load_engine("counting:7", seed=0)
    screen = Screen(engine, *window.get_size())
    screen.show(UiView())
    before = to_array(frame_image(window, screen))
    assert engine.submit(Take(0, 3, 0)).ok
    screen.invalidate()
    after = to_array(frame_image(window, screen))
    assert before.std() > 10  # the board, not a blank
    assert (before != after).any(axis=2).sum() > 100  # three tokens gone, the status redrawn
