"""The play window: pyglet events to the controller, the controller's view to the screen.

`run_window` is what `rulefront play` calls. `App` wires one window to one controller and is
what integration tests drive on a hidden headless window.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game import registry
from game.errors import UserError
from game.render import use_headless
from game.render.controllers.match import Controller
from game.render.controllers.replay import ReplayController
from game.render.layout import parse_size
from game.session.match import Seat

if TYPE_CHECKING:
    from collections.abc import Sequence

    from game.engine import Engine
    from game.render.sound import Sounds
    from game.session.narrate import Told
    from game.session.settings import Settings

NO_DISPLAY = "no display could be opened here; play in the terminal with --text."
NO_DISPLAY_EDIT = ("no display could be opened here; paint the PNG in any image editor and "
                   "check it with `rulefront map check`.")


def open_window(width: int, height: int, caption: str, visible: bool = True,
                no_display: str = NO_DISPLAY) -> Any:
    """A resizable pyglet window, or the UserError the CLI prints when there is no display."""
    if os.environ.get("RULEFRONT_HEADLESS"):
        use_headless()  # smoke tests and CI: a real window loop with no X server
    try:
        import pyglet

        return pyglet.window.Window(width, height, caption=caption, resizable=True,
                                    visible=visible)
    except Exception as exc:  # NoSuchDisplayException, missing GL, no EGL device...
        if isinstance(exc, UserError):
            raise
        cause = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:160]
        raise UserError(no_display.replace("here;", f"here ({cause});", 1)) from None


def player_settings() -> Settings:
    """The player's settings file (game/session/settings.py), its palette put in use; a broken
    file is the UserError that stops the command (exit 2)."""
    from game.render import colors
    from game.session.settings import load_settings

    settings = load_settings()
    colors.use_palette(settings.palette)
    return settings


def animation_setting(args: argparse.Namespace | None = None,
                      settings: Settings | None = None) -> bool:
    """Whether the window animates: `--no-anim` or the player's settings say no, else
    data/client.yaml's `animate`."""
    if args is not None and getattr(args, "no_anim", False):
        return False
    if settings is not None and not settings.animate:
        return False
    from game import DATA
    from game.data import load_yaml
    from game.schemas import ClientFile, validate

    path = DATA / "client.yaml"
    if not path.exists():
        return True
    client: ClientFile = validate(load_yaml(path) or {}, ClientFile, path)
    return client.animate


def window_sounds(settings: Settings) -> Sounds:
    """The sound effects a window plays (silent when muted or when there is no device)."""
    from game.render.sound import Sounds

    return Sounds(settings.sound)


def backward(events: list[Any]) -> list[Any]:
    """An undone command's events played in reverse: moves and pushes slide back to where they
    came from, last first, and the rules it formed break and those it broke form again (damage,
    deaths and the rest are simply undone)."""
    from game.events import Moved, Pushed, RuleBroken, RuleFormed

    undone: list[Any] = []
    for e in reversed(events):
        if isinstance(e, Moved | Pushed):
            undone.append(type(e)(e.entity, e.x, e.y, e.x0, e.y0))
        elif isinstance(e, RuleFormed):
            undone.append(RuleBroken(e.rule))
        elif isinstance(e, RuleBroken):
            undone.append(RuleFormed(e.rule))
    return undone


class App:
    """Event handlers of one window; they only read the world and talk to the controller.

    A new command's events animate on the screen; while they do, AI seats wait (the engine
    itself never does: the command is already applied) and a key or click skips to the end."""

    def __init__(self, window: Any, controller: Controller | ReplayController,
                 animate: bool = True, settings: Settings | None = None,
                 sounds: Sounds | None = None) -> None:
        from game.render.screen import Screen

        self.window = window
        self.controller = controller
        self.animate = animate
        self.sounds = sounds  # effects of each new command's events (None: no sound at all)
        self.keymap = settings.translation() if settings is not None else {}
        if settings is not None and isinstance(controller, Controller):
            controller.settings = settings  # its labels show the player's keys
        if settings is not None:
            Screen.speed = settings.speed
        self.screen = self._screen()
        self.seen = (controller.generation, -1)
        self.last_entry: Any = None
        self.undone_from: Any = None  # the entry an undo of the last one would come back to
        window.push_handlers(on_draw=self.on_draw, on_mouse_press=self.on_mouse_press,
                             on_mouse_motion=self.on_mouse_motion,
                             on_mouse_scroll=self.on_mouse_scroll,
                             on_mouse_drag=self.on_mouse_drag,
                             on_key_press=self.on_key_press, on_resize=self.on_resize,
                             on_close=self.on_close)

    def _screen(self) -> Any:
        from game.render.screen import Screen

        ctrl = self.controller
        return Screen(ctrl.engine, self.window.width, self.window.height,
                      chronicle=getattr(ctrl, "chronicle", None))

    def refresh(self) -> None:
        """Bring the screen up to date with the controller (new game, new state, new view)."""
        ctrl = self.controller
        if ctrl.generation != self.seen[0]:
            self.screen = self._screen()
            self.last_entry = self.undone_from = None  # a new game: nothing to animate from
        if (ctrl.generation, ctrl.version) != self.seen:
            self.screen.invalidate()
            self.screen.show(ctrl.view())
            self.seen = (ctrl.generation, ctrl.version)
            history = ctrl.engine.history
            entry = history[-1] if history else None
            before = history[-2] if len(history) > 1 else None
            if self.sounds is not None and entry is not None and entry is not self.last_entry \
                    and before is self.last_entry:
                self.sounds.play(entry.events)
            if self.animate and entry is not None and entry is not self.last_entry \
                    and before is self.last_entry:  # one command applied (or redone) since
                self.screen.play(entry.events)
            elif self.animate and self.last_entry is not None and entry is self.undone_from:
                self.screen.play(backward(self.last_entry.events))  # one command undone
            self.last_entry = entry
            self.undone_from = before

    def on_draw(self) -> None:
        self.refresh()
        self.window.clear()
        self.screen.draw()
        if hasattr(self.controller, "log_scroll_most"):  # so Page Up stops at the oldest row
            self.controller.log_scroll_most = self.screen.log_scroll_most

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        from pyglet.window import mouse

        self.screen.skip()
        if button != mouse.LEFT and hasattr(self.controller, "pan_by"):
            return  # the right and middle buttons drag the board: a press must not move a hero
        pressed = self.screen.button_at(x, y)
        on_button = getattr(self.controller, "button", None)
        if pressed is not None and on_button is not None:
            on_button(pressed)  # a panel button: End turn, a unit ready to act
        else:
            self.controller.click(self.screen.cell_at(x, y))
        self._maybe_close()

    def on_mouse_scroll(self, x: int, y: int, scroll_x: float, scroll_y: float) -> None:
        """The wheel zooms the board around the mouse, or scrolls the log over the panel."""
        ctrl = self.controller
        if self.screen.on_panel(x):
            if hasattr(ctrl, "scroll_log"):
                ctrl.scroll_log(round(3 * scroll_y))
        elif hasattr(ctrl, "zoom_by") and scroll_y:
            ctrl.zoom_by(1.25 if scroll_y > 0 else 0.8, self.screen.layout.board_point(x, y))

    def on_mouse_drag(self, x: int, y: int, dx: int, dy: int, buttons: int,
                      modifiers: int) -> None:
        """Dragging on the board with the right or middle button pans it (while zoomed in);
        the left button's press has already clicked."""
        from pyglet.window import mouse

        ctrl = self.controller
        if hasattr(ctrl, "pan_by") and buttons & (mouse.RIGHT | mouse.MIDDLE) \
                and not self.screen.on_panel(x):
            cell = self.screen.layout.cell
            ctrl.pan_by(-dx / cell, dy / cell)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        hover = getattr(self.controller, "hover", None)
        if hover is not None:  # match and level controllers preview; the replay viewer does not
            hover(self.screen.cell_at(x, y))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        self.screen.skip()
        name = key.symbol_string(symbol)
        name = self.keymap.get(name, name)  # the player's key bindings (Settings)
        if not name:
            return True  # a default key whose action the player moved elsewhere
        if name == "ESCAPE":
            name = "Q"  # Escape quits like Q, saving first (pyglet would just close)
        self.controller.key(name, ctrl=bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND)))
        self._maybe_close()
        return True

    def on_resize(self, width: int, height: int) -> None:
        self.screen.resize(width, height)

    def on_close(self) -> bool | None:
        ask = getattr(self.controller, "ask_to_quit", None)
        if ask is not None and ask():
            return True  # the question is on screen; the window stays open
        self.controller.save()
        return None

    def tick(self, dt: float = 0.0) -> None:
        """One AI command per call when an AI is to play (scheduled at --fps), once the last
        command's animation is over (at once after Space: the rest of the AI's turn). The AI
        thinks in another process, so this only asks and collects: it never blocks."""
        if getattr(self.controller, "rushing", False):
            self.screen.skip()
        if self.screen.animating:
            return
        self.controller.tick()
        self._maybe_close()

    def _maybe_close(self) -> None:
        if self.controller.quit:
            self.window.close()


def run_window(engine: Engine, seats: dict[str, Seat], seed: int, save_path: Path,
               args: argparse.Namespace, log: Sequence[Told] | None = None) -> int:
    """Play in a window until it is closed; autosaves after every command (`log`: a resumed
    save's log)."""
    width, height = parse_size(getattr(args, "size", "1024x768"))
    caption = f"Rulefront - {engine.map.name if engine.map is not None else 'game'}"
    window = open_window(width, height, caption)
    import pyglet

    settings = player_settings()
    target = registry.spec(engine.ruleset.name).controller
    controller_class = registry.load_object(target) if target else Controller
    controller = controller_class(engine, seats, seed, save_path, log=log)
    app = App(window, controller, animation_setting(args, settings), settings,
              window_sounds(settings))
    fps = max(1, int(getattr(args, "fps", 30) or 30))
    pyglet.clock.schedule_interval(app.tick, 1.0 / fps)
    quit_after = getattr(args, "quit_after", None)
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: (app.controller.save(), window.close()),
                                   quit_after)
    try:
        pyglet.app.run(1.0 / fps)
    finally:
        pyglet.clock.unschedule(app.tick)
        controller.close()  # a think in progress is stopped, not waited for
    print(f"saved to {save_path}; continue with --resume {save_path}")
    return 0


def run_level_window(engine: Engine, args: argparse.Namespace) -> int:
    """Play puzzle or descent levels in a window until it is closed (nothing is autosaved)."""
    from game.render.controllers.level import LevelController

    width, height = parse_size(getattr(args, "size", "1024x768"))
    window = open_window(width, height, "Rulefront - levels")
    import pyglet

    settings = player_settings()
    ctrl = LevelController(engine, args.map, args.level, args.seed,
                           player=getattr(args, "player", None))
    app = App(window, ctrl, animation_setting(args, settings), settings, window_sounds(settings))
    pyglet.clock.schedule_interval(app.tick, 0.25)  # the timer on screen, a hint's arrival
    quit_after = getattr(args, "quit_after", None)
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: window.close(), quit_after)
    try:
        pyglet.app.run(1 / 30)
    finally:
        pyglet.clock.unschedule(app.tick)
        ctrl.close()  # a hint being looked for is stopped, not waited for
    print(f"{ctrl.title()}: {ctrl.moves} moves, "
          + ("won" if ctrl.won else "lost" if ctrl.lost else "not finished"))
    return 0


def run_replay_window(engine: Engine, fps: int = 30, size: str = "1024x768",
                      quit_after: float | None = None, animate: bool | None = None) -> int:
    """Watch a rebuilt game from its start: play, pause, step and change speed."""
    width, height = parse_size(size)
    caption = f"Rulefront replay - {engine.map.name if engine.map is not None else 'game'}"
    window = open_window(width, height, caption)
    import pyglet

    settings = player_settings()
    app = App(window, ReplayController(engine, fps),
              animation_setting(None, settings) if animate is None else animate, settings,
              window_sounds(settings))
    pyglet.clock.schedule_interval(app.tick, 1.0 / max(1, fps))
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: window.close(), quit_after)
    pyglet.app.run(1.0 / max(1, fps))
    pyglet.clock.unschedule(app.tick)
    return 0


def run_editor_window(ctrl: Any, size: str = "1024x768",
                      quit_after: float | None = None) -> int:
    """Edit a map in a window until it is closed (S saves; closing does not)."""
    settings = player_settings()  # a broken file stops the command before any window
    width, height = parse_size(size)
    window = open_window(width, height, f"Rulefront editor - {ctrl.path.name}",
                         no_display=NO_DISPLAY_EDIT)
    import pyglet

    from game.render.editor_window import EditorApp

    app = EditorApp(window, ctrl, settings)  # held here: pyglet holds a window's handlers weakly
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: window.close(), quit_after)
    pyglet.app.run(1 / 30)
    window.remove_handlers(app)
    return 0


def run_online_window(mirror: Any, seats: dict[str, Seat], seed: int,
                      args: argparse.Namespace) -> int:
    """Play one seat of a server's game in a window (`rulefront online play`), until the
    window is closed; the server keeps the game, so nothing is saved here."""
    from game.render.controllers.online import OnlineController

    width, height = parse_size(getattr(args, "size", "1024x768"))
    name = mirror.engine.map.name if mirror.engine.map is not None else "game"
    window = open_window(width, height, f"Rulefront online - {name} - {mirror.side}")
    import pyglet

    app = App(window, OnlineController(mirror, seats, seed), animation_setting(args))
    fps = max(1, int(getattr(args, "fps", 30) or 30))
    pyglet.clock.schedule_interval(app.tick, 1.0 / fps)
    quit_after = getattr(args, "quit_after", None)
    if quit_after:
        pyglet.clock.schedule_once(lambda dt: window.close(), quit_after)
    pyglet.app.run(1.0 / fps)
    pyglet.clock.unschedule(app.tick)
    return 0
