"""The play controller: clicks and keys in, engine commands out (no pyglet, unit-testable).

The window turns pyglet events into `click(cell)` and `key(name, ctrl)` calls and draws
`view()`. Everything the player does goes through `engine.submit`, `undo` or `redo`; the
game is autosaved after every command. Keys (see HELP): U or Ctrl+Z undo (back to the last
human action, an AI's replies with it), Y redo (the AI's undone replies are replayed as they
were, not thought again), E or Space end turn, Space while an AI plays: the rest of its turn
at once, R restart and N/P next/previous map of the folder (both ask first), Ctrl+S save (S
too, unless the ruleset steps with WASD), Q quit (autosave), H help, K or Pause pauses the AI
seats, arrows/WASD step for rulesets with Step commands.

An AI seat's command is worked out off the UI thread (game/session/think.py: a child process
on a replica), so keys, help and redraws answer while it thinks; `tick` asks, and applies
the answer through `submit` when it has come.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from components import Kind, Position, Team
from components.match import DRAW
from game.commands import Attack, Command, EndTurn, Move, Step
from game.engine import Engine, Impossible
from game.errors import UserError
from game.levels.loader import load_engine
from game.render.controllers.preview import Preview, preview
from game.render.uiview import Cell, UiView
from game.session.match import Seat, current_round, make_seats
from game.session.saves import save_game
from game.session.seat import Forfeited, close_seats
from game.session.think import Thinker, Worker
from game.session.undo import redo_turn, undo_turn
from systems.ai import Budget

HELP = (
    "Keys",
    "click a hero: select; red cell: move; blue cell: attack",
    "U / Ctrl+Z undo    Y redo    E / Space end turn",
    "Space while the AI plays: the rest of its turn at once",
    "R restart    N / P next / previous map (each asks first)",
    "Ctrl+S save    Q quit (saves)    H this help",
    "K / Pause: pause the AI    arrows / WASD: step",
)
CONFIRM = {
    "restart": ("Restart this map?", "this game's moves are lost (no undo)",
                "R / Y / Enter: restart    any other key: keep playing"),
    "next": ("Go on to the next map?", "this game's moves are lost (no undo)",
             "N / Y / Enter: next map    any other key: keep playing"),
    "previous": ("Go back to the previous map?", "this game's moves are lost (no undo)",
                 "P / Y / Enter: previous map    any other key: keep playing"),
    "quit": ("Quit this level?", "its moves are not saved",
             "Q / Y / Enter: quit    any other key: keep playing"),
}
STEP_KEYS = {"UP": "u", "DOWN": "d", "LEFT": "l", "RIGHT": "r",
             "W": "u", "S": "d", "A": "l", "D": "r"}


class Controller:
    """One window session of one game (or several, when N/P switch maps)."""

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int,
                 save_path: Path | None,
                 loader: Callable[[Path, int], Engine] | None = None,
                 thinker: Thinker | None = None) -> None:
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
        self.confirming: str | None = None  # 'restart', 'next' or 'previous', asked first
        self.generation += 1

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

    def view(self) -> UiView:
        """What the screen shows on top of the world now."""
        modal: tuple[str, ...] = ()
        if self.handing_over:
            modal = (f"{self.engine.side} to play", "pass the device, then click to continue")
        elif self.confirming is not None:
            modal = CONFIRM[self.confirming]
        elif self.show_help:
            modal = HELP
        elif self.over:
            modal = self.end_lines()
        seats = "  ".join(f"{s}: {seat.spec}" for s, seat in self.seats.items())
        footer = seats + ("   PAUSED (K)" if self.paused else "") + "   H help"
        shown = self.hover_preview() if not (self.handing_over or modal) else None
        return UiView(selected=self.selected if not self.handing_over else None,
                      reach=self.reach() if not self.handing_over else frozenset(),
                      targets=frozenset(self.attacks()) if not self.handing_over else frozenset(),
                      hide_board=self.handing_over, modal=modal,
                      message=self.message or self.thinking_line(),
                      footer=footer, path=shown.path if shown else (),
                      tooltip=shown.lines if shown else ())

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
            self._answer(name in ("Y", "RETURN", "ENTER") or name == self.confirming[0].upper())
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
            self.submit(EndTurn())
        elif name == "SPACE" and not self.over and not self.rushing:
            self.rushing = True  # an AI plays: the rest of its turn at once
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
            save_game(self.save_path, self.engine, self.seats, self.seed, self.forfeit)
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
        elif what == "restart":
            self.restart()
        else:
            self.next_map(1 if what == "next" else -1)
        self._changed()

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
