"""Animated pictures of a whole game, drawn offscreen: `rulefront render REPLAY -o game.gif`.

The engine is wound back to its start (undo, exact), then each command is applied again
through `submit`; the screen animates the command's events (slides, lunges, damage, deaths) and
`tween` frames are taken through that animation, so the picture moves as the window would.
The board gets most of the frame: its cells as big as the frame's height allows, the side
panel (status, rules, the last events) only what is left, never under 160 pixels.
GIFs are written by Pillow on one shared palette (taken from the first frame and the sprite
sheets' colours); `.mp4` needs imageio's ffmpeg plug-in (`pip install imageio-ffmpeg`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from game.render.layout import movie_panel
from game.render.offscreen import hidden_window

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine

FORMATS = (".gif", ".mp4")
HOLD_S = 2.0  # the last frame stays this long, so the end can be read


@dataclass(frozen=True)
class Movie:
    path: Path
    frames: int
    width: int
    height: int
    seconds: float


def wind_back(engine: Engine) -> list[Command]:
    """Undo every command of `engine` (to the map's start); returns them in playing order."""
    engine.redo_stack.clear()
    commands = []
    while engine.history:
        command = engine.retract()
        assert command is not None
        commands.append(command)
    return commands[::-1]


def frames_of(engine: Engine, commands: Sequence[Command], width: int, height: int,
              tween: int) -> Iterator[Any]:
    """PIL RGB frames: the start, then `tween` frames through each command's animation (one
    when nothing moves)."""
    from PIL import Image

    from game.engine import Impossible
    from game.render.offscreen import frame_image

    window = hidden_window(width, height)  # before the screen pulls in pyglet.gl
    from game.render.screen import Screen
    from game.render.views.base import board_size

    def grab() -> Any:
        image = frame_image(window, screen)
        # RGBA is the buffer's own layout: asking pyglet for RGB converts by regex, ~1 s a frame.
        raw = image.get_data("RGBA", image.width * 4)
        return Image.frombytes("RGBA", (image.width, image.height), raw).transpose(
            Image.Transpose.FLIP_TOP_BOTTOM).convert("RGB")

    try:
        cols, rows = board_size(engine.world)
        screen = Screen(engine, width, height, panel=movie_panel(width, height, cols, rows))
        yield grab()
        for index, command in enumerate(commands):
            result = engine.submit(command)
            if isinstance(result, Impossible):
                raise UserError(f"command {index + 1} ({command.to_json()}) is illegal here: "
                                f"{result.reason}")
            screen.invalidate()
            length = screen.play(engine.history[-1].events, clock=0.0)
            steps = max(1, tween) if length > 0 else 1
            for i in range(1, steps + 1):
                screen.pose(length * i / steps)
                yield grab()
    finally:
        window.close()


def write_movie(engine: Engine, commands: Sequence[Command], out: str | Path,
                width: int, height: int, fps: int = 12, tween: int = 3) -> Movie:
    """Play `commands` from `engine`'s current position and save the animation to `out`."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise UserError(f"{out}: an animation is saved as .gif or .mp4, not '{suffix or 'no suffix'}'.")
    if fps < 1 or fps > 50:
        raise UserError(f"--fps {fps} is out of range; use 1 to 50.")
    if suffix == ".mp4":
        return _write_mp4(engine, commands, path, width, height, fps, tween)
    return _write_gif(engine, commands, path, width, height, fps, tween)


def _write_gif(engine: Engine, commands: Sequence[Command], path: Path, width: int,
               height: int, fps: int, tween: int) -> Movie:
    import io

    from PIL import Image

    from game.levels.files import atomic_write

    frames = frames_of(engine, commands, width, height, tween)
    first = next(frames)
    palette = first.quantize(colors=255, method=Image.Quantize.MEDIANCUT)
    shown = [palette]
    for frame in frames:
        shown.append(frame.quantize(palette=palette, dither=Image.Dither.NONE))
    step_ms = round(1000 / fps)
    durations = [step_ms] * len(shown)
    durations[-1] = round(HOLD_S * 1000)
    buffer = io.BytesIO()
    shown[0].save(buffer, format="GIF", save_all=True, append_images=shown[1:],
                  duration=durations, loop=0, disposal=1)
    atomic_write(path, buffer.getvalue())
    return Movie(path, len(shown), width, height, sum(durations) / 1000)


def _write_mp4(engine: Engine, commands: Sequence[Command], path: Path, width: int,
               height: int, fps: int, tween: int) -> Movie:
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg  # noqa: F401  (the plug-in imageio needs for .mp4)
    except ImportError:
        raise UserError(f"{path}: writing .mp4 needs imageio and imageio-ffmpeg (the movie "
                        "extra: pip install -e '.[movie]'); .gif works without it.") from None
    import numpy as np

    count = 0
    with imageio.get_writer(path, fps=fps, macro_block_size=1) as writer:
        for frame in frames_of(engine, commands, width, height, tween):
            writer.append_data(np.asarray(frame))  # type: ignore[attr-defined, unused-ignore]
            count += 1
    return Movie(path, count, width, height, count / fps)
