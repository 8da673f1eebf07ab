"""The title menu in the window: the MenuController's pages drawn, keys and clicks sent to it,
and what it launches (a match, a level, a save, the editor) played in the same window.

A launched game gets the window through a `Borrowed` window whose `close()` hands it back to
the menu instead of closing it, so the play and editor apps run unchanged; the menu's own
handlers sit under theirs and show again when they are popped.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyglet
from pyglet import shapes
from pyglet.graphics import Batch, Group

from game.errors import UserError
from game.menu.controller import MenuController
from game.menu.model import Launch, MenuView
from game.render import colors
from game.session.settings import Settings

BACK, ROWS, TEXT, THUMB_FLOOR = Group(order=0), Group(order=1), Group(order=2), Group(order=-1)
ROW_HEIGHT = 34
LEFT = 40
LIST_WIDTH = 470
STAR = (255, 214, 64)
STAR_EMPTY = (90, 92, 104)


class MenuScreen:
    """Draws one MenuView: the title, the rows (stars on the right), a thumbnail of the map
    the chosen row names (drawn by the board views, as in a game), the words about it."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.batch = Batch()
        self.keep: list[Any] = []
        self.labels: dict[tuple[Any, ...], Any] = {}
        self._old_labels: dict[tuple[Any, ...], Any] = {}
        self.shown: MenuView | None = None
        self.thumb: Thumbnail | None = None

    def resize(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.shown = None
        self.thumb = None
        for label in self.labels.values():
            label.delete()
        self.labels = {}

    def first_row(self, view: MenuView) -> int:
        """The first row shown: a page longer than the window scrolls to keep the cursor in
        the middle."""
        room = max(1, (self.height - 130 - 80) // ROW_HEIGHT)
        if len(view.rows) <= room:
            return 0
        return max(0, min(view.cursor - room // 2, len(view.rows) - room))

    def shown_rows(self, view: MenuView) -> range:
        room = max(1, (self.height - 130 - 80) // ROW_HEIGHT)
        first = self.first_row(view)
        return range(first, min(len(view.rows), first + room))

    def row_top(self, index: int) -> int:
        first = self.first_row(self.shown) if self.shown is not None else 0
        return self.height - 130 - (index - first) * ROW_HEIGHT

    def row_at(self, px: float, py: float) -> int | None:
        """The row under screen point (px, py), or None."""
        if self.shown is None or not LEFT - 10 <= px <= LEFT + LIST_WIDTH:
            return None
        for index in self.shown_rows(self.shown):
            top = self.row_top(index)
            if top - ROW_HEIGHT < py <= top:
                return index
        return None

    def draw(self, view: MenuView, window: Any) -> None:
        if view != self.shown:
            self.shown = view
            self._build(view)
        self.batch.draw()
        if self.thumb is not None:
            self.thumb.draw(window)

    # -- building -------------------------------------------------------------------------

    def _build(self, view: MenuView) -> None:
        """Shapes are made afresh; a label whose text, place and look stay is kept (making
        one costs far more than a key press should)."""
        for drawable in self.keep:
            drawable.delete()
        self.keep = []
        self._old_labels, self.labels = self.labels, {}
        self._label("Rulefront", LEFT, self.height - 30, 30, colors.TEXT, bold=True)
        self._label(view.title if view.title != "Rulefront" else "turn-based tactics, rules "
                    "made of words", LEFT, self.height - 78, 15, colors.DIM)
        for index in self.shown_rows(view):
            self._row(index, view.rows[index], index == view.cursor)
        right = LEFT + LIST_WIDTH + 40
        width = self.width - right - 30
        chosen = view.rows[view.cursor] if view.rows else None
        preview = chosen.preview if chosen is not None else None
        y = self.height - 130
        if preview is not None and width > 80:
            height = min(width, self.height - 300)
            if self.thumb is None or self.thumb.key != (preview, right, y - height, width,
                                                        height):
                self.thumb = Thumbnail(preview, right, y - height, width, height)
            self._box(right - 3, y - height - 3, width + 6, height + 6, colors.PANEL)
            y -= height + 16
        else:
            self.thumb = None
        for line in view.about:
            y = self._wrapped(line, right, y, 12, colors.TEXT, width)
        if view.text:
            y = self.height - 130
            for line in view.text:
                self._label(line, LEFT, y, 12, colors.TEXT)
                y -= 24
        if view.message:
            self._label(view.message, LEFT, 58, 12, (255, 200, 120))
        self._label(view.footer, LEFT, 30, 11, colors.DIM)
        for label in self._old_labels.values():
            label.delete()
        self._old_labels = {}

    def _row(self, index: int, row: Any, chosen: bool) -> None:
        top = self.row_top(index)
        if chosen:
            self._box(LEFT - 10, top - ROW_HEIGHT + 3, LIST_WIDTH + 10, ROW_HEIGHT - 4,
                      (60, 64, 82))
            self._box(LEFT - 10, top - ROW_HEIGHT + 3, 4, ROW_HEIGHT - 4, colors.SELECT)
        color = colors.SELECT if chosen else colors.TEXT
        self._label(row.label, LEFT, top - 8, 14, color, bold=chosen)
        right = LEFT + LIST_WIDTH - 10
        if row.stars is not None:
            for i in range(3):
                self.keep.append(shapes.Star(right - 14 - 24 * (2 - i), top - ROW_HEIGHT // 2,
                                             10, 4.5, 5, rotation=0,
                                             color=STAR if i < row.stars else STAR_EMPTY,
                                             batch=self.batch, group=TEXT))
            right -= 84
        if row.detail:
            self._label(row.detail, right, top - ROW_HEIGHT // 2, 12, colors.DIM,
                        anchor=("right", "center"))

    def _box(self, x: int, y: int, w: int, h: int, color: tuple[int, int, int]) -> None:
        self.keep.append(shapes.Rectangle(x, y, w, h, color=color, batch=self.batch,
                                          group=ROWS))

    def _label(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
               bold: bool = False, anchor: tuple[Any, Any] = ("left", "top")) -> None:
        key = (text, x, y, size, color, bold, anchor)
        label = self._old_labels.pop(key, None)
        if label is None:
            label = pyglet.text.Label(text, font_size=size, x=x, y=y, anchor_x=anchor[0],
                                      anchor_y=anchor[1], weight="bold" if bold else "normal",
                                      color=(*color, 255), batch=self.batch, group=TEXT)
        self.labels[key] = label

    def _wrapped(self, text: str, x: int, y: int, size: int, color: tuple[int, int, int],
                 width: int) -> int:
        import textwrap

        for line in textwrap.wrap(text, max(20, int(width / (size * 0.72)))) or [""]:
            self._label(line, x, y, size, color)
            y -= int(size * 1.8)
        return y


class Thumbnail:
    """A map drawn small by its ruleset's board view, as the game draws it, at a place on the
    screen (the view draws at the origin; the window's view matrix moves it)."""

    def __init__(self, path: Path, x: int, y: int, width: int, height: int) -> None:
        from game.levels.loader import load_engine
        from game.render.layout import PANEL_WIDTH, Layout
        from game.render.uiview import UiView
        from game.render.views import view_for
        from game.render.views.base import board_size

        self.key = (path, x, y, width, height)
        self.x, self.y = x, y
        self.batch = Batch()
        self.keep: list[Any] = []
        try:
            engine = load_engine(path)
        except UserError:
            self.view = None
            return
        cols, rows = board_size(engine.world)
        layout = Layout(width + PANEL_WIDTH, height, cols, rows)  # the board fills `width`
        self.view = view_for(engine.ruleset.name)(engine.world, layout)
        self.view.sync(self.batch, UiView())
        self.view.pose(float("inf"))
        for left, bottom, w, h, color in self.view.backdrop():
            self.keep.append(shapes.Rectangle(left, bottom, w, h, color=color,
                                              batch=self.batch, group=THUMB_FLOOR))

    def draw(self, window: Any) -> None:
        if self.view is None:
            return
        from pyglet.math import Mat4, Vec3

        before = window.view
        window.view = Mat4.from_translation(Vec3(self.x, self.y, 0)) @ before
        try:
            self.batch.draw()
        finally:
            window.view = before


class Borrowed:
    """The window, lent to a game's app: everything passes through, but `close()` gives it
    back to the menu (the game's Q) instead of closing it."""

    def __init__(self, window: Any, give_back: Any) -> None:
        self._window = window
        self._give_back = give_back

    def __getattr__(self, name: str) -> Any:
        return getattr(self._window, name)

    def close(self) -> None:
        self._give_back()


class MenuApp:
    """The menu's window handlers, and the game or editor it lends the window to."""

    def __init__(self, window: Any, menu: MenuController, settings: Settings,
                 animate: bool = True, fps: int = 30) -> None:
        self.window = window
        self.menu = menu
        self.settings = settings
        self.animate = animate
        self.fps = fps
        self.screen = MenuScreen(window.width, window.height)
        self.playing: tuple[Any, Launch] | None = None  # (the game's app, what launched it)
        window.push_handlers(on_draw=self.on_draw, on_key_press=self.on_key_press,
                             on_text=self.on_text, on_mouse_press=self.on_mouse_press,
                             on_mouse_motion=self.on_mouse_motion, on_resize=self.on_resize,
                             on_close=self.on_close)

    # -- the menu's events ----------------------------------------------------------------

    # A game's handlers sit above these; pyglet still passes on what they do not mark handled
    # (draws, clicks), so each of these stands aside while a game has the window.

    def on_draw(self) -> None:
        if self.playing is not None:
            return
        from pyglet import gl

        r, g, b = colors.BACKGROUND
        gl.glClearColor(r / 255, g / 255, b / 255, 1.0)
        self.window.clear()
        gl.glClearColor(0.0, 0.0, 0.0, 1.0)
        self.screen.draw(self.menu.view(), self.window)

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        if self.playing is not None:
            return False
        if symbol == key.V and modifiers & (key.MOD_CTRL | key.MOD_COMMAND):
            self.menu.text(self._clipboard())  # Join: paste the host's line
        else:
            self.menu.key(key.symbol_string(symbol))
        self._after_input()
        return True  # Escape goes back a page; it must not close the window

    def _clipboard(self) -> str:
        try:
            return str(self.window.get_clipboard_text() or "")
        except Exception:  # no clipboard owner, or a platform without one: nothing pasted
            return ""

    def on_text(self, text: str) -> None:
        """Typed text, with its case (Join's address, game and token)."""
        if self.playing is not None:
            return
        self.menu.text(text)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        if self.playing is not None:
            return
        self.menu.click(self.screen.row_at(x, y))
        self._after_input()

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        if self.playing is None:
            self.menu.point(self.screen.row_at(x, y))

    def on_resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)

    def on_close(self) -> None:
        """The window closed during a game (the game's own handler saved it first): a
        challenge won is still scored."""
        if self.playing is not None:
            app, launch = self.playing
            engine = getattr(getattr(app, "controller", None), "engine", None)
            if engine is not None:
                self.menu.returned(engine, launch)

    def _after_input(self) -> None:
        if self.menu.quit:
            self.window.close()
            return
        launch = self.menu.take_launch()
        if launch is not None:
            try:
                self.open(launch)
            except UserError as exc:
                self.menu.message = str(exc)
                self.menu.changed()
            self.settings = self.menu.settings

    # -- what the menu launches -----------------------------------------------------------

    def open(self, launch: Launch) -> None:
        """Play `launch` in this window until its Q hands the window back."""
        from game.render.app import App, window_sounds

        self.settings = self.menu.settings
        colors.use_palette(self.settings.palette)
        from game.render.sprites import sprite_book

        book = sprite_book()
        if book is not None:
            book.recolour()
        borrowed = Borrowed(self.window, self.give_back)
        if launch.kind == "edit":
            self.playing = (self._editor(borrowed, launch), launch)
            return
        controller, interval = self._controller(launch)
        animate = self.animate and self.settings.animate
        app = App(borrowed, controller, animate, self.settings, window_sounds(self.settings))
        pyglet.clock.schedule_interval(app.tick, interval)
        self.playing = (app, launch)
        self.window.set_caption(f"Rulefront - {launch.path.stem}")

    def _controller(self, launch: Launch) -> tuple[Any, float]:
        from game import registry
        from game.levels.loader import load_engine
        from game.render.controllers.level import LevelController
        from game.render.controllers.match import Controller
        from game.session.match import make_seats

        seed = self.menu.seed if launch.seed is None else launch.seed
        if launch.kind == "online":
            from game.net.link import take_seat
            from game.render.controllers.online import OnlineController

            assert launch.url and launch.game and launch.token
            seated = take_seat(launch.url, launch.game, launch.token, launch.seat)
            return OnlineController(seated.mirror, seated.seats, seated.seed), 1.0 / self.fps
        if launch.kind == "level":
            engine = load_engine(launch.path, seed=seed)
            return LevelController(engine, launch.path, None, seed,
                                   player=self.settings.player), 0.25
        log = None
        if launch.kind == "resume":
            from game.session.replay import read_record, rebuild
            from game.session.saves import resumed_seats, told_of

            record = read_record(launch.path)
            engine = rebuild(record, launch.path)
            seats = resumed_seats(engine, record, launch.path)
            seed = record.seed
            log = told_of(record)  # the log as it was told
        else:
            engine = load_engine(launch.path, seed=seed)
            seats = make_seats(engine, launch.specs, seed)
        target = registry.spec(engine.ruleset.name).controller
        controller_class = registry.load_object(target) if target else Controller
        return controller_class(engine, seats, seed, self.menu.save_path, log=log), \
            1.0 / self.fps

    def _editor(self, borrowed: Borrowed, launch: Launch) -> Any:
        from game.levels.maps import GameMap
        from game.render.controllers.editor import EditorController, load_draft, new_draft
        from game.render.editor_window import EditorApp

        if launch.new_size:
            draft = new_draft(launch.new_size, GameMap.default_ruleset)
        else:
            draft = load_draft(launch.path)
        return EditorApp(borrowed, EditorController(draft, launch.path), self.settings)

    def give_back(self) -> None:
        """The game's Q: its handlers go, the menu shows again (scheduled: this runs inside
        the game's own key handler)."""
        pyglet.clock.schedule_once(self._give_back, 0)

    def _give_back(self, _dt: float = 0.0) -> None:
        if self.playing is None:
            return
        app, launch = self.playing
        self.playing = None
        tick = getattr(app, "tick", None)
        if tick is not None:
            pyglet.clock.unschedule(tick)
        self.window.pop_handlers()
        self.window.set_caption("Rulefront")
        controller = getattr(app, "controller", None)
        close = getattr(controller, "close", None)
        if callable(close):
            close()  # an AI's think in progress stops with its game
        # The editor has no engine, but its page must still list the map it saved.
        self.menu.returned(getattr(controller, "engine", None), launch)
        self.screen.resize(self.window.width, self.window.height)


def run_menu_in(window: Any, seed: int, settings: Settings, fps: int = 30,
                quit_after: float | None = None, animate: bool = True) -> int:
    """The title menu, and whatever it starts, in `window` until it is closed (the window
    is opened first by game/render/menu_start.py: without a display, importing
    this module would already fail)."""
    from game.menu.pages import new_menu

    menu = new_menu(seed, settings)
    app = MenuApp(window, menu, settings, animate, fps)
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: window.close(), quit_after)
    pyglet.app.run(1.0 / fps)
    if app.playing is not None:
        controller = getattr(app.playing[0], "controller", None)
        if controller is not None and hasattr(controller, "save"):
            controller.save()
        close = getattr(controller, "close", None)
        if callable(close):
            close()  # not waited for: an AI's think in progress is stopped
    return 0
