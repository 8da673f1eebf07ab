"""The play controller: clicks and keys in, engine commands out (no pyglet, unit-testable).

The window turns pyglet events into `click(cell)` and `key(name, ctrl)` calls and draws
`view()`. Everything the player does goes through `engine.submit`, `undo` or `redo`; the
game is autosaved after every command, with its log (`Chronicle`: each command narrated once,
when played). Keys (see HELP): U or Ctrl+Z undo (back to the last human action, an AI's
replies with it), Y redo (the AI's undone replies are replayed as they were, not thought
again), E or Space end turn (asking first when heroes have not acted), Space while an AI
plays: the rest of its turn at once, R restart and N/P next/previous map of the folder (both
ask first), Ctrl+S save (S too, unless the ruleset steps with WASD), Q quit (autosave), H
help, K or Pause pauses the AI seats, T the enemies' threat, +/- zoom, arrows pan (step, for
rulesets with Step commands), Page Up/Down scroll the log.

An AI seat's command is worked out off the UI thread (game/session/think.py: a child process
on a replica), so keys, help and redraws answer while it thinks; `tick` asks, and applies
the answer through `submit` when it has come.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from components import Kind, Position, Team
from components.match import DRAW
from game.commands import Attack, Command, EndTurn, Move, Step
from game.engine import Engine, Impossible
from game.errors import UserError
from game.levels.loader import load_engine
from game.render.controllers.preview import Preview, preview, ready_line
from game.render.panels import name_of
from game.render.uiview import Button, Cell, UiView
from game.session.challenge import goal_of
from game.session.match import Seat, current_round, make_seats
from game.session.narrate import Chronicle, Told
from game.session.saves import save_game
from game.session.seat import Forfeited, close_seats
from game.session.settings import Settings
from game.session.think import Thinker, Worker
from game.session.threat import (
    NO_THREAT,
    Threat,
    enemies_of,
    has_threats,
    ready_units,
    threats,
    untouched,
)
from game.session.undo import redo_turn, undo_turn
from systems.ai import Budget

HELP = (
    "Keys",
    "click a hero: select; blue cell: move; red cell: attack",
    "{undo} / Ctrl+Z undo    {redo} redo    {end_turn} / Space end turn",
    "Space while the AI plays: the rest of its turn at once",
    "{restart} restart    N / P next / previous map (each asks first)",
    "Ctrl+{save} save    {quit} quit (saves)    {help} this help",
    "{pause} / Pause: pause the AI    arrows / WASD: step",
    "T enemies' threat (or hover one)    + / - / wheel zoom",
    "arrows / right-drag pan    Page Up / Down or wheel on the log",
)
CONFIRM = {
    "restart": ("Restart this map?", "this game's moves are lost (no undo)",
                "{restart} / Y / Enter: restart    any other key: keep playing"),
    "next": ("Go on to the next map?", "this game's moves are lost (no undo)",
             "N / Y / Enter: next map    any other key: keep playing"),
    "previous": ("Go back to the previous map?", "this game's moves are lost (no undo)",
                 "P / Y / Enter: previous map    any other key: keep playing"),
    "quit": ("Quit this level?", "its moves are not saved",
             "{quit} / Y / Enter: quit    any other key: keep playing"),
}
STEP_KEYS = {"UP": "u", "DOWN": "d", "LEFT": "l", "RIGHT": "r",
             "W": "u", "S": "d", "A": "l", "D": "r"}
PAN_KEYS = {"UP": (0, -1), "DOWN": (0, 1), "LEFT": (-1, 0), "RIGHT": (1, 0)}
ZOOM_IN, ZOOM_OUT = ("PLUS", "EQUAL", "NUM_ADD"), ("MINUS", "NUM_SUBTRACT")
ZOOM_STEP, MAX_ZOOM = 1.25, 6.0
PAN_STEP = 2.0  # cells an arrow pans
LOG_PAGE = 10  # rows Page Up / Down scroll the log


class Controller:
    """One window session of one game (or several, when N/P switch maps). It speaks the
    default keys; `settings` (the App gives the player's) names the keys its labels show."""

    settings = Settings()

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int,
                 save_path: Path | None,
                 loader: Callable[[Path, int], Engine] | None = None,
                 thinker: Thinker | None = None, log: Sequence[Told] | None = None) -> None:
        self.seed = seed
        self.thinker: Thinker = thinker if thinker is not None else Worker()
        self.clock = getattr(self, "clock", time.monotonic)
        self.save_path = save_path
        self.loader = loader or (lambda path, seed: load_engine(path, seed=seed))
        self.specs = {side: seat.spec for side, seat in seats.items()}
        self.quit = False
        self.paused = False
        self.show_help = False
        self.generation = 0  # bumps whenever `engine` is replaced (restart, next map)
        self.seats: dict[str, Seat] = {}
        self.show_threats = False
        self.zoom = 1.0
        self.pan = (0.0, 0.0)
        self._resumed_log = log  # a save's log, for the first game only
        self._start(engine, seats)

    def _start(self, engine: Engine, seats: dict[str, Seat]) -> None:
        self.thinker.cancel()  # a think about the game this one replaces
        close_seats(self.seats)  # a plug-in's process of the game this one replaces
        self.engine = engine
        self.seats = seats
        self.selected: int | None = None
        self.message = ""
        self.handing_over = False
        self.last_side = engine.side
        self.forfeit: Forfeited | None = None  # a seat gave up: the game is over
        self.version = 0  # bumps on every change the screen must redraw
        self._legal: tuple[int, list[Command]] | None = None
        self.hovered: Cell | None = None
        self._preview: tuple[tuple[int, Cell | None], Preview] | None = None
        self.asked: float | None = None  # when the AI to play was asked (the clock's time)
        self.shown_think = -1  # the whole seconds of thinking on screen
        self.rushing = False  # Space: the AI's turn plays at once, unanimated
        self.confirming: str | None = None  # 'restart', 'next', 'previous' or 'end', asked first
        self._threat: tuple[tuple[int, object], Threat] | None = None
        goal = goal_of(engine.map)  # a challenge's task, shown until the first action
        self.message = f"Challenge: {goal.brief}" if goal is not None and not engine.history \
            else ""
        self.chronicle = Chronicle(engine, self._resumed_log)  # the game's log, told once
        self._resumed_log = None
        self.log_scroll = 0
        self.log_scroll_most: int | None = None  # the screen's answer: how far back it goes
        self.zoom, self.pan = 1.0, (0.0, 0.0)
        self.generation += 1
        if any(seat.ai is not None for seat in seats.values()):
            self.thinker.prepare()

    # -- questions ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """The game ended, or a seat forfeited it."""
        return self.engine.over or self.forfeit is not None

    @property
    def human_to_play(self) -> bool:
        return not self.over and self.seats[self.engine.side].ai is None

    @property
    def thinking(self) -> bool:
        """An AI seat is working out its command (off the UI thread)."""
        return self.thinker.thinking and self.asked is not None

    def thinking_line(self) -> str:
        """The indicator: which AI thinks, for how long, and what Space does meanwhile."""
        if not self.thinking or self.asked is None:
            return ""
        seat = self.seats[self.engine.side]
        seconds = int(self.clock() - self.asked)
        rest = "" if self.rushing else ". Space: the rest of its turn at once"
        return f"{seat.side} ({seat.spec}) is thinking ({seconds}s){rest}"

    @property
    def hotseat(self) -> bool:
        return sum(1 for seat in self.seats.values() if seat.ai is None) >= 2

    def legal(self) -> list[Command]:
        """The engine's legal actions, computed once per change."""
        if self._legal is None or self._legal[0] != self.version:
            self._legal = (self.version, self.engine.legal_actions())
        return self._legal[1]

    def steps(self) -> bool:
        return any(isinstance(c, Step) for c in self.legal())

    def reach(self) -> frozenset[Cell]:
        if self.selected is None or not self.human_to_play:
            return frozenset()
        return frozenset((c.x, c.y) for c in self.legal()
                         if isinstance(c, Move) and c.unit == self.selected)

    def attacks(self) -> dict[Cell, Attack]:
        """Cell -> the Attack the selected hero may make on what stands there."""
        if self.selected is None or not self.human_to_play:
            return {}
        world = self.engine.world
        found: dict[Cell, Attack] = {}
        for command in self.legal():
            if isinstance(command, Attack) and command.unit == self.selected:
                pos = world.get(command.target, Position)
                found.setdefault((pos.x, pos.y), command)
        return found

    def me(self) -> str:
        """The side whose eyes the screen is: the side to play when a person plays it, else
        the first side a person plays (the side an AI is playing against)."""
        if self._human(self.engine.side):
            return self.engine.side
        return next((s for s, seat in self.seats.items() if seat.ai is None), self.engine.side)

    def threat(self) -> Threat:
        """The cells enemies threaten that the screen shows: every enemy's with T on, else
        the hovered enemy's, else none."""
        if self.handing_over or not has_threats(self.engine):
            return NO_THREAT
        me = self.me()
        key: tuple[object, ...]
        if self.show_threats:
            units, key = enemies_of(self.engine, me), ("all", me)
        else:
            hovered = self._enemy_units_at(self.hovered, me) if self.hovered else []
            if not hovered:
                return NO_THREAT
            units, key = hovered, ("hovered", tuple(hovered))
        if self._threat is None or self._threat[0] != (self.version, key):
            self._threat = ((self.version, key), threats(self.engine, units))
        return self._threat[1]

    def ready(self) -> list[int]:
        """The units of a person's side to play that can still act."""
        if not self.human_to_play or self.handing_over:
            return []
        return ready_units(self.engine, self.legal())

    def view(self) -> UiView:
        """What the screen shows on top of the world now."""
        modal: tuple[str, ...] = ()
        if self.handing_over:
            modal = (f"{self.engine.side} to play", "pass the device, then click to continue")
        elif self.confirming == "end":
            modal = self._end_question()
        elif self.confirming is not None:
            modal = self.settings.label(*CONFIRM[self.confirming])
        elif self.show_help:
            modal = self.settings.label(*HELP)
        elif self.over:
            modal = self.end_lines()
        seats = "  ".join(f"{s}: {seat.spec}" for s, seat in self.seats.items())
        footer = seats + self.settings.label(("   PAUSED ({pause})" if self.paused else "")
                                             + ("   THREAT (T)" if self.show_threats else "")
                                             + "   {help} help")[0]
        shown = self.hover_preview() if not (self.handing_over or modal) else None
        moves, strikes = self.threat()
        ready: tuple[Button, ...] = tuple((f"unit:{unit}", ready_line(self.engine, unit))
                                          for unit in self.ready())
        end = self.settings.label("End turn ({end_turn})")[0]
        buttons: tuple[Button, ...] = (("end", end),) if self.human_to_play \
            and not self.handing_over and EndTurn() in self.legal() else ()
        return UiView(selected=self.selected if not self.handing_over else None,
                      reach=self.reach() if not self.handing_over else frozenset(),
                      targets=frozenset(self.attacks()) if not self.handing_over else frozenset(),
                      hide_board=self.handing_over, modal=modal,
                      message=self.message or self.thinking_line(),
                      footer=footer, path=shown.path if shown else (),
                      tooltip=shown.lines if shown else (), threat_moves=moves,
                      sentences=shown.sentences if shown else (),
                      threat_strikes=strikes, ready=ready, buttons=buttons,
                      log_scroll=self.log_scroll, zoom=self.zoom, pan=self.pan)

    def hover(self, cell: Cell | None) -> None:
        """The mouse is over board cell `cell` (None: off the board)."""
        if cell != self.hovered:
            self.hovered = cell
            self._changed()

    def hover_preview(self) -> Preview:
        """The path and MP left, the attack's outcome and the tooltip for the hovered cell."""
        key = (self.version, self.hovered)
        if self._preview is None or self._preview[0] != key:
            selected = self.selected if self.human_to_play else None
            self._preview = (key, preview(self.engine, self.legal(), selected, self.hovered))
        return self._preview[1]

    def end_lines(self) -> tuple[str, ...]:
        winner, reason = self.engine.outcome or (DRAW, "")
        if self.forfeit is not None:
            winner, reason = self.forfeit.winner(self.engine), self.forfeit.sentence
        title = "Draw" if winner == DRAW else f"{winner} wins"
        return (title, reason, f"after {current_round(self.engine)} rounds",
                "U undo   R restart   N next map   Q quit")

    # -- input ----------------------------------------------------------------------------

    def click(self, cell: Cell | None) -> None:
        """A left click on board cell `cell` (None: off the board)."""
        if self.handing_over:
            self.handing_over = False
            self._changed()
            return
        if self.confirming is not None:
            self._answer(False)
            return
        if self.show_help:
            self.show_help = False
            self._changed()
            return
        if cell is None or not self.human_to_play:
            return
        own = self._own_hero_at(cell)
        if own is not None:
            self.selected = None if own == self.selected else own
            self.message = ""
            self._changed()
        elif self.selected is not None and cell in self.reach():
            self.submit(Move(self.selected, *cell))
        elif self.selected is not None and cell in self.attacks():
            self.submit(self.attacks()[cell])
        elif self._enemy_at(cell) and self.selected is None:
            self._say("Select one of your heroes first, then click the enemy.")
        else:
            self.selected = None
            self._changed()

    def key(self, name: str, ctrl: bool = False) -> None:
        """A key press, named like pyglet's key names ('U', 'SPACE', 'LEFT', 'PAUSE')."""
        name = name.upper()
        if self.handing_over:
            self.handing_over = False
            self._changed()
            return
        if self.confirming is not None:
            self._answer(name in ("Y", "RETURN", "ENTER") or name == self.confirming[0].upper()
                         or (self.confirming == "end" and name == "SPACE"))
            return
        if name in ("U",) or (ctrl and name == "Z"):
            self.undo()
        elif name == "Y":
            self.redo()
        elif name == "Q":
            self.save()
            self.quit = True
        elif name == "H":
            self.show_help = not self.show_help
            self._changed()
        elif name in ("K", "PAUSE"):
            self.paused = not self.paused
            self._changed()
        elif name == "R":
            self._ask_first("restart")
        elif name in ("N", "P"):
            self._ask_first("next" if name == "N" else "previous")
        elif ctrl and name == "S":
            self.save(tell=True)
        elif name in STEP_KEYS and self.human_to_play and self.steps():
            self.submit(Step(STEP_KEYS[name]))
        elif name == "S":
            self.save(tell=True)
        elif name in ("E", "SPACE") and self.human_to_play:
            self.end_turn()
        elif name == "SPACE" and not self.over and not self.rushing:
            self.rushing = True  # an AI plays: the rest of its turn at once
            self._changed()
        elif name == "T":
            self.toggle_threats()
        elif name in ZOOM_IN or name in ZOOM_OUT:
            self.zoom_by(ZOOM_STEP if name in ZOOM_IN else 1 / ZOOM_STEP)
        elif name in ("_0", "NUM_0"):
            self.zoom, self.pan = 1.0, (0.0, 0.0)
            self._changed()
        elif name in PAN_KEYS:
            dx, dy = PAN_KEYS[name]
            self.pan_by(dx * PAN_STEP, dy * PAN_STEP)
        elif name in ("PAGEUP", "PAGEDOWN"):
            self.scroll_log(LOG_PAGE if name == "PAGEUP" else -LOG_PAGE)
        elif name == "END":
            self.scroll_log(-self.log_scroll)

    def button(self, name: str) -> None:
        """A click on a panel button: 'end' ends the turn, 'unit:N' selects unit N."""
        if self.confirming is not None:
            self._answer(self.confirming == "end" and name == "end")  # the same button: yes
            return
        if not self.human_to_play or self.handing_over:
            return
        if name == "end":
            self.end_turn()
        elif name.startswith("unit:") and int(name[5:]) in self.ready():
            self.selected = int(name[5:])
            self.message = ""
            self._changed()

    def end_turn(self) -> None:
        """End the turn; when heroes have not acted yet, ask first."""
        if not untouched(self.engine, self.ready()):
            self.submit(EndTurn())
            return
        self.confirming = "end"
        self._changed()

    def toggle_threats(self) -> None:
        if not has_threats(self.engine):
            self._say("This game has no enemy threats to show.")
            return
        self.show_threats = not self.show_threats
        self._changed()

    def zoom_by(self, factor: float, focus: tuple[float, float] | None = None) -> None:
        """Scale the board by `factor` (never below the size that fits the window), keeping
        the map point `focus` (in cells from the board's centre) where it is on the screen."""
        zoom = max(1.0, min(MAX_ZOOM, self.zoom * factor))
        if zoom == self.zoom:
            return
        if zoom == 1.0:
            self.zoom, self.pan = 1.0, (0.0, 0.0)
        else:
            fx, fy = focus if focus is not None else self.pan
            ratio = self.zoom / zoom
            self.zoom = zoom
            self._set_pan(fx - (fx - self.pan[0]) * ratio, fy - (fy - self.pan[1]) * ratio)
        self._changed()

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the view by (dx, dy) cells (right and down), while zoomed in."""
        if self.zoom > 1.0:
            self._set_pan(self.pan[0] + dx, self.pan[1] + dy)
            self._changed()

    def scroll_log(self, rows: int) -> None:
        """Scroll the log back (rows > 0) or forward, no further back than the screen's
        wrapped rows allow (`log_scroll_most`, which the window tells after each frame)."""
        most = self.log_scroll_most if self.log_scroll_most is not None \
            else len(self.chronicle.rows())
        scroll = max(0, min(most, self.log_scroll + rows))
        if scroll != self.log_scroll:
            self.log_scroll = scroll
            self._changed()

    # -- acting ---------------------------------------------------------------------------

    def submit(self, command: Command) -> bool:
        result = self.engine.submit(command)
        if isinstance(result, Impossible):
            self._say(result.reason)
            return False
        self.message = ""
        self._after_command()
        return True

    def undo(self) -> None:
        """Back to the last position a human had to play (the AI's replies go too): undoing
        only an AI's command would have it play again at once."""
        self._stop_thinking()
        if not undo_turn(self.engine, self._human):
            self._say("Nothing to undo.")
            return
        self.forfeit = None  # taking a command back takes the forfeit back too
        self.message = ""
        self._after_command()

    def redo(self) -> None:
        """Redo the human's command and replay the AI's undone replies as they were."""
        self._stop_thinking()
        if not redo_turn(self.engine, self._human):
            self._say("Nothing to redo.")
            return
        self.message = ""
        self._after_command()

    def tick(self) -> bool:
        """Let an AI seat play one command if it is its turn; True when it did. The first
        call asks the thinker; later ones apply its answer once it has come (and keep the
        indicator's seconds going meanwhile)."""
        if self.paused or self.handing_over or self.over or self.quit \
                or self.confirming is not None:
            return False
        seat = self.seats[self.engine.side]
        if seat.ai is None:
            self.rushing = False
            return False
        if self.engine.redo_stack and not self.thinking:
            return self._replay()  # what the AI played here before an undo, not a new think
        if not self.thinking:
            self.asked = self.clock()
            self.thinker.ask(self.engine, seat, Budget())
        outcome = self.thinker.poll()
        if outcome is None:
            seconds = int(self.clock() - (self.asked or 0.0))
            if seconds != self.shown_think:
                self.shown_think = seconds
                self._changed()
            return False
        self.asked = None
        if isinstance(outcome, Forfeited):
            self.forfeit = outcome  # the game is over: the end screen says why
            self.save()
            self._say(f"{outcome.sentence}.")
            return False
        return self.submit(outcome.command)

    def _replay(self) -> bool:
        self.engine.redo()
        self.message = ""
        self._after_command()
        return True

    def close(self) -> None:
        """Stop the AI's thinking process and the seats' plug-ins (the window is closing)."""
        self.thinker.close()
        close_seats(self.seats)

    def restart(self) -> None:
        path = self._map_path()
        if path is None:
            self._say("This game has no map file to restart from.")
            return
        self.load(path)

    def next_map(self, step: int) -> None:
        path = self._map_path()
        if path is None or not path.exists():
            self._say("This map has no folder to browse.")
            return
        maps = sorted(path.parent.glob("*.png"))
        index = maps.index(path) if path in maps else 0
        self.load(maps[(index + step) % len(maps)])

    def load(self, path: Path) -> None:
        """Start a new game on `path` with the same seats and seed."""
        try:
            engine = self.loader(path, self.seed)
        except UserError as exc:
            self._say(str(exc))
            return
        self._start(engine, make_seats(engine, self.specs, self.seed))
        self.save()

    def save(self, tell: bool = False) -> None:
        if self.save_path is None or self.engine.map is None:
            return
        try:
            save_game(self.save_path, self.engine, self.seats, self.seed, self.forfeit,
                      self.chronicle.told())
        except (OSError, UserError) as exc:
            self._say(f"could not save to {self.save_path}: {exc}")
            return
        if tell:
            self._say(f"saved to {self.save_path}")

    # -- helpers --------------------------------------------------------------------------

    def _ask_first(self, what: str) -> None:
        """Restart and the next map throw this game away: ask, unless nothing was played."""
        if self._nothing_to_lose():
            self._answer(True, what)
            return
        self.confirming = what
        self._changed()

    def _answer(self, yes: bool, what: str | None = None) -> None:
        what = what or self.confirming
        self.confirming = None
        if not yes or what is None:
            self._say("Kept playing.")
        elif what == "quit":
            self.quit = True
        elif what == "end":
            self.submit(EndTurn())
        elif what == "restart":
            self.restart()
        else:
            self.next_map(1 if what == "next" else -1)
        self._changed()

    def _end_question(self) -> tuple[str, ...]:
        """The box asking before a turn ends with heroes that have not acted, named."""
        unused = untouched(self.engine, self.ready())
        names = ", ".join(name_of(self.engine.world, unit) for unit in unused)
        return ("End the turn?",
                f"{len(unused)} not used yet: {names}" if len(unused) > 1
                else f"not used yet: {names}",
                *self.settings.label("{end_turn} / Enter / End turn again: end it    any other "
                                     "key: back"))

    def _set_pan(self, x: float, y: float) -> None:
        cols, rows = self._board_size()
        self.pan = (max(-cols / 2, min(cols / 2, x)), max(-rows / 2, min(rows / 2, y)))

    def _board_size(self) -> tuple[int, int]:
        from components.resources import SIZE_KEY

        size = self.engine.world.resource(SIZE_KEY)
        return (int(size[0]), int(size[1])) if size is not None else (1, 1)

    def _enemy_units_at(self, cell: Cell, me: str) -> list[int]:
        world = self.engine.world
        return [e for e in world.at(*cell)
                if (team := world.try_get(e, Team)) is not None and team.side != me]

    def _nothing_to_lose(self) -> bool:
        return not self.engine.history

    def _human(self, side: str) -> bool:
        seat = self.seats.get(side)
        return seat is None or seat.ai is None

    def _stop_thinking(self) -> None:
        if self.thinking:
            self.thinker.cancel()
        self.asked = None

    def _after_command(self) -> None:
        self.chronicle.follow()
        world = self.engine.world
        if self.selected is not None and not world.alive(self.selected):
            self.selected = None
        side = self.engine.side
        if side != self.last_side:
            self.selected = None
            if self.hotseat and not self.engine.over:
                self.handing_over = True
            self.last_side = side
        if self._human(side) or self.engine.over:
            self.rushing = False
        self.save()
        self._changed()

    def _own_hero_at(self, cell: Cell) -> int | None:
        world = self.engine.world
        for entity in world.at(*cell):
            kind, team = world.try_get(entity, Kind), world.try_get(entity, Team)
            if kind is not None and kind.name == "hero" and team is not None \
                    and team.side == self.engine.side:
                return entity
        return None

    def _enemy_at(self, cell: Cell) -> bool:
        world = self.engine.world
        return any((team := world.try_get(e, Team)) is not None and team.side != self.engine.side
                   for e in world.at(*cell))

    def _map_path(self) -> Path | None:
        game_map = self.engine.map
        return Path(game_map.path) if game_map is not None else None

    def _say(self, text: str) -> None:
        self.message = text
        self._changed()

    def _changed(self) -> None:
        self.version += 1
