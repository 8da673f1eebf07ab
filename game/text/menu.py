"""The title menu in the terminal: the same MenuController as the window's (game/menu/), drawn
with Textual, and the games it starts played in the full-screen client (game/text/app.py).

`rulefront play --text` with no map runs `run_text_menu`: the menu app runs until the player
starts something; that game runs in its own app; when it ends (q), the menu comes back on the
page it was started from. Thumbnails are the map in coloured half-blocks, two cells a line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from game.errors import UserError
from game.menu.controller import MenuController
from game.menu.model import Launch, MenuView, star_text
from game.session.settings import Settings

# Textual's key names -> the menu's (pyglet's) names.
KEYS = {"up": "UP", "down": "DOWN", "left": "LEFT", "right": "RIGHT", "enter": "RETURN",
        "escape": "ESCAPE", "backspace": "BACKSPACE", "space": "SPACE", "tab": "TAB"}
ROLE_COLOURS = {"red": "#d04848", "blue": "#4868d8", "word-noun": "#d070d0",
                "word-operator": "#e0e0e0", "word-property": "#e0a040", "thing": "#8a8a8a",
                "floor": "#3a3a40", "ball": "#ffff60", "exit": "#60ff60", "stack": "#b0b0b0"}
GLYPH_COLOURS = {"~": "#3070c0", "%": "#6a5a4a", "#": "#7a7a7a"}
THUMB_COLUMNS, THUMB_LINES = 44, 18


def key_name(key: str) -> str:
    """A Textual key as the menu names keys: 'up' -> 'UP', 'z' -> 'Z', 'f1' -> 'F1'."""
    return KEYS.get(key, key.upper())


def thumbnail(path: Path | None) -> Text:
    """The map at `path` in half-blocks (top cell the letter's colour, bottom its ground), or
    the ruleset's text board where there is no grid; empty when it cannot be read."""
    if path is None:
        return Text()
    from game.levels.loader import load_engine
    from game.text.board import cell_reader, cells

    try:
        engine = load_engine(path)
    except UserError:
        return Text()
    grid = cells(engine.world, cell_reader(engine))
    if not grid:
        return Text(engine.ruleset.text_board(engine.world))
    colour = [[GLYPH_COLOURS.get(c.text.strip()[:1], ROLE_COLOURS.get(c.role, "#505050"))
               if c.text.strip() else ROLE_COLOURS["floor"] for c in row] for row in grid]
    step = max(1, -(-len(colour[0]) // THUMB_COLUMNS), -(-len(colour) // (2 * THUMB_LINES)))
    rows = [row[::step] for row in colour[::step]]
    text = Text()
    for top in range(0, len(rows), 2):
        bottom = rows[top + 1] if top + 1 < len(rows) else None
        for x, upper in enumerate(rows[top]):
            lower = bottom[x] if bottom is not None else "#000000"
            text.append("\u2580", style=f"{upper} on {lower}")
        text.append("\n")
    return text


def page_text(view: MenuView) -> Text:
    """The rows of the page: the chosen one marked and bright, values and stars on the right."""
    text = Text()
    for index, row in enumerate(view.rows):
        chosen = index == view.cursor
        line = Text(("> " if chosen else "  ") + row.label,
                    style="bold #ffe050" if chosen else "")
        right = row.detail + (f"  {star_text(row.stars)}" if row.stars is not None else "")
        line.append(" " * max(1, 34 - len(line.plain) - len(right)) + right,
                    style="#a0a0a0" if not chosen else "bold #ffe050")
        text.append_text(line)
        text.append("\n")
    return text


def paragraphs(lines: tuple[str, ...]) -> str:
    """Lines written for the window's width, joined into paragraphs the terminal wraps to
    its own (a blank line still parts them)."""
    out: list[str] = []
    block: list[str] = []
    for line in (*lines, ""):
        if line.strip():
            block.append(" ".join(line.split()))
        elif block:
            out.append(" ".join(block))
            block = []
    return "\n\n".join(out)


class Row(Static):
    """One clickable line of the page."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, MenuApp):
            app.menu.click(self.index)
            app.after_input()


class MenuApp(App[Launch | None]):
    """One showing of the menu: returns the Launch the player chose, or None to quit."""

    CSS = """
    #title { height: 3; padding: 0 1; }
    #body { height: 1fr; }
    #rows { width: 38; padding: 0 1; }
    #rows Row { height: 1; }
    #side { width: 1fr; padding: 0 1; }
    #message { height: auto; color: #ffc878; padding: 0 1; }
    #footer { height: 1; color: #909090; padding: 0 1; }
    """

    def __init__(self, menu: MenuController) -> None:
        super().__init__()
        self.menu = menu
        self._shown: MenuView | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="body"):
            yield Vertical(id="rows")
            with VerticalScroll(id="side", can_focus=False):
                yield Static(id="thumb")
                yield Static(id="about")
        yield Static(id="message")
        yield Static(id="footer")

    def on_mount(self) -> None:
        self.title = "Rulefront"
        self.redraw()

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if self.menu.view().text and event.key in ("up", "down", "pageup", "pagedown"):
            side = self.query_one("#side", VerticalScroll)  # a page of prose scrolls
            side.scroll_relative(y=(-1 if "up" in event.key else 1)
                                 * (side.size.height if "page" in event.key else 1),
                                 animate=False)
            return
        self.menu.key(key_name(event.key))
        if event.is_printable and event.character:
            self.menu.text(event.character)  # a row that takes text (Join) gets the letter
        self.after_input()

    def on_paste(self, event: events.Paste) -> None:
        self.menu.text(event.text)
        self.after_input()

    def after_input(self) -> None:
        if self.menu.quit:
            self.exit(None)
            return
        launch = self.menu.take_launch()
        if launch is not None:
            self.exit(launch)
            return
        self.redraw()

    def redraw(self) -> None:
        view = self.menu.view()
        if view == self._shown:
            return
        old = self._shown
        self._shown = view
        title = Text("Rulefront", style="bold")
        title.append(f"   {view.title}" if view.title != "Rulefront" else
                     "   turn-based tactics, rules made of words", style="#a0a0a0")
        self.query_one("#title", Static).update(title)
        rows = self.query_one("#rows", Vertical)
        lines = list(page_text(view).split("\n"))
        if old is None or len(old.rows) != len(view.rows) or old.title != view.title:
            rows.remove_children()
            rows.mount_all([Row(i) for i in range(len(view.rows))])
            rows.call_after_refresh(self._fill_rows, lines)
        else:
            self._fill_rows(lines)
        chosen = view.rows[view.cursor] if view.rows else None
        preview = chosen.preview if chosen is not None else None
        if old is None or (old.rows[old.cursor].preview if old.rows else None) != preview:
            self.query_one("#thumb", Static).update(thumbnail(preview))
        rows.display = bool(view.rows) or not view.text  # prose takes the whole width
        side = Text(paragraphs(view.text) if view.text else "\n".join(view.about))
        self.query_one("#about", Static).update(side)
        self.query_one("#message", Static).update(view.message)
        self.query_one("#footer", Static).update(view.footer)

    def _fill_rows(self, lines: list[Text]) -> None:
        for row, line in zip(self.query(Row), lines, strict=False):
            row.update(line)


def run_text_menu(seed: int = 0, settings: Settings | None = None) -> int:
    """`rulefront play --text` with no map: the menu, the game it starts, the menu again."""
    from game.menu.pages import new_menu

    menu = new_menu(seed, settings)
    while True:
        launch = MenuApp(menu).run()
        if launch is None:
            return 0
        try:
            engine = play(menu, launch)
        except UserError as exc:
            menu.message = str(exc)
            menu.changed()
            continue
        if engine is not None:
            menu.returned(engine, launch)


def play(menu: MenuController, launch: Launch) -> Any:
    """Play what the menu launched in the full-screen client; the engine, once it is left
    (None when there is nothing to play here)."""
    from game.levels.loader import load_engine
    from game.session.match import make_seats
    from game.text.app import RulefrontApp, use_settings

    use_settings(menu.settings)
    if launch.kind == "edit":
        menu.message = (f"The map editor needs a window: rulefront edit {launch.path}"
                        + (f" --new {launch.new_size}" if launch.new_size else ""))
        menu.changed()
        return None
    if launch.kind == "online":
        return play_online(launch)
    seed = menu.seed if launch.seed is None else launch.seed
    save_path: Path | None = menu.save_path
    if launch.kind == "resume":
        from game.session.replay import read_record, rebuild
        from game.session.saves import resumed_seats

        record = read_record(launch.path)
        engine = rebuild(record, launch.path)
        seats = resumed_seats(engine, record, launch.path)
        seed = record.seed
    else:
        engine = load_engine(launch.path, seed=seed)
        specs = launch.specs or {side: "human" for side in engine.ruleset.sides}
        seats = make_seats(engine, specs, seed)
    if len(engine.ruleset.sides) == 1:
        save_path = None  # levels are not saved (their wins are scored)
    app = RulefrontApp(engine, seats, seed, save_path)
    app.run()
    if app.save_error is not None:
        raise UserError(f"{app.save_error.rstrip('.')}; the game stopped there.")
    if len(engine.ruleset.sides) == 1 and engine.outcome is not None \
            and engine.outcome.winner in engine.ruleset.sides:
        from game.session.scores import record_score

        record_score(str(launch.path), menu.settings.player, len(engine.history))
    return engine


def play_online(launch: Launch) -> Any:
    """A seat at a server's game (the menu's Host or Join), as `online play --text` plays it."""
    from game.net.link import take_seat
    from game.text.online import OnlineApp

    assert launch.url and launch.game and launch.token
    seated = take_seat(launch.url, launch.game, launch.token, launch.seat)
    try:
        OnlineApp(seated.mirror, seated.seats, seated.seed).run()
    finally:
        seated.mirror.link.close()
    return seated.mirror.engine


def menu_svg(path: Path, keys: list[str], size: tuple[int, int] = (100, 30)) -> Path:
    """A picture of the terminal menu after `keys` (Textual key names), with the default
    settings, as Textual draws it headless: `python -m game.text.menu FILE.svg [KEY ...]`."""
    import asyncio

    from game.levels.files import atomic_write
    from game.menu.pages import new_menu

    app = MenuApp(new_menu(0, Settings()))

    async def draw() -> str:
        async with app.run_test(size=size) as pilot:
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            return app.export_screenshot(title="rulefront play --text")

    atomic_write(path, asyncio.run(draw()).encode("utf-8"))
    return path


if __name__ == "__main__":
    import sys

    print(menu_svg(Path(sys.argv[1]), sys.argv[2:]))
