"""What the cursor, a selection and a key mean in the terminal, chosen from legal actions.

No Textual here: the app asks this class what a key or click does and draws what it says.
Choices are the engine's legal actions, never recomputed: a selected unit's reach is the cells
of its Move actions and its targets the things its Attack actions name. A choice that is not
legal is still submitted, so the engine's reason reaches the status line and the world stays
as it was. How the keys play a game is its ruleset's spec's `input_mode` (a cursor on a grid,
steps, or heaps), never guessed and never a ruleset's name.
"""

from __future__ import annotations

from collections.abc import Callable

from components import Position, Team
from game.commands import Attack, Command, EndTurn, Move, Step, Take, Wait
from game.engine import Engine, Impossible
from game.errors import UserError
from game.session.narrate import name_of
from game.session.rulesense import foresee_lines
from game.session.threat import (
    NO_THREAT,
    Threat,
    enemies_of,
    has_threats,
    ready_units,
    threats,
    untouched,
)
from game.text.board import grid_size

GRID, STEPS, HEAPS = "grid", "steps", "heaps"
MODES = (GRID, STEPS, HEAPS)


def mode_of(engine: Engine) -> str:
    """How this game is played from the keyboard, as its ruleset's spec says (`input_mode`):
    a cursor on a grid, steps, or heaps."""
    from game import registry

    mode = registry.spec(engine.ruleset.name).input_mode
    if mode not in MODES:
        raise UserError(f"the {engine.ruleset.name} ruleset's input mode '{mode}' is not one "
                        f"the terminal knows ({', '.join(MODES)}).")
    return mode


class Cursor:
    """The cursor cell, the selected unit (grid) or heap and move (heaps), and a message."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.mode = mode_of(engine)
        self.x = self.y = 0
        self.selected: int | None = None
        self.heap = 0
        self.choice = 0
        self.message = ""
        self.show_threats = False
        self.hovered: tuple[int, int] | None = None  # the cell under the mouse, if on the board
        self.flash: dict[tuple[int, int], str] = {}  # sentence cells the last command changed
        self.asked_end = False  # e was pressed with heroes unused: a second e ends the turn
        self._legal: tuple[tuple[int, int, object], list[Command]] | None = None
        self._threat: tuple[object, Threat] | None = None
        units = self.units()
        if units:
            pos = engine.world.get(units[0], Position)
            self.x, self.y = pos.x, pos.y

    # -- what the legal actions offer ------------------------------------------------------

    def legal(self) -> list[Command]:
        """The engine's legal actions, asked once per state (a key that only moves the cursor
        asks again for nothing)."""
        world = self.engine.world
        if self._legal is None or not world.same_version(self._legal[0]):
            self._legal = (world.version(), self.engine.legal_actions())
        return self._legal[1]

    def units(self) -> list[int]:
        """The units the side to play can act with, in the order the engine lists them."""
        return ready_units(self.engine, self.legal())

    def threat(self) -> Threat:
        """The enemies' threat shown: every enemy's with t on, else that of the enemy under
        the mouse, else under the cursor (enemies of the side to play), as the ruleset's
        `threat` edge says."""
        if self.mode != GRID or not has_threats(self.engine):
            return NO_THREAT
        side = self.engine.side
        world = self.engine.world
        if self.show_threats:
            units = enemies_of(self.engine, side)
        else:
            units = []
            for x, y in [c for c in (self.hovered, (self.x, self.y)) if c is not None]:
                units = [e for e in world.at(x, y)
                         if (team := world.try_get(e, Team)) is not None and team.side != side]
                if units:
                    break
        if not units:
            return NO_THREAT
        key = (world.version(), tuple(units))
        if self._threat is None or self._threat[0] != key:
            self._threat = (key, threats(self.engine, units))
        return self._threat[1]

    def toggle_threats(self) -> None:
        self.asked_end = False
        if not has_threats(self.engine):
            self.message = "This game has no enemy threats to show."
            return
        self.show_threats = not self.show_threats
        self.message = "every enemy's threat: blue where it may move, red where else it may " \
            "strike" if self.show_threats else "threat hidden; the cursor on an enemy shows its"

    def options(self) -> list[Command]:
        """The selected unit's legal moves and attacks."""
        if self.selected is None:
            return []
        return [c for c in self.legal()
                if isinstance(c, Move | Attack) and c.unit == self.selected]

    def rule_preview(self) -> list[str]:
        """What the selected hero's move onto the cursor cell would do to the rules (a push
        of words): one sentence per rule formed or broken, nothing otherwise."""
        if self.mode != GRID or self.selected is None:
            return []
        move = next((c for c in self.legal() if isinstance(c, Move) and c.unit == self.selected
                     and (c.x, c.y) == (self.x, self.y)), None)
        return foresee_lines(self.engine, move) if move is not None else []

    def reach(self) -> set[tuple[int, int]]:
        return {(c.x, c.y) for c in self.options() if isinstance(c, Move)}

    def targets(self) -> set[tuple[int, int]]:
        world = self.engine.world
        cells = set()
        for command in self.options():
            if isinstance(command, Attack) and world.alive(command.target):
                pos = world.get(command.target, Position)
                cells.add((pos.x, pos.y))
        return cells

    def takes(self) -> list[Take]:
        """The legal takes from the chosen heap."""
        return [c for c in self.engine.legal_actions()
                if isinstance(c, Take) and c.heap == self.heap]

    def chosen_take(self) -> Take | None:
        takes = self.takes()
        return takes[self.choice % len(takes)] if takes else None

    # -- keys --------------------------------------------------------------------------------

    def move(self, dx: int, dy: int) -> Command | None:
        """An arrow key: the cursor moves (grid), the player steps (levels) or the heap or
        the take changes (heaps). Returns a command to submit, if the key makes one."""
        self.message = ""
        self.asked_end = False
        if self.mode == STEPS:
            return Step({(0, -1): "u", (0, 1): "d", (-1, 0): "l", (1, 0): "r"}[(dx, dy)])
        if self.mode == HEAPS:
            heaps = max((c.heap for c in self.engine.legal_actions() if isinstance(c, Take)),
                        default=-1) + 1
            if dy:
                self.heap = max(0, min(self.heap + dy, max(heaps - 1, 0)))
                self.choice = 0
            self.choice += dx
            return None
        size = grid_size(self.engine.world) or (1, 1)
        self.x = max(0, min(self.x + dx, size[0] - 1))
        self.y = max(0, min(self.y + dy, size[1] - 1))
        return None

    def click(self, x: int, y: int) -> Command | None:
        """A mouse click on a cell: the cursor goes there and acts."""
        self.x, self.y = x, y
        return self.activate()

    def activate(self) -> Command | None:
        """Enter: act on the cursor cell with the selection, or select the unit there."""
        self.message = ""
        self.asked_end = False
        if self.mode == STEPS:
            return Wait() if Wait() in self.engine.legal_actions() else None
        if self.mode == HEAPS:
            take = self.chosen_take()
            if take is None:
                self.message = f"Heap {self.heap} has no legal take."
            return take
        cell = (self.x, self.y)
        for command in self.options():
            if isinstance(command, Move) and (command.x, command.y) == cell:
                return command
            if isinstance(command, Attack) and self._cell_of(command.target) == cell:
                return command
        here = [u for u in self.units() if self._cell_of(u) == cell]
        if here:
            self.selected = here[0] if self.selected != here[0] else None
            return None
        if self.selected is None:
            self.message = "Nothing of yours to act with here; move the cursor onto a unit."
            return None
        # Not a listed choice: ask the engine anyway, so its reason is what the player reads.
        enemy = [e for e in self.engine.world.at(*cell) if e != self.selected]
        return Attack(self.selected, enemy[-1]) if enemy else Move(self.selected, *cell)

    def end_turn(self) -> Command | None:
        """e: the end of the turn, asked about first when heroes have not acted yet."""
        self.message = ""
        if EndTurn() not in self.legal():
            self.message = "There is no turn to end here."
            return None
        unused = untouched(self.engine, self.units())
        if unused and not self.asked_end:
            self.asked_end = True
            who = ", ".join(name_of(self.engine.world, unit) for unit in unused)
            self.message = f"not used yet: {who}; press e again to end the turn anyway"
            return None
        self.asked_end = False
        return EndTurn()

    def after(self, result: Impossible | None) -> None:
        """Keep the selection valid after a command (or show why it was refused)."""
        if isinstance(result, Impossible):
            self.message = result.reason
            return
        if self.selected is not None and self.selected not in self.units():
            self.selected = None
        if self.mode == HEAPS:
            heaps = {c.heap for c in self.engine.legal_actions() if isinstance(c, Take)}
            if heaps and self.heap not in heaps:
                self.heap = min(heaps)
            self.choice = 0

    def _cell_of(self, entity: int) -> tuple[int, int] | None:
        pos = self.engine.world.try_get(entity, Position)
        return None if pos is None else (pos.x, pos.y)


def key_help(mode: str, applies: Callable[[str], bool]) -> list[tuple[str, str]]:
    """(keys, what they do) for the `?` screen: the keys of this input mode, then the common
    ones, each only where `applies(action)` says it means something in this game."""
    own = {
        GRID: [("arrows, mouse", "move the cursor", ""),
               ("Enter, click", "select a unit; again on a cell it can reach: move; on a "
                                "thing it can strike: attack", ""),
               ("e", "end the turn (asked again when a hero has not acted)", "end_turn"),
               ("t", "every enemy's threat on or off (the cursor on one: its own)",
                "threat")],
        STEPS: [("arrows", "step", ""),
                ("Enter, .", "wait a turn", "wait"),
                ("h", "hint: the solver's next move (2 s search)", "hint")],
        HEAPS: [("up, down", "choose a heap", ""),
                ("left, right", "choose how to take from it", ""),
                ("Enter", "take", "")],
    }[mode]
    common = [("u / r", "undo (back to your last action) / redo", ""),
              ("s", "save now (the game is saved after every action too)", "save"),
              ("space", "play the rest of the AI's turn at once", "skip"),
              ("p", "fold or show the side panel", ""),
              ("PgUp / PgDn", "scroll the log", ""),
              ("?", "this help (any key closes it; q quits)", ""),
              ("q", "quit" + (", saved: --resume FILE continues" if applies("save") else ""),
               "")]
    return [(keys, what) for keys, what, action in (*own, *common)
            if not action or applies(action)]
