"""The descent view: blocks drawn from the sprite sheet's cube, and moves animated from the
engine's events: the ball and pushed blocks slide across, then drop to where they land."""

from __future__ import annotations

import pytest

from components import Height
from game.commands import Step
from game.render.screen import Screen
from game.render.views.descent import (
    CLIMB,
    DROP,
    SLIDE,
    DescentView,
    place_at,
    travel_time,
)
from tests.helpers import descent_board

pytestmark = pytest.mark.integration


def screen_y(screen: Screen, entity: int) -> float:
    return min(d.y for d in screen.view.drawn[entity])


def screen_x(screen: Screen, entity: int) -> float:
    return min(d.x for d in screen.view.drawn[entity])


def test_blocks_are_cube_sprites_tinted_by_level(window):
    engine = descent_board(["3 0 0", "0 0 0", "0 0 0"])
    screen = Screen(engine, *window.get_size())
    screen.draw()
    view = screen.view
    assert isinstance(view, DescentView)
    cubes = [d for entity, ds in view.drawn.items() if entity != engine.world.resource("ball")
             for d in ds]
    assert len(cubes) == 3 and all(hasattr(d, "image") for d in cubes)  # sprites, not faces
    assert len({tuple(d.color[:3]) for d in cubes}) == 3  # a colour per level


def test_the_ball_stepping_off_a_column_slides_then_drops(window):
    engine = descent_board(["3 0 0", "0 0 0", "0 0 0"])
    ball = engine.world.resource("ball")
    screen = Screen(engine, *window.get_size())
    screen.draw()
    top_y, top_x = screen_y(screen, ball), screen_x(screen, ball)
    assert engine.submit(Step("r"))
    assert engine.world.get(ball, Height).z == 0
    screen.invalidate()
    length = screen.play(engine.history[-1].events, clock=0.0)
    assert length == pytest.approx(SLIDE + DROP * 3 ** 0.5)
    screen.pose(0.0)
    assert screen_y(screen, ball) == pytest.approx(top_y)  # starts where it was
    screen.pose(SLIDE)  # across, not yet fallen
    across_y, across_x = screen_y(screen, ball), screen_x(screen, ball)
    assert across_x > top_x + screen.view.proj.edge * 0.9
    assert across_y == pytest.approx(top_y)
    screen.pose(SLIDE + DROP)  # falling: between the heights
    falling_y = screen_y(screen, ball)
    screen.pose(length)
    end_y = screen_y(screen, ball)
    assert end_y < falling_y < across_y
    assert top_y - end_y == pytest.approx(3 * screen.view.proj.edge * 0.625, abs=1)
    assert not screen.view.tracks  # the animation is over


def test_a_pushed_block_drops_to_where_it_lands_and_undo_lifts_it_back(window):
    engine = descent_board(["1 2 0", "0 0 0", "0 0 0"])
    screen = Screen(engine, *window.get_size())
    screen.draw()
    block = next(e for e in engine.world.at(1, 0) if engine.world.get(e, Height).z == 1)
    up = screen_y(screen, block)
    assert engine.submit(Step("r"))
    assert engine.world.get(block, Height).z == 0
    events = engine.history[-1].events
    screen.invalidate()
    length = screen.play(events, clock=0.0)
    screen.pose(SLIDE * 0.99)
    assert screen_y(screen, block) == pytest.approx(up, abs=1)  # still at its old level
    screen.pose(length)
    down = screen_y(screen, block)
    assert down < up - screen.view.proj.edge * 0.5
    from game.render.app import backward

    engine.undo()
    screen.invalidate()
    back = screen.play(backward(events), clock=0.0)
    assert back == pytest.approx(CLIMB + SLIDE)  # the undo climbs, then slides back
    screen.pose(0.0)
    assert screen_y(screen, block) == pytest.approx(down, abs=1)
    screen.pose(back)
    assert screen_y(screen, block) == pytest.approx(up, abs=1)


@pytest.mark.parametrize("old, new, t, expected", [
    ((0, 0, 2), (1, 0, 2), SLIDE / 2, (0.5, 0, 2)),  # level: a slide
    ((0, 0, 2), (1, 0, 0), SLIDE / 2, (0.5, 0, 2)),  # a slide first ...
    ((0, 0, 2), (1, 0, 0), SLIDE + DROP * 2 ** 0.5, (1, 0, 0)),  # ... then the drop
    ((0, 0, 0), (1, 0, 1), CLIMB / 2, (0, 0, 0.5)),  # a climb first
    ((0, 0, 0), (1, 0, 1), CLIMB + SLIDE / 2, (0.5, 0, 1)),  # ... then across
])
def test_pieces_climb_slide_then_drop(old, new, t, expected):
    assert place_at(old, new, t) == pytest.approx(expected)
    assert place_at(old, new, travel_time(old, new) + 1) == pytest.approx(new)


def test_without_the_sheet_blocks_are_drawn_as_faces_and_still_drop(window, tmp_path,
                                                                   monkeypatch, capsys):
    from game.render import sprites

    monkeypatch.setenv(sprites.SPRITES_ENV, str(tmp_path))  # no index.yaml there
    engine = descent_board(["3 0 0", "0 0 0", "0 0 0"])
    ball = engine.world.resource("ball")
    screen = Screen(engine, *window.get_size())
    screen.draw()
    assert "plain shapes" in capsys.readouterr().err
    cubes = [d for e, ds in screen.view.drawn.items() if e != ball for d in ds]
    assert cubes and not any(hasattr(d, "image") for d in cubes)  # polygons and edges
    top_y = screen_y(screen, ball)
    assert engine.submit(Step("r"))
    screen.invalidate()
    length = screen.play(engine.history[-1].events, clock=0.0)
    screen.pose(SLIDE)
    assert screen_y(screen, ball) == pytest.approx(top_y)
    screen.pose(length)
    assert screen_y(screen, ball) < top_y - screen.view.proj.edge


def test_a_step_redraws_only_the_pieces_it_moved(window):
    engine = descent_board(["1 2 0", "0 1 0", "0 0 1"])
    screen = Screen(engine, *window.get_size())
    screen.draw()
    view = screen.view
    before = {e: list(ds) for e, ds in view.drawn.items()}
    floor = list(view.floor)
    ball = engine.world.resource("ball")
    where = {e: (min(d.x for d in ds), min(d.y for d in ds)) for e, ds in view.drawn.items()}
    pushed = next(e for e in engine.world.at(1, 0) if engine.world.get(e, Height).z == 1)
    assert engine.submit(Step("r"))
    screen.invalidate()
    screen.draw()
    redrawn = {e for e, ds in view.drawn.items() if ds != before[e]}
    assert redrawn == {ball, pushed}
    assert view.floor == floor
    engine.undo()
    screen.invalidate()
    screen.draw()
    assert view.placed[pushed] == (1, 0, 1) and view.placed[ball][:2] == (0, 0)
    after = {e: (min(d.x for d in ds), min(d.y for d in ds)) for e, ds in view.drawn.items()}
    assert after == pytest.approx(where)  # every piece back where it was first drawn


def test_a_hover_mid_fall_lets_the_fall_run_on(window, monkeypatch):
    from game.render import screen as screen_module
    from game.render.uiview import UiView

    now = [10.0]
    monkeypatch.setattr(screen_module.time, "perf_counter", lambda: now[0])
    engine = descent_board(["3 0 0", "0 0 0", "0 0 0"])
    ball = engine.world.resource("ball")
    screen = Screen(engine, *window.get_size())
    screen.draw()
    top_y = screen_y(screen, ball)
    assert engine.submit(Step("r"))
    screen.invalidate()
    screen.play(engine.history[-1].events)
    screen.draw()
    now[0] += SLIDE + DROP
    screen.invalidate()
    screen.show(UiView(tooltip=("column 1,0: 0 blocks high",)))
    screen.draw()
    assert screen.animating
    falling = screen_y(screen, ball)
    now[0] += 5
    screen.draw()
    assert screen_y(screen, ball) < falling < top_y
    assert not screen.animating
