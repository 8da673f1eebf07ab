"""The map editor's controller: paint palette colours on a grid, check, save (no pyglet).

A draft is the map as the PNG will hold it: size, cell -> colour, sidecar. Saving first runs
the same checks as `rulefront map check` (the map must load and its ruleset must set it up);
a draft that fails is not written and the sentence is shown instead. The draft differs from
the file on disk until it is saved (`dirty`): quitting then asks first, and P saves the map
and opens a match on it in a window of its own.
"""

from __future__ import annotations

import copy
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import registry
from game.data import SIDES, Color, PaletteEntry, palette, words
from game.engine import Engine
from game.errors import UserError
from game.levels.maps import MAX_SIDE, GameMap, load_map, write_map
from game.render.uiview import Cell
from game.session.settings import Settings

FIELDS = ("name", "ruleset", "heroes", "turn_limit")
TOOLS = ("paint", "erase", "rect")
KEY_ACTIONS = ("undo", "redo", "save", "quit")  # the settings' actions the editor has
ASK_QUIT = ("Unsaved changes", "{save}: save and quit", "D: quit without saving",
            "Esc (or any other key): keep editing")


@dataclass
class Draft:
    width: int
    height: int
    cells: dict[Cell, Color] = field(default_factory=dict)  # non-floor cells only
    sidecar: dict[str, Any] = field(default_factory=dict)


def load_draft(path: Path) -> Draft:
    """An existing map as a draft (it must decode; it need not be playable)."""
    game_map = load_map(path)
    cells = {(x, y): entry.color for x, y, entry in game_map.cells}
    return Draft(game_map.width, game_map.height, cells, dict(game_map.sidecar))


def new_draft(size: str, ruleset: str = GameMap.default_ruleset) -> Draft:
    """An empty draft of 'WxH' cells."""
    try:
        w_text, h_text = size.lower().split("x")
        width, height = int(w_text), int(h_text)
    except ValueError:
        raise UserError(f"--new '{size}' must be WIDTHxHEIGHT in cells, e.g. 24x24.") from None
    check_size(width, height)
    return Draft(width, height, {}, {"name": "untitled", "ruleset": ruleset})


def check_size(width: int, height: int) -> None:
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise UserError(f"a map is 1x1 to {MAX_SIDE}x{MAX_SIDE} cells, not {width}x{height}.")


def validate(draft: Draft, target: Path) -> None:
    """Raise the UserError `map check` would give for this draft, naming `target`."""
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / target.name
        write_map(probe, draft.width, draft.height, draft.cells, draft.sidecar)
        try:
            Engine.from_game_map(load_map(probe))
        except UserError as exc:
            raise UserError(str(exc).replace(str(probe), str(target))) from None


def launch_play(path: Path) -> subprocess.Popen[bytes]:
    """`rulefront play PATH` in a process of its own: its window beside the editor's, its
    autosave the one file kept for trying maps (never over the player's own autosave, and not
    a new folder left behind at every try)."""
    from game.session.saves import data_dir

    save = data_dir() / "try-autosave.json"
    return subprocess.Popen([sys.executable, "-m", "game", "play", str(path), "--save", str(save)])


@dataclass(frozen=True)
class PaletteGroup:
    """A labelled row of the palette: its title and the indices of its entries."""

    title: str
    entries: tuple[int, ...]


def palette_groups(entries: list[PaletteEntry]) -> list[PaletteGroup]:
    """The palette grouped as a player looks for it: terrain, each side's units, buildings,
    then the words by part of speech, all read from data/palette.yaml and data/words.yaml (a
    new entry or part of speech shows up in its group without code)."""
    parts = {info.text: info.part for info in words().values()}
    order = list(dict.fromkeys(info.part for info in words().values()))
    titled: dict[str, list[int]] = {"terrain": []}
    titled.update({f"{side} units": [] for side in SIDES})
    titled["buildings"] = []
    titled.update({f"words: {plural(part)}": [] for part in order})
    titled["other"] = []
    for index, entry in enumerate(entries):
        if entry.prefab in ("floor", "thing"):
            titled["terrain"].append(index)
        elif entry.prefab == "hero" and entry.team in SIDES:
            titled[f"{entry.team} units"].append(index)
        elif entry.prefab in ("hq", "tower", "spawn"):
            titled["buildings"].append(index)
        elif entry.prefab == "word" and entry.word in parts:
            titled[f"words: {plural(parts[entry.word])}"].append(index)
        else:
            titled["other"].append(index)
    return [PaletteGroup(title, tuple(found)) for title, found in titled.items() if found]


def plural(word: str) -> str:
    return word[:-1] + "ies" if word.endswith("y") else word + "s"


class EditorController:
    """Tools, palette, undo/redo, save and play over one draft. It speaks the default keys;
    `settings` (the window gives the player's) names the keys its questions show."""

    settings = Settings()

    def __init__(self, draft: Draft, path: Path,
                 launch: Callable[[Path], Any] = launch_play) -> None:
        self.draft = draft
        self.path = Path(path)
        self.saved = copy.deepcopy(draft)  # the map as the file holds it
        self.launch = launch
        self.entries: list[PaletteEntry] = list(palette().values())
        self.groups = palette_groups(self.entries)
        self.brush = next((i for i, e in enumerate(self.entries) if e.name == "rock"), 0)
        self.tool = "paint"
        self.corner: Cell | None = None  # first corner of a rectangle being drawn
        self.undo_stack: list[Draft] = []
        self.redo_stack: list[Draft] = []
        self.message = ""
        self.asking: tuple[str, ...] = ()  # the question shown before unsaved work is lost
        self.quit = False
        self.version = 0
        self.generation = 1

    @property
    def entry(self) -> PaletteEntry:
        return self.entries[self.brush]

    @property
    def dirty(self) -> bool:
        """The draft differs from what the file holds (or the file is not written yet)."""
        return self.draft != self.saved

    def entry_at(self, cell: Cell) -> PaletteEntry | None:
        """What the draft holds at `cell` (None: floor)."""
        color = self.draft.cells.get(cell)
        return palette()[color] if color is not None else None

    # -- tools ----------------------------------------------------------------------------

    def pick(self, index: int) -> None:
        self.brush = index % len(self.entries)
        if self.tool == "erase":
            self.tool = "paint"  # picking a brush means painting with it
        self._changed()

    def pick_color(self, color: Color) -> None:
        for i, entry in enumerate(self.entries):
            if entry.color == color:
                self.pick(i)
                return
        raise UserError(f"colour {color} is not in the palette (see `rulefront map legend`).")

    def use(self, tool: str) -> None:
        assert tool in TOOLS
        self.tool = tool
        self.corner = None
        self._changed()

    def click(self, cell: Cell | None, erase: bool = False) -> None:
        """Apply the current tool at `cell` (a rectangle takes two clicks); `erase` (the right
        button) erases whatever the tool."""
        if cell is None or not self._inside(cell):
            return
        if erase:
            self.erase(cell)
        elif self.tool == "rect":
            if self.corner is None:
                self.corner = cell
                self._say(f"rectangle from {cell[0]},{cell[1]}: click the opposite corner")
                return
            corner, self.corner = self.corner, None
            self.fill(corner, cell)
        elif self.tool == "erase":
            self.erase(cell)
        else:
            self.paint(cell)

    def paint(self, cell: Cell, color: Color | None = None) -> None:
        color = color or self.entry.color
        if self._color_at(cell) == color or (cell not in self.draft.cells
                                             and palette()[color].prefab == "floor"):
            return
        self._checkpoint()
        self._set(cell, color)
        self._changed()

    def erase(self, cell: Cell) -> None:
        if cell not in self.draft.cells:
            return
        self._checkpoint()
        del self.draft.cells[cell]
        self._changed()

    def fill(self, a: Cell, b: Cell, color: Color | None = None) -> None:
        """Paint every cell of the rectangle with corners a and b."""
        color = color or self.entry.color
        self._checkpoint()
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
                self._set((x, y), color)
        self._changed()

    def resize(self, width: int, height: int) -> None:
        """Change the size; cells that fall outside are dropped (undo brings them back)."""
        check_size(width, height)
        self._checkpoint()
        self.draft.width, self.draft.height = width, height
        self.draft.cells = {c: v for c, v in self.draft.cells.items() if self._inside(c)}
        self._changed()

    def set_field(self, name: str, value: Any) -> None:
        if name not in FIELDS:
            raise UserError(f"sidecar field '{name}' is not editable here; use one of "
                            f"{', '.join(FIELDS)}.")
        self._checkpoint()
        if value is None or value == "":
            self.draft.sidecar.pop(name, None)
        else:
            self.draft.sidecar[name] = value
        self._changed()

    def next_ruleset(self) -> None:
        """Cycle the sidecar's ruleset through the known ones (validated on save)."""
        names = registry.names()
        current = self.draft.sidecar.get("ruleset", GameMap.default_ruleset)
        following = names[(names.index(current) + 1) % len(names)] if current in names \
            else names[0]
        self.set_field("ruleset", following)

    # -- history and saving -----------------------------------------------------------------

    def undo(self) -> bool:
        if not self.undo_stack:
            self._say("Nothing to undo.")
            return False
        self.redo_stack.append(copy.deepcopy(self.draft))
        self.draft = self.undo_stack.pop()
        self._changed()
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            self._say("Nothing to redo.")
            return False
        self.undo_stack.append(copy.deepcopy(self.draft))
        self.draft = self.redo_stack.pop()
        self._changed()
        return True

    def save(self, tell: bool = True) -> bool:
        """Check the draft like `map check`; write PNG + sidecar atomically only if it passes."""
        try:
            validate(self.draft, self.path)
            write_map(self.path, self.draft.width, self.draft.height, self.draft.cells,
                      self.draft.sidecar)
        except UserError as exc:
            self._say(f"not saved: {exc}")
            return False
        self.saved = copy.deepcopy(self.draft)
        if tell:
            self._say(f"saved {self.path}")
        return True

    def play(self) -> bool:
        """Save the map, then open a match on it in a window of its own (the editor stays)."""
        if not self.save(tell=False):
            return False
        try:
            self.launch(self.path)
        except OSError as exc:
            self._say(f"saved {self.path}, but the match could not start: {exc}")
            return False
        self._say(f"saved {self.path.name}; the match opens in a new window")
        return True

    def ask_quit(self) -> None:
        """Q, Escape or the window's close button: quit at once when nothing would be lost,
        else ask (S save and quit, D quit without saving, any other key keeps editing)."""
        if self.dirty:
            self.asking = self.settings.label(*ASK_QUIT)
            self._changed()
        else:
            self.quit = True

    # -- keys -------------------------------------------------------------------------------

    def key(self, name: str, ctrl: bool = False) -> None:
        """Keys: [ ] brush, B paint, X erase, F rectangle, U/Ctrl+Z undo, Y/Ctrl+Y redo,
        S/Ctrl+S save, P save and play, Ctrl+arrows resize, G next ruleset, + / - turn limit
        by 10, Q/Escape quit (asking first when there are unsaved changes). Hero classes are
        painted: each class has a colour of its own in the palette."""
        name = name.upper()
        d = self.draft
        if self.asking:
            self._answer(name)
        elif ctrl and name in ("LEFT", "RIGHT", "UP", "DOWN"):
            dw = {"LEFT": -1, "RIGHT": 1}.get(name, 0)
            dh = {"UP": -1, "DOWN": 1}.get(name, 0)
            try:
                self.resize(d.width + dw, d.height + dh)
            except UserError as exc:
                self._say(str(exc))
        elif name == "BRACKETRIGHT":
            self.pick(self.brush + 1)
        elif name == "BRACKETLEFT":
            self.pick(self.brush - 1)
        elif name == "B":
            self.use("paint")
        elif name == "X":
            self.use("erase")
        elif name == "F":
            self.use("rect")
        elif name == "U" or (ctrl and name == "Z"):
            self.undo()
        elif name == "Y":
            self.redo()
        elif name == "S":
            self.save()
        elif name == "P":
            self.play()
        elif name == "G":
            self.next_ruleset()
        elif name in ("EQUAL", "PLUS", "NUM_ADD", "MINUS", "NUM_SUBTRACT"):
            step = -10 if "MINUS" in name or "SUBTRACT" in name else 10
            limit = int(d.sidecar.get("turn_limit", 100)) + step
            self.set_field("turn_limit", max(10, limit))
        elif name in ("Q", "ESCAPE"):
            self.ask_quit()

    def _answer(self, name: str) -> None:
        self.asking = ()
        if name == "S":
            self.quit = self.save()
        elif name == "D":
            self.quit = True
        else:
            self._say(self.settings.label("Still editing; {save} saves.")[0])
        self._changed()

    # -- helpers ----------------------------------------------------------------------------

    def _set(self, cell: Cell, color: Color) -> None:
        if palette()[color].prefab == "floor":
            self.draft.cells.pop(cell, None)
        else:
            self.draft.cells[cell] = color

    def _color_at(self, cell: Cell) -> Color | None:
        return self.draft.cells.get(cell)

    def _inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.draft.width and 0 <= cell[1] < self.draft.height

    def _checkpoint(self) -> None:
        self.undo_stack.append(copy.deepcopy(self.draft))
        self.redo_stack.clear()

    def _say(self, text: str) -> None:
        self.message = text
        self._changed()

    def _changed(self) -> None:
        self.version += 1
