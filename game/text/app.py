"""The Textual terminal client: a board with a cursor, a side panel and a log of sentences.

`rulefront play --text` runs this when stdin and stdout are terminals (the plain client,
game/text/play.py, stays for --plain, scripts and pipes). It reads the world and the events,
and writes only by submitting commands the Cursor picked from the engine's legal actions, or
that an AI seat chose: the AI works in another process (game/session/think.py), so keys,
help, the panel and scrolling answer while it thinks, and its command is submitted here. A
level's hint is looked for in that process too, and shown only if the board has not changed.
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

from rich.color import Color
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from components import Actions, Health, Moves, Team, UnitClass
from components.match import DRAW, PLAYER
from game.commands import Command, Wait
from game.engine import Engine, Impossible
from game.errors import UserError
from game.events import RuleBroken, RuleFormed, TurnEnded
from game.session.challenge import goal_of
from game.session.match import Seat
from game.session.narrate import Chronicle, Told, name_of
from game.session.rulesense import changes, panel_lines
from game.session.saves import save_game
from game.session.seat import Forfeited
from game.session.settings import Settings
from game.session.think import Hinted, Outcome, Thinker, Worker
from game.session.undo import redo_turn, undo_turn
from game.text.board import (
    CELL,
    Cell,
    cell_reader,
    cells,
    glyph,
    grid_size,
    legend,
    rules_in_force,
)
from game.text.cursor import GRID, HEAPS, STEPS, Cursor, key_help
from systems.ai import Budget
from systems.rules import sentences

AI_DELAY = 0.4  # seconds between an AI's actions: a readable pace
POLL = 0.05  # seconds between looks at whether the thinking AI has answered
HINT_SECONDS = 2.0  # the solver's budget for a level's hint
ROLE_STYLES = {
    "red": "bold white on #a03030", "blue": "bold white on #3050b0",
    "word-noun": "bold #ffa0ff on #402040", "word-operator": "bold white on #404040",
    "word-property": "bold #ffc060 on #403010",
    "thing": "#a0a0a0", "floor": "#505050", "ball": "bold #ffff60", "exit": "bold #60ff60",
    "stack": "#d0d0d0",
}
SHADES = ["#202020", "#303030", "#404040", "#505050", "#606060", "#707070", "#808080",
          "#909090", "#a0a0a0", "#b0b0b0"]
STYLES = {role: Style.parse(spec) for role, spec in ROLE_STYLES.items()}
SHADE_STYLES = [Style(bgcolor=shade) for shade in SHADES]
PLAIN, LABEL = Style(), Style(color="#808080")
# moves blue, attacks red, as the genre has it; the enemies' threat in the same hues, darker
REACH, TARGET = Style(bgcolor="#2a5cd0"), Style(bgcolor="#c02828", bold=True)
THREAT_MOVE, THREAT_STRIKE = Style(bgcolor="#1e3466"), Style(bgcolor="#5c1e1e")
HEADING = Style(bold=True, color="#ffe060")
# the cells of a sentence the last command formed (bright yellow) or broke (red, struck)
RULE_FORMED = Style(bgcolor="#a08000", bold=True)
RULE_BROKEN = Style(bgcolor="#902020", strike=True)
Place = tuple[int, int]
# The colour-blind palette (Settings): Okabe and Ito's orange and sky blue for the sides,
# blue for reach and vermillion for targets, as in the window (game/render/colors.py).
COLOUR_BLIND = {"red": "bold black on #e69f00", "blue": "bold black on #56b4e9"}
COLOUR_BLIND_REACH, COLOUR_BLIND_TARGET = (Style(bgcolor="#0072b2"),
                                           Style(bgcolor="#d55e00", bold=True))
COLOUR_BLIND_THREAT = (Style(bgcolor="#00324f"), Style(bgcolor="#5e2900"))  # darker, likewise
_STANDARD = (dict(STYLES), REACH, TARGET, THREAT_MOVE, THREAT_STRIKE)
# The settings' key bindings, as Textual keys -> this app's actions (the defaults stay too).
ACTIONS = {"undo": "undo", "redo": "redo", "end_turn": "end_turn", "save": "save",
           "help": "help", "quit": "quit_game", "hint": "hint", "pause": "skip"}
bound: dict[str, str] = {}


def use_settings(settings: Settings) -> None:
    """Take the player's settings (game/session/settings.py): the palette's colours and the
    keys bound to actions, for the apps made from now on."""
    global REACH, TARGET, THREAT_MOVE, THREAT_STRIKE
    styles, REACH, TARGET, THREAT_MOVE, THREAT_STRIKE = _STANDARD
    STYLES.clear()
    STYLES.update(styles)
    if settings.palette == "colour-blind":
        STYLES.update({role: Style.parse(spec) for role, spec in COLOUR_BLIND.items()})
        REACH, TARGET = COLOUR_BLIND_REACH, COLOUR_BLIND_TARGET
        THREAT_MOVE, THREAT_STRIKE = COLOUR_BLIND_THREAT
    bound.clear()
    bound.update({key.lower(): ACTIONS[action] for action, key in settings.keys.items()
                  if action in ACTIONS})
SELECTED = Style(underline=True)
CURSOR = Style(color="black", bgcolor="#ffe040", bold=True)  # bright: found at a glance
CHECKER = (Style(bgcolor="#1c1c1c"), Style(bgcolor="#2c2c2c"))  # cells alternate, so
DARKER = 0.55  # neighbours never run together (S7T20): the odd cells' colours are darker
HELP = {
    # Three rows of an 80x24 board pane hold it whole; the footer and ? give the other keys.
    GRID: ("arrows or the mouse move the cursor; Enter or a click selects a unit (reach in "
           "blue, targets in red) and acts; e ends the turn"),
    STEPS: ("arrows step; Enter or . wait (where the level has waiting); h hint (the "
            "solver's next move, where the level has one)"),
    HEAPS: "up/down choose a heap; left/right choose how to take from it; Enter takes",
}


class Board(Widget):
    """The board: coordinates on the edges, CELL characters a cell, the cursor and choices."""

    def __init__(self, engine: Engine, cursor: Cursor) -> None:
        super().__init__()
        self.engine = engine
        self.cursor = cursor
        self._cells: tuple[tuple[int, int, object], list[list[Cell]]] | None = None
        self._drawn: tuple[object, Text] | None = None
        self.read = cell_reader(engine)  # the ruleset's own cells first (its text_cell edge)
        size = grid_size(engine.world)
        if size is not None and cursor.mode != HEAPS:
            self.styles.width = CELL * (size[0] + 1)
            self.styles.height = size[1] + 1

    def render(self) -> Text:
        if self.cursor.mode == HEAPS:
            return heaps_text(self.engine, self.cursor)
        world, cursor = self.engine.world, self.cursor
        if self._cells is None or not world.same_version(self._cells[0]):
            self._cells = (world.version(), cells(world, self.read))  # the world changed
            self._drawn = None
        shown = (cursor.selected, cursor.threat())
        if self._drawn is None or self._drawn[0] != shown:
            # everything but the cursor, drawn again only when the world, the selection or
            # the threat shown changes
            self._drawn = (shown, board_text(self.engine, cursor, self._cells[1],
                                             with_cursor=False))
        if cursor.mode != GRID:
            return self._drawn[1]  # levels have no cursor: the player is on the board
        text = self._drawn[1].copy()
        width = len(self._cells[1][0]) if self._cells[1] else 0
        start = (CELL * (width + 1) + 1) * (cursor.y + 1) + CELL * (cursor.x + 1)
        text.stylize(CURSOR, start, start + CELL)
        return text

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The mouse over an enemy shows its threat, as the cursor on it does."""
        cell = self._cell_at(event.x, event.y)
        if cell != self.cursor.hovered:
            self.cursor.hovered = cell
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self.cursor.hovered is not None:
            self.cursor.hovered = None
            self.refresh()

    def _cell_at(self, x: int, y: int) -> tuple[int, int] | None:
        size = grid_size(self.engine.world) or (0, 0)
        cx, cy = x // CELL - 1, y - 1
        if self.cursor.mode == GRID and 0 <= cx < size[0] and 0 <= cy < size[1]:
            return cx, cy
        return None

    def on_click(self, event: events.Click) -> None:
        if self.cursor.mode != GRID:
            return
        x, y = event.x // CELL - 1, event.y - 1
        size = grid_size(self.engine.world) or (0, 0)
        if 0 <= x < size[0] and 0 <= y < size[1]:
            app = self.app
            if isinstance(app, RulefrontApp):
                app.act(self.cursor.click(x, y))


def board_text(engine: Engine, cursor: Cursor, grid: list[list[Cell]] | None = None,
               with_cursor: bool = True) -> Text:
    """The grid as styled text (pure: the bench and the tests call it without an app)."""
    if grid is None:
        grid = cells(engine.world, cell_reader(engine))
    reach, targets = cursor.reach(), cursor.targets()
    threat_moves, threat_strikes = cursor.threat()
    selected = cursor._cell_of(cursor.selected) if cursor.selected is not None else None
    here = (cursor.x, cursor.y) if cursor.mode == GRID and with_cursor else None
    text = Text(" " * CELL)
    for x in range(len(grid[0]) if grid else 0):
        text.append(f"{x:^{CELL}}", style=LABEL)
    for y, row in enumerate(grid):
        text.append(f"\n{y:>{CELL - 1}} ", style=LABEL)
        for x, cell in enumerate(row):
            style = STYLES.get(cell.role, PLAIN)
            if cell.height:
                style = style + SHADE_STYLES[min(cell.height, len(SHADES) - 1)]
            style = checkered(style, (x + y) % 2)
            if (x, y) in threat_moves:
                style = style + THREAT_MOVE
            elif (x, y) in threat_strikes:
                style = style + THREAT_STRIKE
            if (x, y) in reach:
                style = style + REACH
            if (x, y) in targets:
                style = style + TARGET
            if (x, y) in cursor.flash:  # a sentence the last command formed or broke
                style = style + (RULE_BROKEN if cursor.flash[(x, y)] == "broken" else RULE_FORMED)
            if (x, y) == selected:
                style = style + SELECTED
            if (x, y) == here:
                style = style + CURSOR
            text.append(f"{cell.text:^{CELL}}", style=style)  # "S7 " not " S7": a gap
    return text


@cache
def checkered(style: Style, odd: int) -> Style:
    """`style` on the chequer of its cell: floor-like cells get the chequer's ground, coloured
    ones keep their colour, a shade darker on odd cells."""
    if style.bgcolor is None:
        return CHECKER[odd] + style
    if not odd:
        return style
    r, g, b = style.bgcolor.get_truecolor()
    return style + Style(bgcolor=Color.from_rgb(r * DARKER, g * DARKER, b * DARKER))


def heaps_text(engine: Engine, cursor: Cursor) -> Text:
    """Heaps, one a line of the ruleset's text board, the chosen heap marked, and the take
    Enter would play."""
    text = Text()
    take = cursor.chosen_take()
    for index, line in enumerate(engine.ruleset.text_board(engine.world).splitlines()):
        mark = ">" if index == cursor.heap else " "
        text.append(f"{mark}{line}\n", style="bold" if index == cursor.heap else "")
    if take is not None:
        text.append(f"\nEnter: {engine.ruleset.describe_command(engine.world, take)}",
                    style="bold #ffb040")
    return text


def panel_text(engine: Engine, seats: dict[str, Seat], ready: list[int] | None = None) -> Text:
    """The side panel: who plays, the units that can still act (`ready`), each unit's
    HP/MP/AP, the rules with this turn's changes."""
    world = engine.world
    text = Text(engine.ruleset.describe(world) + "\n", style="bold")
    for side, seat in seats.items():
        if side != PLAYER:
            text.append(f"{side}: {seat.spec}\n", style=ROLE_STYLES.get(side, ""))
    if ready:
        text.append("ready: " + ", ".join(f"{glyph(world, unit)} "
                                          f"{world.get(unit, UnitClass).name}"
                                          if world.has(unit, UnitClass) else name_of(world, unit)
                                          for unit in ready) + "\n", style="bold #80ff80")
    for entity, (team, health) in world.query(Team, Health):
        if world.try_get(entity, UnitClass) is None:
            continue
        moves, acts = world.try_get(entity, Moves), world.try_get(entity, Actions)
        line = f"{glyph(world, entity)} {world.get(entity, UnitClass).name:<8} hp {health.hp:>2}"
        if moves is not None and acts is not None:
            line += f" mp {moves.mp} ap {acts.ap}"
        text.append(line + "\n", style="#ff8080" if team.side == "red" else "#80a0ff")
    formed, broken = rule_changes(engine)
    rules = rules_in_force(world)
    if rules or broken:
        text.append("rules in force:\n", style="bold")
        for line, role, rule in panel_lines(world):
            if role in ("heading", "none"):
                text.append(f" {line}\n", style="#a0a0a0")
            else:
                text.append(f"  {line}\n", style="bold #60ff60" if rule in formed else "")
    for rule in broken:
        if rule not in rules:
            text.append(f"  {rule} (broken)\n", style="strike #ff6060")
    for line in legend(world):
        text.append(line + "\n", style="#a0a0a0")
    return text


def flash_cells(engine: Engine, spelled: dict[str, tuple[Place, ...]]) -> dict[Place, str]:
    """The cells of the sentences the last command changed, from its events: where a formed
    rule stands now, where a broken one stood (`spelled`, read before the command)."""
    found = changes(engine.history[-1].events) if engine.history else {}
    if not found:
        return {}
    now = sentences(engine.world)
    cells: dict[Place, str] = {}
    for rule, kind in sorted(found.items()):
        for cell in (now if kind == "formed" else spelled).get(rule, ()):
            cells.setdefault(cell, kind)
    return cells


def rule_changes(engine: Engine) -> tuple[set[str], set[str]]:
    """Rules formed and broken this turn (since the last end of turn)."""
    formed: set[str] = set()
    broken: set[str] = set()
    for entry in reversed(engine.history):
        if any(isinstance(e, TurnEnded) for e in entry.events) and entry is not engine.history[-1]:
            break
        for event in entry.events:
            if isinstance(event, RuleFormed):
                formed.add(event.rule)
            elif isinstance(event, RuleBroken):
                broken.add(event.rule)
    return formed, broken


class HandOver(ModalScreen[None]):
    """Hotseat: the board is hidden until the next player takes the keyboard."""

    DEFAULT_CSS = "HandOver { background: $background; }"  # opaque: the board stays hidden
    BINDINGS = [Binding("enter", "dismiss", "ready")]

    def __init__(self, side: str) -> None:
        super().__init__()
        self.side = side

    def compose(self) -> ComposeResult:
        yield Static(f"Hand over to {self.side}.\n\nPress Enter when {self.side} is ready.",
                     id="handover")


class HelpScreen(ModalScreen[None]):
    """`?`: the keys that apply to this game, in a box that fits 80x24; any key closes it
    (but q, which quits as ever)."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: auto; max-width: 78; height: auto; max-height: 22; padding: 0 1;
            border: round #ffe040; background: #202020; }
    """

    def __init__(self, lines: list[tuple[str, str]], title: str) -> None:
        super().__init__()
        self.lines = lines
        self.title_line = title

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 2))
        table.title, table.title_style, table.title_justify = self.title_line, \
            "bold #ffe040", "left"
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for keys, what in self.lines:
            table.add_row(keys, what)
        yield Static(table, id="help")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss()
        app = self.app
        if (event.key == "q" or bound.get(event.key) == "quit_game") \
                and isinstance(app, RulefrontApp):
            app.action_quit_game()  # q (or the player's quit key) still quits

    def on_click(self, event: events.Click) -> None:
        self.dismiss()


class RulefrontApp(App[int]):
    """One game in the terminal. Humans use the cursor; AI seats play step by step."""

    CSS = """
    #main { height: 1fr; }
    #boardbox { width: 1fr; }
    #panel { width: 29; border-left: solid #606060; }
    #panel.folded { display: none; }
    Screen.-narrow #panel { display: none; }
    Screen.-narrow #panel.shown { display: block; width: 100%; }
    #info { height: auto; }
    #log { height: 1fr; min-height: 4; }
    #status { height: auto; max-height: 3; background: #303030; }
    #handover { width: 100%; height: 100%; content-align: center middle; }
    """
    BINDINGS = [
        # priority: the arrows move the cursor even when a scrolling pane has the focus
        Binding("up", "arrow(0, -1)", "up", show=False, priority=True),
        Binding("down", "arrow(0, 1)", "down", show=False, priority=True),
        Binding("left", "arrow(-1, 0)", "left", show=False, priority=True),
        Binding("right", "arrow(1, 0)", "right", show=False, priority=True),
        Binding("enter", "activate", "act"),
        Binding("enter", "wait", "wait"),  # levels: whichever of the two applies is offered
        Binding("full_stop", "wait", "wait", show=False),
        Binding("e", "end_turn", "end turn"),
        Binding("t", "threat", "threat"),
        Binding("pageup", "log_page(-1)", "log back", show=False),
        Binding("pagedown", "log_page(1)", "log forward", show=False),
        Binding("u", "undo", "undo"),
        Binding("r", "redo", "redo"),
        Binding("s", "save", "save"),
        Binding("h", "hint", "hint"),
        Binding("space", "skip", "skip AI", show=False),
        Binding("p", "fold", "panel", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit_game", "quit"),
    ]

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int,
                 save_path: Path | None, ai_delay: float = AI_DELAY,
                 thinker: Thinker | None = None, log: list[Told] | None = None) -> None:
        super().__init__()
        self.thinker: Thinker = thinker if thinker is not None else Worker()
        self.asked: float | None = None  # when the AI to play was asked (time.monotonic())
        self.next_ai = time.monotonic() + ai_delay  # an AI acts no sooner (a readable pace)
        self.held: Outcome | None = None  # the AI's answer, kept until its pace allows
        self.skipping = False  # space: the rest of the AI's turn at once
        self.quit_armed: int | None = None  # a level's quit asked at this many moves
        self.hint_asked: tuple[int, int, object] | None = None  # the position a hint is for
        self.hint_since = 0.0  # when it was asked (time.monotonic())
        self.engine = engine
        self.seats = seats
        self.seed = seed
        self.save_path = save_path
        self.ai_delay = ai_delay
        self.cursor = Cursor(engine)
        self.chronicle = Chronicle(engine, log)  # the game's log, each command told once
        self._logged = 0  # rows of the chronicle written to the log widget
        self._cuts = self.chronicle.cuts  # its cuts (undos) the widget has caught up with
        self.humans = [s for s, seat in seats.items() if seat.ai is None] or [PLAYER]
        self.last_human = engine.side
        self._shown: tuple[int, int, object] | None = None  # the world state the panel shows
        self._status = ""

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="boardbox"):
                with ScrollableContainer(id="scroll", can_focus=False):
                    yield Board(self.engine, self.cursor)
                yield Static(id="status")
            with Vertical(id="panel"):
                yield Static(id="info")
                yield RichLog(id="log", wrap=True, markup=False, min_width=1)  # wrap to the
                # panel (RichLog's own min_width of 78 cut "moves to 18,21" at "18,2")
        yield Footer()

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (64, "-wide")]  # fold the panel under 64
    forfeit: Forfeited | None = None  # a seat gave up (game/session/seat.py): no AI plays on

    def on_mount(self) -> None:
        for key, action in bound.items():  # the player's bindings, beside the defaults
            self.bind(key, action, show=False)
        self.title = "Rulefront"
        self.write_log()
        self.log_line(f"{self.engine.ruleset.describe(self.engine.world)}. Press ? for keys.")
        goal = goal_of(self.engine.map)
        if goal is not None:  # the task: in the log, and on the status line until a key
            self.log_line(f"Challenge: {goal.brief}")
            if not self.engine.history:
                self.cursor.message = f"Challenge: {goal.brief}"
        if self.ai_plays:
            self.thinker.prepare()  # started now, not when the AI's turn comes (a level's
            # first hint starts it: most levels are played without one)
        self.set_interval(min(self.ai_delay, POLL), self.tick)
        self.refresh_view()

    def on_unmount(self) -> None:
        self.thinker.close()  # a think in progress is stopped, not waited for

    # -- drawing -----------------------------------------------------------------------------

    @property
    def board_screen(self) -> Screen:
        """The screen the board, panel and log are on: the help box and the hand-over screen
        go above it, and an AI's action may arrive while they are up."""
        return self.screen_stack[0]

    def log_line(self, line: str) -> None:
        self.board_screen.query_one("#log", RichLog).write(line)

    def write_log(self) -> None:
        """Bring the log widget up to date with the chronicle: new rows are added; after an
        undo the log is written again from the start (notes like help lines go with it)."""
        log = self.board_screen.query_one("#log", RichLog)
        rows = self.chronicle.rows()
        if self._cuts != self.chronicle.cuts:
            log.clear()
            self._logged, self._cuts = 0, self.chronicle.cuts
        for kind, text in rows[self._logged:]:
            log.write(Text(text, style=HEADING) if kind == "heading" else Text(text))
        self._logged = len(rows)

    def follow(self) -> None:
        """The chronicle catches up with the engine (after a command, an undo or a redo)."""
        self.cursor.flash = {}
        if self.chronicle.follow():
            self.write_log()

    def refresh_view(self) -> None:
        """Redraw what a key changed: the board always, the panel only when the world did,
        the status line when its words did (a relayout for each would cost every key)."""
        board = self.board_screen.query_one(Board)
        board.refresh()
        world = self.engine.world
        if self._shown is None or not world.same_version(self._shown):
            self._shown = world.version()
            ready = self.cursor.units() if self.human_to_play() else []
            self.board_screen.query_one("#info", Static).update(panel_text(self.engine, self.seats, ready))
            self.refresh_bindings()  # a key may apply now, or no more (waiting)
        status = self.cursor.message or self.prompt()
        if status != self._status:
            self._status = status
            self.board_screen.query_one("#status", Static).update(status)
        if self.cursor.mode == GRID:
            scroll = self.board_screen.query_one("#scroll", ScrollableContainer)
            scroll.scroll_to_region(Region(CELL * self.cursor.x, self.cursor.y, 3 * CELL, 3),
                                    animate=False)

    def prompt(self) -> str:
        engine = self.engine
        outcome = engine.outcome
        if outcome is not None:
            winner = "nobody" if outcome.winner == DRAW else outcome.winner
            return f"game over: {winner} ({outcome.reason}); u undo, q leave"
        seat = self.seats.get(engine.side)
        if seat is not None and self.ai_to_play():
            if self.asked is None:
                return f"{engine.side} ({seat.spec}) plays; space plays the rest of its turn"
            seconds = int(time.monotonic() - self.asked)
            rest = "" if self.skipping else "; space plays the rest of its turn at once"
            return f"{engine.side} ({seat.spec}) is thinking ({seconds}s){rest}"
        if self.hint_asked is not None:
            seconds = int(time.monotonic() - self.hint_since)
            return f"looking for a hint\u2026 ({seconds}s); u undo or a move stops it"
        if self.cursor.mode == GRID and self.cursor.selected is not None:
            foreseen = self.cursor.rule_preview()
            if foreseen:  # a push of words under the cursor: what it does to the rules
                return "Enter pushes: " + "; ".join(foreseen)
            return (f"{name_of(engine.world, self.cursor.selected)} selected: Enter on a blue "
                    "cell moves, on a red one attacks")
        return f"{engine.side} to play: {HELP[self.cursor.mode]}"

    # -- acting ------------------------------------------------------------------------------

    def act(self, command: Command | None) -> None:
        """Submit a human's command (the world is untouched when it is refused)."""
        if command is not None and not self.ai_to_play():
            self.submit(command)
        self.refresh_view()

    def submit(self, command: Command) -> bool:
        spelled = sentences(self.engine.world)  # where the word rules stand before it
        result = self.engine.submit(command)
        if isinstance(result, Impossible):
            self.cursor.after(result)
            return False
        self.stop_hint()  # the position it was sought for is gone
        self.follow()
        self.cursor.flash = flash_cells(self.engine, spelled)
        self.next_ai = time.monotonic() + self.ai_delay  # the next AI action's readable pace
        self.cursor.after(None)
        self.autosave()
        self.maybe_hand_over()
        return True

    save_error: str | None = None  # why the last save failed: the app stops, run_app says it

    def autosave(self) -> bool:
        """Save the game (games of sides only); a failed write (a full disk, a folder gone
        read-only) stops the app with its sentence, which `play` prints before exiting 2; the
        last good save is left whole by the writer, so no move is claimed saved that is not."""
        if self.save_path is None or PLAYER in self.seats or self.save_error is not None:
            return False
        try:
            save_game(self.save_path, self.engine, self.seats, self.seed, self.forfeit,
                      self.chronicle.told())
        except UserError as exc:
            self.save_error = str(exc)
            self.exit(2)
            return False
        return True

    def maybe_hand_over(self) -> None:
        side = self.engine.side
        if len(self.humans) > 1 and not self.engine.over and side != self.last_human \
                and side in self.humans:
            self.push_screen(HandOver(side))
        if side in self.humans:
            self.last_human = side

    def human_to_play(self) -> bool:
        seat = self.seats.get(self.engine.side)
        return not self.engine.over and (seat is None or seat.ai is None)

    def ai_to_play(self) -> bool:
        seat = self.seats.get(self.engine.side)
        return not self.engine.over and seat is not None and seat.ai is not None \
            and PLAYER not in self.seats and self.forfeit is None and self.save_error is None

    def tick(self) -> None:
        """Every POLL seconds: take a hint that has come, or let the AI play."""
        if self.hint_asked is not None:
            self.hint_step()
        else:
            self.ai_step()

    def hint_step(self) -> None:
        """Show the solver's hint when it has come, if the board is where it was asked."""
        found = self.thinker.poll_hint()
        if found is None:
            self.show_status()  # the indicator's seconds
            return
        asked, self.hint_asked = self.hint_asked, None
        if asked is not None and self.engine.world.same_version(asked):
            self.cursor.message = self.hint_text(found)
        self.refresh_view()

    def hint_text(self, found: Hinted) -> str:
        if found.failure:
            return f"No hint: {found.failure}."
        if not found.solved:
            return ("No way to win from here: undo." if found.exhausted
                    else "The solver found no win from here in time.")
        first = self.engine.ruleset.describe_command(self.engine.world, found.commands[0])
        return f"hint: {first} ({len(found.commands)} moves to go)"

    def ai_step(self) -> None:
        """Ask the AI to play, or take its answer when it has come: one action at a time, at
        its readable pace (at once after space), so its turn reads step by step. The search
        runs in the thinker's process; this never waits for it."""
        if not self.ai_to_play():
            self.skipping = False
            return
        now = time.monotonic()
        paced = now >= self.next_ai or self.skipping
        if self.asked is None:
            if self.engine.redo_stack:  # what it played here before an undo, played again
                if paced:
                    self.replay()
                return
            self.asked = now  # thinking starts at once; the answer waits for the pace
            self.thinker.ask(self.engine, self.seats[self.engine.side], Budget())
        if self.held is None:
            self.held = self.thinker.poll()
        if self.held is None or not paced:
            self.show_status()  # the indicator's seconds
            return
        outcome, self.held, self.asked = self.held, None, None
        if isinstance(outcome, Forfeited):
            self.forfeit = outcome  # no AI is asked again: the game is over
            self.cursor.message = f"game over: {outcome.sentence}"
            self.log_line(self.cursor.message)
            self.autosave()
        else:
            self.submit(outcome.command)
        self.refresh_view()

    def show_status(self) -> None:
        """Only the status line (the thinking indicator); nothing while the app closes."""
        status = self.cursor.message or self.prompt()
        if status != self._status:
            try:
                self.board_screen.query_one("#status", Static).update(status)
            except NoMatches:
                return
            self._status = status

    def replay(self) -> None:
        self.engine.redo()
        self.follow()
        self.next_ai = time.monotonic() + self.ai_delay
        self.cursor.after(None)
        self.autosave()
        self.refresh_view()

    def action_skip(self) -> None:
        """Play the rest of the AI's turn at once (each action as soon as it is chosen)."""
        if self.ai_to_play():
            self.skipping = True
            self.ai_step()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """While the hand-over screen hides the board, only Enter (on it) and q do anything;
        keys that mean nothing in this game are neither offered in the footer nor taken."""
        if isinstance(self.screen, HandOver):
            return action in ("quit_game", "quit")
        return self.applies(action)

    @property
    def ai_plays(self) -> bool:
        """An AI seat plays in this game (a level's one seat is the player's, whatever it
        names)."""
        return PLAYER not in self.seats and any(s.ai is not None for s in self.seats.values())

    def applies(self, action: str) -> bool:
        """Whether a key's action means something in this game, as its ruleset's spec says
        (input mode, capabilities, edges) and its seats and save: no end of turn where a turn
        is one action, no save for levels, no hint without search hooks, no wait where none
        is legal, no skip without an AI, no threat without the `threat` edge."""
        from game import registry

        spec = registry.spec(self.engine.ruleset.name)
        mode = self.cursor.mode
        if action == "end_turn":
            return mode == GRID and spec.capabilities.multi_action_turns
        if action == "save":
            return self.save_path is not None and PLAYER not in self.seats
        if action == "skip":
            return self.ai_plays
        if action == "hint":
            return mode == STEPS and spec.has("search_hooks")
        if action == "activate":
            return mode != STEPS
        if action == "wait":
            return mode == STEPS and any(isinstance(c, Wait) for c in self.cursor.legal())
        if action == "threat":
            return mode == GRID and spec.has("threat")
        return True

    def action_arrow(self, dx: int, dy: int) -> None:
        self.act(self.cursor.move(dx, dy))

    def action_activate(self) -> None:
        self.act(self.cursor.activate())

    def action_wait(self) -> None:
        self.act(self.cursor.activate())  # in steps mode Enter waits

    def action_end_turn(self) -> None:
        self.act(self.cursor.end_turn())

    def human(self, side: str) -> bool:
        seat = self.seats.get(side)
        return seat is None or seat.ai is None

    def stop_thinking(self) -> None:
        if self.asked is not None:
            self.thinker.cancel()
            self.asked = self.held = None
        self.skipping = False
        self.stop_hint()

    def stop_hint(self) -> None:
        """Stop looking for a hint the player made moot (undo, redo, a move, quitting)."""
        if self.hint_asked is not None:
            self.thinker.cancel()
            self.hint_asked = None

    def action_undo(self) -> None:
        """Undo back to the last human action (an AI's actions are undone with it)."""
        engine = self.engine
        self.stop_thinking()
        if not undo_turn(engine, self.human):
            self.cursor.message = "Nothing to undo."
        else:
            self.follow()
            self.cursor.after(None)
            self.cursor.message = f"undone; {len(engine.history)} actions played"
            self.autosave()
        self.refresh_view()

    def action_redo(self) -> None:
        """Redo the human's action and replay the AI's undone replies as they were."""
        self.stop_thinking()
        if not redo_turn(self.engine, self.human):
            self.cursor.message = "Nothing to redo."
        else:
            self.follow()
            self.cursor.after(None)
            self.autosave()
        self.refresh_view()

    def action_save(self) -> None:
        if self.save_path is None or PLAYER in self.seats:
            self.cursor.message = "Levels are not saved; replay them from the start."
        elif self.autosave():
            self.cursor.message = f"saved to {self.save_path}"
        self.refresh_view()

    def action_hint(self) -> None:
        """Levels: the solver's next move from here (rulesets with search hooks), looked for
        in the thinking process; `hint_step` shows it when it comes."""
        if not self.applies("hint") or self.hint_asked is not None:
            return  # already looking: the status line says so
        if self.engine.over:
            self.cursor.message = "The level is over; undo first to get a hint."
        else:
            self.hint_asked = self.engine.world.version()
            self.hint_since = time.monotonic()
            self.cursor.message = ""
            self.thinker.ask_hint(self.engine, HINT_SECONDS)
        self.refresh_view()

    def action_threat(self) -> None:
        self.cursor.toggle_threats()
        self.refresh_view()

    def action_log_page(self, pages: int) -> None:
        log = self.board_screen.query_one("#log", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_fold(self) -> None:
        narrow = self.screen.has_class("-narrow")
        self.board_screen.query_one("#panel").toggle_class("shown" if narrow else "folded")

    def action_help(self) -> None:
        self.push_screen(HelpScreen(key_help(self.cursor.mode, self.applies),
                                    f"Keys ({self.engine.ruleset.describe(self.engine.world)})"))

    def action_quit_game(self) -> None:
        """Quit, saving first; a level (never saved) with moves played asks first."""
        engine = self.engine
        unsaved = PLAYER in self.seats and engine.history and not engine.over
        if unsaved and self.quit_armed != len(engine.history):
            self.quit_armed = len(engine.history)
            moves = len(engine.history)
            self.cursor.message = (f"quit? this level is not saved ({moves} move"
                                   f"{'s' if moves > 1 else ''} played): q again quits, a "
                                   "move keeps playing")
            self.refresh_view()
            return
        self.stop_thinking()
        self.autosave()
        if self.save_error is None:
            self.exit(0)

    async def action_quit(self) -> None:
        """Textual's own quit key (Ctrl+Q) goes the same way as q."""
        self.action_quit_game()
