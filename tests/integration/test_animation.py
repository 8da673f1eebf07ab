"""Animation driven by events, in the window and in movies: slides pass between cells, AI
seats wait for the animation, a key skips it, and replays and solutions become GIFs."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from PIL import Image
from pyglet.window import key

from components import Position
from game.commands import Move
from game.levels.loader import load_engine
from game.render import colors
from game.render.app import App
from game.render.controllers.match import Controller
from game.render.offscreen import frame_image, to_array
from game.render.screen import Screen
from game.session.match import make_seats
from game.session.think import Inline
from tests.helpers import draw_map, run_cli

pytestmark = pytest.mark.integration

ROWS = ["D.....", "......", "......", "Q...dq"]


def red_columns(image: np.ndarray, screen: Screen) -> float:
    """Mean x of the pixels painted in red's side colour in the board's top row (the hero)."""
    red = np.array(colors.side_color("red"))
    _left, bottom, size, _ = screen.layout.cell_rect(0, 0)
    top = image.shape[0] - (bottom + size)
    board = image[top:top + size, :screen.layout.panel_x]
    ys, xs = np.nonzero(np.abs(board.astype(int) - red).max(axis=2) <= 6)
    return float(xs.mean())


@pytest.fixture
def tiny(tmp_path):
    return load_engine(draw_map(tmp_path / "tiny.png", ROWS))


def test_a_move_slides_through_the_cells_between_start_and_end(window, tiny):
    screen = Screen(tiny, *window.get_size())
    start = red_columns(to_array(frame_image(window, screen)), screen)
    hero = tiny.world.at(0, 0)[0]
    assert tiny.submit(Move(hero, 3, 0))
    screen.invalidate()
    length = screen.play(tiny.history[-1].events, clock=0.0)
    assert length > 0
    screen.pose(length * 0.5)
    middle = red_columns(to_array(frame_image(window, screen)), screen)
    screen.pose(length)
    end = red_columns(to_array(frame_image(window, screen)), screen)
    step = screen.layout.cell
    assert end - start == pytest.approx(3 * step, abs=2)
    assert start + step * 0.5 < middle < end - step * 0.5  # on the way, not at either end


def draw(app: App) -> None:
    """One frame of the window, as pyglet's on_draw would draw it."""
    app.window.switch_to()
    app.on_draw()


def app_for(window, engine, tmp_path, animate: bool, blue: str = "random") -> App:
    seats = make_seats(engine, {"red": "human", "blue": blue}, 0)
    return App(window, Controller(engine, seats, 0, tmp_path / "save.json", thinker=Inline()),
               animate)


def test_ai_seats_wait_for_the_animation_and_a_key_skips_it(window, tiny, tmp_path):
    app = app_for(window, tiny, tmp_path, animate=True)
    try:
        app.refresh()
        hero = tiny.world.at(0, 0)[0]
        app.controller.submit(Move(hero, 2, 0))
        draw(app)
        assert app.screen.animating
        assert tiny.world.get(hero, Position) == Position(2, 0)  # the engine did not wait
        app.controller.key("E")  # red ends its turn (nothing moves): blue, an AI, plays
        draw(app)
        assert not app.screen.animating
        while not app.screen.animating:  # the AI acts until one of its commands moves a piece
            commands = len(tiny.history)
            app.tick()
            assert len(tiny.history) == commands + 1
            draw(app)
        app.tick()
        assert len(tiny.history) == commands + 1  # the AI waits for the animation to end
        app.on_key_press(key.LEFT, 0)  # any key skips to the end
        assert not app.screen.animating
        app.tick()
        assert len(tiny.history) == commands + 2
    finally:
        window.pop_handlers()


def test_with_animation_off_nothing_animates(window, tiny, tmp_path):
    app = app_for(window, tiny, tmp_path, animate=False, blue="human")
    try:
        hero = tiny.world.at(0, 0)[0]
        app.controller.submit(Move(hero, 2, 0))
        draw(app)
        assert not app.screen.animating
    finally:
        window.pop_handlers()


def test_a_replay_becomes_a_gif_of_the_whole_game(tmp_path, capsys):
    replay, gif = tmp_path / "r.json", tmp_path / "r.gif"
    assert run_cli(capsys, "match", "maps/outpost.png", "--seed", "3", "--replay",
                   str(replay))[0] == 0
    code, out, _ = run_cli(capsys, "render", str(replay), "-o", str(gif), "--size", "320x240",
                           "--tween", "2")
    assert code == 0 and "frames" in out
    with Image.open(gif) as movie:
        assert movie.size == (320, 240) and movie.n_frames >= 10
        movie.seek(0)
        first = np.asarray(movie.convert("RGB")).astype(int)
        movie.seek(movie.n_frames - 1)
        last = np.asarray(movie.convert("RGB")).astype(int)
    assert np.abs(first - last).max(axis=2).mean() > 1


def test_solve_draws_its_solution_as_a_gif(tmp_path, capsys):
    gif = tmp_path / "s.gif"
    code, out, _ = run_cli(capsys, "solve", "maps/puzzles/first-steps.keke", "--save",
                           str(tmp_path / "s.json"), "--gif", str(gif), "--workers", "1")
    assert code == 0 and f"gif={gif}" in out
    with Image.open(gif) as movie:
        assert movie.n_frames > 5  # the start, then frames through each of the five steps


@pytest.mark.parametrize("args, words", [
    (["maps/outpost.png", "-o", "x.gif"], "takes a replay or save"),
    (["REPLAY", "-o", "x.gif", "--fps", "0"], "--fps 0"),
])
def test_bad_animation_requests_are_one_sentence(tmp_path, capsys, args, words):
    replay = tmp_path / "r.json"
    assert run_cli(capsys, "match", "maps/outpost.png", "--seed", "1", "--replay",
                   str(replay))[0] == 0
    args = [str(replay) if a == "REPLAY" else str(tmp_path / a) if a == "x.gif" else a
            for a in args]
    code, _, err = run_cli(capsys, "render", *args)
    assert code == 2 and words in err and "Traceback" not in err


def test_mp4_without_ffmpeg_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # as on a machine without it
    replay = tmp_path / "r.json"
    assert run_cli(capsys, "match", "maps/outpost.png", "--seed", "1", "--replay",
                   str(replay))[0] == 0
    code, _, err = run_cli(capsys, "render", str(replay), "-o", str(tmp_path / "x.mp4"))
    assert code == 2 and "imageio-ffmpeg" in err


def test_an_attack_lunges_with_its_attack_frame_flashes_the_target_and_floats_the_damage(
        window, tmp_path):
    from game.commands import Attack

    engine = load_engine(draw_map(tmp_path / "duel.png", ["Dd....", "......", "Q....q"]))
    screen = Screen(engine, *window.get_size())
    frame_image(window, screen)
    red, blue = engine.world.at(0, 0)[0], engine.world.at(1, 0)[0]
    idle = screen.view.sprite_of[red][0].image
    assert engine.submit(next(c for c in engine.legal_actions() if isinstance(c, Attack)))
    screen.invalidate()
    length = screen.play(engine.history[-1].events, clock=0.0)
    screen.pose(0.1)
    attacker, target = screen.view.sprite_of[red][0], screen.view.sprite_of[blue][0]
    assert attacker.image is not idle and attacker.x > screen.layout.cell_rect(0, 0)[0]
    assert target.color[1] < 200  # tinted red
    assert any(getattr(d, "text", "") == "-5" for d in screen.view.ghosts.get(-1, []))
    screen.pose(length)
    assert attacker.image is idle and attacker.x == screen.layout.cell_rect(0, 0)[0]
    assert target.color[:3] == (255, 255, 255)
    assert not screen.view.ghosts  # the floating number is gone


def test_undo_slides_the_piece_back_and_redo_slides_it_forward_again(window, tiny, tmp_path):
    app = app_for(window, tiny, tmp_path, animate=True, blue="human")
    try:
        draw(app)
        hero = tiny.world.at(0, 0)[0]
        app.controller.submit(Move(hero, 3, 0))
        draw(app)
        assert app.screen.animating
        app.screen.skip()
        app.controller.key("U")
        assert tiny.world.get(hero, Position) == Position(0, 0)  # undone at once
        draw(app)
        assert app.screen.animating  # ... and shown sliding back
        sprite = app.screen.view.sprite_of[hero][0]
        assert sprite.x > app.screen.layout.cell_rect(0, 0)[0]  # still on its way home
        app.screen.skip()
        assert sprite.x == app.screen.layout.cell_rect(0, 0)[0]
        app.controller.key("Y")
        draw(app)
        assert app.screen.animating and tiny.world.get(hero, Position) == Position(3, 0)
    finally:
        window.pop_handlers()


class FakeClock:
    """time.perf_counter for the screen, moved by hand."""

    def __init__(self) -> None:
        self.now = 10.0

    def __call__(self) -> float:
        return self.now


def test_a_hover_or_a_clock_tick_mid_animation_lets_the_slide_run_on(window, tiny, monkeypatch):
    from game.render import screen as screen_module
    from game.render.uiview import UiView

    clock = FakeClock()
    monkeypatch.setattr(screen_module.time, "perf_counter", clock)
    screen = Screen(tiny, *window.get_size())
    start = red_columns(to_array(frame_image(window, screen)), screen)
    hero = tiny.world.at(0, 0)[0]
    assert tiny.submit(Move(hero, 3, 0))
    screen.invalidate()
    screen.play(tiny.history[-1].events)
    frame_image(window, screen)  # the slide starts
    clock.now += 0.1  # the slide takes 0.22 s
    screen.invalidate()  # what a hover or the level clock does: same world, new panel
    screen.show(UiView(tooltip=("duelist #1 (red): hp 11/11",)))
    middle = red_columns(to_array(frame_image(window, screen)), screen)
    assert screen.animating
    step = screen.layout.cell
    assert start + step * 0.5 < middle < start + step * 2.5  # still on its way
    clock.now += 5
    end = red_columns(to_array(frame_image(window, screen)), screen)
    assert end - start == pytest.approx(3 * step, abs=2)
    assert not screen.animating
