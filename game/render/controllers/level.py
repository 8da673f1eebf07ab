"""The level controller: puzzle and descent levels in the window (no pyglet, unit-testable).

One human player steps (arrows / WASD), waits ('.' or Space, where the ruleset has Wait),
undoes and redoes, restarts, asks the solver for a hint (I or '?') and goes on to the next
level (N; P goes back): the next id of a Keke JSON set, else the next file of the same kind in
the level's folder. The solver looks for the hint in the thinking process of the AI seats
(game/session/think.py), so the window answers meanwhile; undo, restart, a move or quitting
stop the search, and a hint that arrives for a position no longer on the board is dropped. The controller counts moves, times the level and, on a win, gives the
stars the level's sidecar promises (`stars: {3: moves, 2: moves, 1: moves}`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import registry
from game.commands import Command, Step, Wait
from game.engine import Engine
from game.errors import UserError
from game.render.controllers.match import CONFIRM, STEP_KEYS, Controller
from game.render.uiview import UiView
from game.session.match import make_seats
from game.session.think import Hinted, Thinker

WAIT_KEYS = ("PERIOD", "SPACE")
HINT_KEYS = ("I", "SLASH", "QUESTION")
NEXT_KEYS = ("N", "RETURN", "ENTER")
HINT_SECONDS = 3.0
WORDS = {"u": "up", "d": "down", "l": "left", "r": "right", "s": "wait"}
HELP = (
    "Keys",
    "arrows / WASD step    . or Space wait (puzzles)",
    "{undo} / Ctrl+Z undo    {redo} redo    {restart} restart",
    "N next level    P previous level",
    "{hint} or ? hint (the solver's next move)",
    "{help} this help    {quit} / Escape quit",
)


def stars_for(thresholds: dict[Any, Any], moves: int) -> int:
    """Stars earned in `moves`: the most stars whose move limit is not passed (0 if none)."""
    earned = [int(k) for k, limit in thresholds.items() if moves <= int(limit)]
    return max(earned, default=0)


def clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


class LevelController(Controller):
    """One window session of puzzle or descent levels, one after another."""

    def __init__(self, engine: Engine, path: str | Path, level: str | None = None,
                 seed: int = 0, player: str | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 hint_seconds: float = HINT_SECONDS, thinker: Thinker | None = None) -> None:
        # The file the engine came from, not the argument: a shipped level named without a
        # path ("first-steps") still has a folder for N and P to walk.
        self.path = Path(engine.map.path) if engine.map is not None else Path(path)
        if level is None and engine.map is not None and "level" in engine.map.sidecar:
            level = str(engine.map.sidecar["level"])  # a one-level Keke set names its id here
        self.level = level
        self.player = player
        self.clock = clock
        self.hint_seconds = hint_seconds
        super().__init__(engine, self._seats(engine, seed), seed, None, thinker=thinker)

    @staticmethod
    def _seats(engine: Engine, seed: int) -> dict[str, Any]:
        return make_seats(engine, {side: "human" for side in engine.ruleset.sides}, seed)

    def _start(self, engine: Engine, seats: dict[str, Any]) -> None:
        super()._start(engine, seats)
        self.started = self.clock()
        self.finished: float | None = None
        self.shown_second = 0
        self.hint = ""  # the solver's next move ('u', 'd', 'l', 'r', 's'), shown until a move
        self.plan: list[Command] = []  # the rest of the hint's solution, reused while followed
        self.hint_asked: tuple[int, int, Any] | None = None  # the position a hint is sought for
        self.hint_since = 0.0  # the clock's time when it was asked
        self.shown_hint_second = -1
        self.scored = False

    # -- questions ------------------------------------------------------------------------

    @property
    def moves(self) -> int:
        return len(self.engine.history)

    @property
    def won(self) -> bool:
        outcome = self.engine.outcome
        return outcome is not None and outcome[0] in self.engine.ruleset.sides

    @property
    def lost(self) -> bool:
        return self.engine.over and not self.won

    def elapsed(self) -> float:
        end = self.finished if self.finished is not None else self.clock()
        return max(0.0, end - self.started)

    def thresholds(self) -> dict[Any, Any]:
        game_map = self.engine.map
        stars = game_map.sidecar.get("stars") if game_map is not None else None
        return stars if isinstance(stars, dict) else {}

    def stars(self) -> int | None:
        """Stars for the moves made so far (None when the level promises none)."""
        thresholds = self.thresholds()
        return stars_for(thresholds, self.moves) if thresholds else None

    def title(self) -> str:
        game_map = self.engine.map
        return game_map.name if game_map is not None else self.path.stem

    def info(self) -> tuple[str, ...]:
        """The level lines of the side panel: moves, time, stars, hint."""
        lines = [f"Moves {self.moves}    Time {clock_text(self.elapsed())}"]
        thresholds = self.thresholds()
        if thresholds:
            limits = "  ".join(f"{int(k)}*: {int(v)}" for k, v in
                               sorted(thresholds.items(), key=lambda kv: -int(kv[0])))
            lines.append(f"Stars (most moves)  {limits}")
        return tuple(lines)

    def view(self) -> UiView:
        modal: tuple[str, ...] = ()
        if self.confirming is not None:
            modal = self.settings.label(*CONFIRM[self.confirming])
        elif self.show_help:
            modal = self.settings.label(*HELP)
        elif self.engine.over:
            modal = self.end_lines()
        shown = self.hover_preview() if not modal else None  # the match window's tooltips
        return UiView(modal=modal, message=self.message or self.hint_line(), info=self.info(),
                      hint=self.hint,
                      footer=self.settings.label("{help} help   {hint} hint   N next level")[0],
                      tooltip=shown.lines if shown else ())

    def end_lines(self) -> tuple[str, ...]:
        if self.won:
            stars = self.stars()
            lines = ["Level complete!",
                     f"{self.moves} moves in {clock_text(self.elapsed())}"]
            if stars is not None:
                best = min(int(v) for v in self.thresholds().values())
                plural = "" if stars == 1 else "s"
                lines.append("3 stars" if stars >= 3 else
                             f"{stars} star{plural} (3 stars take {best} moves)")
            lines.append("N next level   R replay   U undo   Q quit")
            return tuple(lines)
        _winner, reason = self.engine.outcome or ("", "")
        return ("Level lost", reason or "nothing can win any more",
                "U undo   R restart   Q quit")

    # -- input ----------------------------------------------------------------------------

    def click(self, cell: tuple[int, int] | None) -> None:
        if self.confirming is not None:
            self._answer(False)
        elif self.show_help:
            self.show_help = False
            self._changed()

    def key(self, name: str, ctrl: bool = False) -> None:
        name = name.upper()
        if self.confirming is not None:
            self._answer(name in ("Y", "RETURN", "ENTER") or name == self.confirming[0].upper())
            return
        if name == "U" or (ctrl and name == "Z"):
            self.undo()
        elif name == "Y":
            self.redo()
        elif name == "Q":
            self._ask_first("quit")  # a level is not saved: its moves would be lost
        elif name == "H":
            self.show_help = not self.show_help
            self._changed()
        elif name == "R":
            self._ask_first("restart")
        elif name in NEXT_KEYS or name == "P":
            self.next_level(-1 if name == "P" else 1)
        elif name in HINT_KEYS:
            self.ask_hint()
        elif name in STEP_KEYS:
            self.submit(Step(STEP_KEYS[name]))
        elif name in WAIT_KEYS:
            if any(isinstance(c, Wait) for c in self.legal()):
                self.submit(Wait())
            else:
                self._say(f"{self.engine.ruleset.name} levels have no wait; step instead.")

    def ask_to_quit(self) -> bool:
        """The window's close button: True (and the question shown) while an unfinished
        level's moves would be lost; a second press closes."""
        if self._nothing_to_lose() or self.confirming == "quit":
            return False
        self.confirming = "quit"
        self._changed()
        return True

    def _nothing_to_lose(self) -> bool:
        return not self.engine.history or self.engine.over  # a finished level keeps its score

    # -- acting ---------------------------------------------------------------------------

    def submit(self, command: Command) -> bool:
        if self.engine.over:
            self._say("The level is over: U undoes, R restarts, N goes on.")
            return False
        following = bool(self.plan) and self.plan[0] == command
        if not super().submit(command):
            return False
        self.plan = self.plan[1:] if following else []
        return True

    def undo(self) -> None:
        self.plan = []
        self._drop_hint()
        super().undo()

    def redo(self) -> None:
        self.plan = []
        self._drop_hint()
        super().redo()

    @property
    def hinting(self) -> bool:
        """The solver is looking for a hint (in the thinking process)."""
        return self.hint_asked is not None

    def hint_line(self) -> str:
        """The indicator while the solver looks, with its seconds and what stops it."""
        if not self.hinting:
            return ""
        seconds = int(self.clock() - self.hint_since)
        return f"looking for a hint\u2026 ({seconds}s)  U undo / R restart / a move stops it"

    def ask_hint(self) -> None:
        """Ask the solver for the next move from here (at once while a plan is followed;
        otherwise the thinking process looks and `tick` shows what it finds)."""
        if self.engine.over:
            self._say("The level is over; undo first to get a hint.")
            return
        if self.plan:
            self._show_hint()
            return
        if self.hinting:
            return  # already looking: the indicator says so
        self.hint_asked = self.engine.world.version()
        self.hint_since = self.clock()
        self.shown_hint_second = 0
        self.message = ""
        self.thinker.ask_hint(self.engine, self.hint_seconds)
        self._changed()

    def _hinted(self, found: Hinted) -> None:
        """The solver's answer: shown if the board is still where it was asked, else dropped."""
        asked, self.hint_asked = self.hint_asked, None
        if asked is None or not self.engine.world.same_version(asked):
            self._changed()  # the indicator goes
            return
        if found.failure:
            self._say(f"No hint: {found.failure}.")
        elif not found.solved:
            self._say("No way to win from here: undo or restart."
                      if found.exhausted else "The solver found no win in time.")
        else:
            self.plan = list(found.commands)
            self._show_hint()

    def _show_hint(self) -> None:
        self.hint = getattr(self.plan[0], "direction", "s")
        self.message = f"hint: {WORDS[self.hint]} ({len(self.plan)} moves to go)"
        self._changed()

    def _drop_hint(self) -> None:
        """Stop looking for a hint the player made moot (undo, restart, a move, quitting)."""
        if self.hinting:
            self.thinker.cancel()
            self.hint_asked = None
            self._changed()

    def tick(self) -> bool:
        """Keep the clock and the hint's indicator on screen, and take the hint when it has
        come; no AI plays here."""
        if self.hinting:
            found = self.thinker.poll_hint()
            if found is not None:
                self._hinted(found)
            elif int(self.clock() - self.hint_since) != self.shown_hint_second:
                self.shown_hint_second = int(self.clock() - self.hint_since)
                self._changed()
        elif not self.prepared:
            # the thinking process starts before the first hint is asked (about 50 ms, and
            # the solver's imports), not in the middle of the player's wait for it
            self.prepared = True
            if registry.spec(self.engine.ruleset.name).has("search_hooks"):
                self.thinker.prepare()
        second = int(self.elapsed())
        if second != self.shown_second:
            self.shown_second = second
            self._changed()
        return False

    prepared = False  # the thinking process was started (by the first tick)

    def restart(self) -> None:
        self.load_level(self.path, self.level)

    def next_level(self, step: int) -> None:
        """The next (step 1) or previous (-1) level of the set or folder, skipping files that
        are not one-player levels."""
        for path, level in self.neighbours(step):
            try:
                engine = self._load(path, level)
            except UserError:
                continue
            if len(engine.ruleset.sides) == 1:
                self._switch(engine, path, level)
                return
        self._say("There is no other level next to this one.")

    def neighbours(self, step: int) -> list[tuple[Path, str | None]]:
        """The other levels in walking order from this one, wrapping round."""
        if self.path.suffix.lower() == ".json":
            from game.rulesets.puzzle.keke import read_set

            ids = [lvl.id for lvl in read_set(self.path)]
            here = ids.index(str(self.level)) if str(self.level) in ids else 0
            return [(self.path, ids[(here + step * i) % len(ids)]) for i in range(1, len(ids))]
        folder = self.path.parent
        suffix = self.path.suffix.lower()
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() == suffix) \
            if folder.is_dir() else []
        here = files.index(self.path) if self.path in files else -1
        return [(files[(here + step * i) % len(files)], None) for i in range(1, len(files))]

    def load_level(self, path: Path, level: str | None) -> None:
        try:
            engine = self._load(path, level)
        except UserError as exc:
            self._say(str(exc))
            return
        self._switch(engine, path, level)

    def _load(self, path: Path, level: str | None) -> Engine:
        from game.levels.loader import load_engine

        return load_engine(path, level=level, seed=self.seed)

    def _switch(self, engine: Engine, path: Path, level: str | None) -> None:
        self.path, self.level = path, level
        self._start(engine, self._seats(engine, self.seed))

    def save(self, tell: bool = False) -> None:
        """Levels are short: nothing is autosaved (a win is scored with --player)."""

    def _after_command(self) -> None:
        self.hint = ""
        self._drop_hint()  # the position it was sought for is gone
        if self.engine.over and self.finished is None:
            self.finished = self.clock()
        elif not self.engine.over:
            self.finished = None
        if self.won and self.player and not self.scored:
            from game.session.scores import record_score

            self.scored = True
            name = str(self.path) + (f"#{self.level}" if self.level else "")
            record_score(name, self.player, self.moves)
        super()._after_command()
