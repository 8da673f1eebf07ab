"""The play controller: clicks and keys in, engine commands out (no pyglet, unit-testable).

The window turns pyglet events into `click(cell)` and `key(name, ctrl)` calls and draws
`view()`. Everything the player does goes through `engine.submit`, `undo` or `redo`; the
game is autosaved after every command. Keys (see HELP): U or Ctrl+Z undo, Y redo, E or Space
end turn, R restart, N/P next/previous map of the folder, Ctrl+S save (S too, unless the
ruleset steps with WASD), Q quit (autosave), H help, K or Pause pauses the AI seats,
arrows/WASD step for rulesets with Step commands.
"""

from __future__ import annotations

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
from game.session.seat import Forfeited, close_seats, step
from systems.ai import Budget

HELP = (
    "Keys",
    "click a hero: select; red cell: move; blue cell: attack",
    "U / Ctrl+Z undo    Y redo    E / Space end turn",
    "R restart    N / P next / previous map",
    "Ctrl+S save    Q quit (saves)    H this help",
    "K / Pause: pause the AI    arrows / WASD: step",
)
STEP_KEYS = {"UP": "u", "DOWN": "d", "LEFT": "l", "RIGHT": "r",
             "W": "u", "S": "d", "A": "l", "D": "r"}


class Controller:
    """One window session of one game (or several, when N/P switch maps)."""

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int,
                 save_path: Path | None,
                 loader: Callable[[Path, int], Engine] | None = None) -> None:
        self.seed = seed
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
                      hide_board=self.handing_over, modal=modal, message=self.message,
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
            self.restart()
        elif name in ("N", "P"):
            self.next_map(1 if name == "N" else -1)
        elif ctrl and name == "S":
            self.save(tell=True)
        elif name in STEP_KEYS and self.human_to_play and self.steps():
            self.submit(Step(STEP_KEYS[name]))
        elif name == "S":
            self.save(tell=True)
        elif name in ("E", "SPACE") and self.human_to_play:
            self.submit(EndTurn())

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
        if self.engine.undo() is None:
            self._say("Nothing to undo.")
            return
        self.forfeit = None  # taking a command back takes the forfeit back too
        self.message = ""
        self._after_command()

    def redo(self) -> None:
        if self.engine.redo() is None:
            self._say("Nothing to redo.")
            return
        self.message = ""
        self._after_command()

    def tick(self) -> bool:
        """Let an AI seat play one command if it is its turn; True when it did."""
        if self.paused or self.handing_over or self.over or self.quit:
            return False
        seat = self.seats[self.engine.side]
        if seat.ai is None:
            return False
        outcome = step(seat, self.engine, Budget())
        if isinstance(outcome, Forfeited):
            self.forfeit = outcome  # the game is over: the end screen says why
            self.save()
            self._say(f"{outcome.sentence}.")
            return False
        return self.submit(outcome.command)

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
