"""Pictures without a screen: a hidden window in pyglet's headless (EGL) mode.

`hidden_window` must be called before anything imports pyglet.window; it switches pyglet to
headless mode first, so it works with no X server (Mesa's software GL is enough).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from game.render import use_headless
from game.render.uiview import UiView

if TYPE_CHECKING:
    from game.engine import Engine


def hidden_window(width: int, height: int) -> Any:
    """An invisible pyglet window with an 8-bit RGBA back buffer to draw into and read back."""
    use_headless()
    import pyglet

    try:
        config = pyglet.gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8,  # type: ignore[abstract]
                                  double_buffer=True)
        return pyglet.window.Window(width, height, visible=False, config=config)
    except Exception as exc:  # EGL missing or no usable GL: say so in one line
        raise UserError(f"no offscreen GL context could be made here ({exc}).") from None


def draw_frames(window: Any, screen: Any, frames: int, rebuild: bool) -> None:
    """Draw `frames` frames to the end (glFinish), rebuilding the batch before each when asked:
    what `rulefront bench render` times."""
    from pyglet import gl

    window.switch_to()
    for _ in range(frames):
        if rebuild:
            screen.invalidate()
        window.clear()
        screen.draw()
        gl.glFinish()


def press_and_draw(window: Any, app: Any, name: str) -> None:
    """Key `name` pressed through the window's handler and the next frame drawn to the end
    (glFinish): what `rulefront bench render` times from a key to its redraw."""
    from pyglet import gl
    from pyglet.window import key

    window.switch_to()
    app.on_key_press(getattr(key, name), 0)
    app.on_draw()
    gl.glFinish()


def draw_changing_frames(window: Any, screen: Any, engine: Engine, command: Any,
                         frames: int) -> None:
    """Draw `frames` frames, each after a state change (`command` applied, then undone, in
    turn) so that only what changed is redrawn: `render.rebuild_ms`."""
    from pyglet import gl

    window.switch_to()
    for _ in range(frames):
        if engine.history:
            engine.undo()
        else:
            engine.submit(command)
        screen.invalidate()
        window.clear()
        screen.draw()
        gl.glFinish()


def draw_animated_frames(window: Any, screen: Any, engine: Engine, command: Any,
                         frames: int) -> None:
    """Apply `command` afresh and draw `frames` frames of its animation, evenly spaced:
    `render.anim_frame_ms`."""
    from pyglet import gl

    window.switch_to()
    if engine.history:
        engine.undo()
    engine.submit(command)
    screen.invalidate()
    length = screen.play(engine.history[-1].events, clock=0.0)
    for i in range(frames):
        screen.pose(length * i / frames)
        window.clear()
        screen.draw()
        gl.glFinish()


def frame_image(window: Any, screen: Any) -> Any:
    """Draw one frame of `screen` into `window` and return it as pyglet ImageData."""
    import pyglet

    window.switch_to()
    window.clear()
    screen.draw()
    return pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()


def render_png(engine: Engine, path: str | Path, width: int, height: int,
               ui: UiView | None = None) -> Path:
    """Draw the engine's world once at width x height and save it as a PNG."""
    from game.levels.files import atomic_write

    window = hidden_window(width, height)  # before the screen module pulls in pyglet.gl
    from game.render.screen import Screen

    try:
        screen = Screen(engine, width, height)
        screen.show(ui or UiView())
        image = frame_image(window, screen)
        out = Path(path)
        atomic_write(out, to_png_bytes(image))
        return out
    finally:
        window.close()


def menu_app(window: Any, seed: int = 0) -> Any:
    """The title menu's window app on `window`, with the default settings (pictures and the
    bench, whatever the player's own settings are)."""
    from game.menu.pages import new_menu
    from game.render.menu_window import MenuApp
    from game.session.settings import Settings

    return MenuApp(window, new_menu(seed, Settings()), Settings())


def draw_menu_frames(window: Any, app: Any, frames: int, key: str | None) -> None:
    """Draw `frames` frames of the menu to the end (glFinish), pressing `key` before each
    when given: what `render.menu_frame_ms` and `render.menu_key_ms` time."""
    from pyglet import gl

    window.switch_to()
    for _ in range(frames):
        if key is not None:
            app.menu.key(key)
        app.on_draw()
        gl.glFinish()


def render_menu_png(path: str | Path, width: int, height: int, keys: list[str],
                    seed: int = 0) -> Path:
    """The title menu as the window draws it, after `keys` (window key names), with the
    default settings (a picture for the docs, whatever the player's own are)."""
    from game.levels.files import atomic_write

    window = hidden_window(width, height)
    try:
        app = menu_app(window, seed)
        for key in keys:
            app.menu.key(key)
        window.switch_to()
        app.on_draw()
        import pyglet

        image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        out = Path(path)
        atomic_write(out, to_png_bytes(image))
        return out
    finally:
        window.close()


def to_png_bytes(image: Any) -> bytes:
    """PNG bytes of a pyglet ImageData (rows flipped: GL reads bottom-up)."""
    import io

    from PIL import Image

    raw = image.get_data("RGBA", image.width * 4)
    picture = Image.frombytes("RGBA", (image.width, image.height), raw)
    picture = picture.transpose(Image.Transpose.FLIP_TOP_BOTTOM).convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


def to_array(image: Any) -> Any:
    """The frame as a numpy array (height, width, 3), top row first (for tests)."""
    import numpy as np

    raw = image.get_data("RGBA", image.width * 4)  # the buffer's own layout: no conversion
    array = np.frombuffer(raw, dtype=np.uint8).reshape(image.height, image.width, 4)
    return array[::-1, :, :3].copy()
