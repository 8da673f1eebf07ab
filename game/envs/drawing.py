"""The render modes every environment offers: "human" (the game's own window, drawn on each
step), "ansi" (the text board) and "rgb_array" (the offscreen renderer, one hidden window kept
per environment)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from game.engine import Engine

RENDER_MODES = ["human", "ansi", "rgb_array"]
CELL = 24  # pixels per cell of an rgb_array frame
LARGEST = 768  # the board's longest side at most, in pixels
PANEL = 300  # room for the screen's side panel


class Drawing:
    """Draws one environment's engine in the mode it was made with."""

    def __init__(self, mode: str | None) -> None:
        if mode is not None and mode not in RENDER_MODES:
            raise ValueError(f"render_mode {mode!r} is not one of {RENDER_MODES}")
        self.mode = mode
        self._window: Any = None
        self._screen: Any = None
        self._engine: Engine | None = None

    # a copy or a pickle draws in a window of its own, opened when it first renders
    def __getstate__(self) -> dict[str, Any]:
        return {"mode": self.mode}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["mode"])  # type: ignore[misc]

    def render(self, engine: Engine) -> Any:
        if self.mode == "ansi":
            lines = [engine.ruleset.describe(engine.world), engine.ruleset.text_board(engine.world),
                     *engine.ruleset.status_lines(engine.world)]
            return "\n".join(lines) + "\n"
        if self.mode == "rgb_array":
            return self._frame(engine)
        if self.mode == "human":
            self._show(engine)
        return None

    def _size(self, engine: Engine) -> tuple[int, int]:
        assert engine.map is not None
        scale = min(CELL, LARGEST // max(engine.map.width, engine.map.height, 1))
        # the screen keeps a side panel (rules, events) beside the board
        return max(engine.map.width * scale + PANEL, 640), max(engine.map.height * scale, 480)

    def _show(self, engine: Engine) -> None:
        """Draw the position in the game's window (opened on the first call) and show it."""
        if self._window is None:
            from game.render.app import open_window

            self._window = open_window(*self._size(engine), caption=engine.ruleset.describe(
                engine.world))
        window = self._window
        window.switch_to()
        window.dispatch_events()
        self._screen_for(engine)
        window.set_caption(engine.ruleset.describe(engine.world))
        window.clear()
        self._screen.draw()
        window.flip()

    def _screen_for(self, engine: Engine) -> None:
        if self._engine is not engine:
            from game.render.screen import Screen
            from game.render.uiview import UiView

            self._screen = Screen(engine, self._window.width, self._window.height)
            self._screen.show(UiView())
            self._engine = engine
        else:
            self._screen.invalidate()

    def _frame(self, engine: Engine) -> Any:
        from game.render.offscreen import frame_image, hidden_window

        if self._window is None:
            self._window = hidden_window(*self._size(engine))
        self._screen_for(engine)
        image = frame_image(self._window, self._screen)
        # Read RGBA, the buffer's own format: asking pyglet for RGB converts pixel by pixel
        # in Python (~2.8 s a frame at 640x576).
        raw = image.get_data("RGBA", image.width * 4)
        pixels = np.frombuffer(raw, dtype=np.uint8).reshape(image.height, image.width, 4)
        return pixels[::-1, :, :3].copy()  # GL reads bottom-up

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
        self._window = self._screen = self._engine = None
