"""The title menu's state: a stack of pages, a cursor on each, keys and clicks in, a `Launch`
out (no pyglet, no Textual; both clients share it).

`rulefront play` with no map opens it, in the window (game/render/menu_window.py) or the
terminal (game/text/menu.py); both draw `view()` and send `key(name)` (pyglet's key names:
UP, DOWN, LEFT, RIGHT, RETURN, ESCAPE, BACKSPACE, or a letter) and `click(row)`. The entries
come from data/menu.yaml; each names a kind of page, built by a function of
game/menu/pages.py's PAGES. When the player starts something, `launch` holds what to open; the
client opens it and, when that game is over or left, calls `returned(engine, launch)` (a
challenge won is scored there).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from game.menu.model import Entry, Launch, MenuView, Page, Row, menu_file
from game.session.settings import KEY_ACTIONS, Settings, difficulties, save_settings

if TYPE_CHECKING:
    from game.engine import Engine

UP, DOWN, LEFT, RIGHT = ("UP", "W"), ("DOWN", "S"), ("LEFT", "A"), ("RIGHT", "D")
ENTER = ("RETURN", "ENTER", "NUM_ENTER", "SPACE")
BACK = ("ESCAPE", "BACKSPACE", "Q")
TEXT_KEYS = ("UP", "DOWN", "RETURN", "ENTER", "NUM_ENTER", "ESCAPE", "TAB")  # on a text row


class MenuController:
    """The title menu's state: a stack of pages, a cursor on each, the settings."""

    def __init__(self, pages: dict[str, Callable[[MenuController, Entry], None]], seed: int,
                 settings: Settings, save_path: Path) -> None:
        self.pages = pages
        self.seed = seed
        self.settings = settings
        self.save_path = save_path
        self.entries, self.challenges, self.howto = menu_file(pages)
        self.stack: list[tuple[Page, int]] = []
        self.message = ""
        self.quit = False
        self.launch: Launch | None = None
        self.binding: str | None = None  # the action waiting for a key (Settings)
        self.version = 0
        self.open(self._main())

    # -- what is shown ----------------------------------------------------------------------

    @property
    def page(self) -> Page:
        return self.stack[-1][0]

    @property
    def cursor(self) -> int:
        return self.stack[-1][1]

    def view(self) -> MenuView:
        page, cursor = self.stack[-1]
        about = page.about(cursor) if page.about is not None and page.rows else ()
        footer = MenuView.footer
        if self.binding is not None:
            footer = f"press the key for {self.binding.replace('_', ' ')} (Escape: keep it)"
        return MenuView(page.title, tuple(page.rows), cursor, about, self.message, footer,
                        page.text)

    def take_launch(self) -> Launch | None:
        """The launch the player asked for, once (the client opens it)."""
        launch, self.launch = self.launch, None
        return launch

    # -- input ------------------------------------------------------------------------------

    def key(self, name: str) -> None:
        """A key press, named like pyglet's key names."""
        name = name.upper()
        if self.binding is not None:
            self._bind(name)
            return
        page, cursor = self.stack[-1]
        self.message = ""
        if self._typing_here():
            # a row that takes text: letters arrive through text(); only these keys act
            if name == "BACKSPACE":
                assert page.typing is not None
                page.typing(cursor, "\b")
                self.changed()
                return
            if name not in TEXT_KEYS:
                return
        if name in UP and page.rows:
            self._move(-1)
        elif name in DOWN and page.rows:
            self._move(1)
        elif name in LEFT and page.change is not None and page.rows:
            page.change(cursor, -1)
        elif name in RIGHT and page.change is not None and page.rows:
            page.change(cursor, 1)
        elif name in ENTER:
            self._activate(cursor)
        elif name in BACK:
            self.back()
        self.changed()

    def text(self, typed: str) -> None:
        """Text typed or pasted (with its case, as the window's on_text and the terminal's
        characters give it), for a row that takes text; elsewhere nothing."""
        if self.binding is None and self._typing_here() and typed:
            page, cursor = self.stack[-1]
            assert page.typing is not None
            if page.typing(cursor, typed):
                self.message = ""
                self.changed()

    def _typing_here(self) -> bool:
        page, cursor = self.stack[-1]
        return page.typing is not None and bool(page.rows) and page.typing(cursor, "")

    def click(self, row: int | None) -> None:
        """A click on row `row` of the page (None: elsewhere): choose it and open it; a
        value row (a seat, a setting) steps to its next value."""
        if self.binding is not None or row is None or not 0 <= row < len(self.page.rows):
            return
        self.message = ""
        self.stack[-1] = (self.page, row)
        page = self.page
        if page.change is not None and page.rows[row].detail and page.enter is None:
            page.change(row, 1)
        else:
            self._activate(row)
        self.changed()

    def point(self, row: int | None) -> None:
        """The mouse is over row `row` (None: no row): the cursor follows it."""
        if self.binding is not None or row is None or not 0 <= row < len(self.page.rows) \
                or row == self.cursor:
            return
        self.stack[-1] = (self.page, row)
        self.changed()

    def back(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        else:
            self.quit = True

    def returned(self, engine: Engine | None, launch: Launch) -> None:
        """The game `launch` opened is over or left: a challenge won is scored (the fewest
        rounds per player), and the page it came from shows again, rebuilt (the editor, which
        has no engine, may have saved a new map that its page must list)."""
        from game.session.challenge import goal_of, record_win

        outcome = engine.outcome if engine is not None else None
        goal = goal_of(engine.map) if engine is not None and launch.counts == "actions" \
            else None
        if launch.challenge and engine is not None and goal is not None:
            try:
                self.message = record_win(engine, goal, launch.challenge,
                                          self.settings.player) or ""
            except UserError as exc:
                self.message = str(exc)
        elif launch.challenge and engine is not None and outcome is not None:
            side = next(s for s, spec in launch.specs.items() if spec == "human")
            if outcome.winner == side:
                from game.session.match import current_round
                from game.session.scores import record_score

                rounds = current_round(engine)
                try:
                    record_score(self.challenge_key(launch.challenge), self.settings.player,
                                 rounds)
                    self.message = f"Challenge won in {rounds} rounds."
                except UserError as exc:
                    self.message = str(exc)
        self.refresh_page()

    # -- pages ------------------------------------------------------------------------------

    def open(self, page: Page) -> None:
        """Show `page` over the current one (Escape comes back)."""
        self.stack.append((page, 0))

    def _move(self, step: int) -> None:
        page, cursor = self.stack[-1]
        self.stack[-1] = (page, (cursor + step) % len(page.rows))

    def _activate(self, row: int) -> None:
        page = self.page
        if page.enter is not None and page.rows:
            page.enter(row)
        elif page.change is not None and page.rows:
            page.change(row, 1)

    def refresh_page(self) -> None:
        """Rebuild the pages on the stack (stars and saves may have changed), cursors kept."""
        rebuilt = []
        for page, cursor in self.stack:
            fresh = page.rebuild() if page.rebuild is not None else page
            rebuilt.append((fresh, min(cursor, max(0, len(fresh.rows) - 1))))
        self.stack = rebuilt
        self.changed()

    def _main(self) -> Page:
        from game.levels.maps import DEFAULT_MAP

        rows = []
        abouts = []
        for entry in self.entries:
            preview = None
            about = (entry.about,) if entry.about else ()
            if entry.rulesets:  # a picture of what the entry offers: its first map
                paths = [path for _name, path, _map in self.maps_of(entry.rulesets)]
                preview = DEFAULT_MAP if DEFAULT_MAP in paths else next(iter(paths), None)
            elif entry.page == "continue" and self.save_path.exists():
                preview, said = self.saved_game()  # the autosave's map, and what it holds
                about = (*about, said)
            rows.append(Row(entry.label, preview=preview))
            abouts.append(about)

        def enter(index: int) -> None:
            entry = self.entries[index]
            self.pages[entry.page](self, entry)

        return Page("Rulefront", rows, enter=enter, about=lambda i: abouts[i],
                    rebuild=self._main)

    def saved_game(self) -> tuple[Path | None, str]:
        """The autosave's map and a line on it (map, commands played, who plays), read
        without replaying it; a save that cannot be read says so (Continue then refuses it
        in its own sentence)."""
        from game.data import map_argument, parse_json, read_text

        try:
            raw = parse_json(read_text(self.save_path, "save"), self.save_path, "save")
            names = {"human": "Human", **{spec: name for name, spec in difficulties().items()}}
            seats = ", ".join(f"{side} {names.get(spec, spec)}"
                              for side, spec in dict(raw["seats"]).items())
            path = map_argument(str(raw["map"]))
            return path, (f"{path.stem}: {len(raw['commands'])} commands played; {seats}.")
        except (UserError, KeyError, TypeError, ValueError, AttributeError):
            return None, f"{self.save_path} cannot be read as a save."

    def changed(self) -> None:
        self.version += 1

    # -- shared by the pages ----------------------------------------------------------------

    def maps_of(self, rulesets: tuple[str, ...], sides: int | None = None,
                challenges: bool = False) -> list[Any]:
        """The shipped maps of `rulesets` (all when empty), as (name, path, GameMap), in the
        order `rulefront maps` lists them; `sides` keeps those of that many sides (2: games
        of sides, 1: one-player levels); `challenges` gives the maps whose sidecar states a
        challenge instead of the others (the Challenges page lists those)."""
        from game import registry
        from game.data import shipped_levels
        from game.levels.loader import load_game_map

        found = []
        for shipped in shipped_levels():
            try:
                game_map = load_game_map(shipped.path)
            except UserError:
                continue
            if rulesets and game_map.ruleset not in rulesets:
                continue
            if isinstance(game_map.sidecar.get("challenge"), dict) != challenges:
                continue
            count = len(registry.load_object(registry.spec(game_map.ruleset).factory).sides)
            if sides is not None and (count > 1) != (sides > 1):
                continue
            found.append((shipped.name, shipped.path, game_map))
        return found

    def seat_choices(self, ruleset: str) -> list[str]:
        """Human, the difficulty names, then every AI `rulefront ais` lists that can play
        `ruleset` (what it NEEDS, the ruleset offers)."""
        from game import registry
        from systems.ai.plugins import listing

        spec = registry.spec(ruleset)
        names = ["Human", *difficulties()]
        for row in listing():
            if not row.error and all(spec.has(need) for need in row.needs):
                names.append(row.name)
        return names

    def best(self, keys: list[str]) -> int | None:
        """The player's best count under any of `keys` in the score table."""
        from game.session.scores import load_scores

        try:
            table = load_scores()
        except UserError:
            return None
        found = [table[k][self.settings.player] for k in keys
                 if self.settings.player in table.get(k, {})]
        return min(found) if found else None

    @staticmethod
    def challenge_key(title: str) -> str:
        from game.session.challenge import score_key

        return score_key(title)

    def save(self, settings: Settings) -> None:
        """Keep a changed setting in the settings file at once."""
        self.settings = settings
        try:
            save_settings(settings)
        except UserError as exc:
            self.message = str(exc)

    def _bind(self, name: str) -> None:
        action, self.binding = self.binding, None
        if action is None or name == "ESCAPE":
            self.refresh_page()
            return
        keys = dict(self.settings.keys)
        for other in KEY_ACTIONS:  # the action that had this key takes the old one: a swap
            if other != action and self.settings.key_for(other) == name:
                keys[other] = self.settings.key_for(action)
        keys[action] = name
        keys = {a: k for a, k in keys.items() if k != KEY_ACTIONS[a]}
        self.save(self.settings.with_(keys=keys))
        self.refresh_page()
