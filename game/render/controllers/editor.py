"""The map editor's controller: paint palette colours on a grid, check, save (no pyglet).

A draft is the map as the PNG will hold it: size, cell -> colour, sidecar. Saving first runs
the same checks as `rulefront map check` (the map must load and its ruleset must set it up);
a draft that fails is not written and the sentence is shown instead.
"""

from __future__ import annotations

import copy
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import registry
from game.data import Color, PaletteEntry, palette
from game.engine import Engine
from game.errors import UserError
from game.levels.maps import MAX_SIDE, GameMap, load_map, write_map
from game.render.uiview import Cell

FIELDS = ("name", "ruleset", "heroes", "turn_limit")
TOOLS = ("paint", "erase", "rect")


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


class EditorController:
    """Tools, palette, undo/redo and save over one draft."""

    def __init__(self, draft: Draft, path: Path) -> None:
        self.draft = draft
        self.path = Path(path)
        self.entries: list[PaletteEntry] = list(palette().values())
        self.brush = next((i for i, e in enumerate(self.entries) if e.name == "rock"), 0)
        self.tool = "paint"
        self.corner: Cell | None = None  # first corner of a rectangle being drawn
        self.undo_stack: list[Draft] = []
        self.redo_stack: list[Draft] = []
        self.message = ""
        self.quit = False
        self.version = 0
        self.generation = 1

    @property
    def entry(self) -> PaletteEntry:
        return self.entries[self.brush]

    # -- tools ----------------------------------------------------------------------------

    def pick(self, index: int) -> None:
        self.brush = index % len(self.entries)
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

    def click(self, cell: Cell | None) -> None:
        """Apply the current tool at `cell` (a rectangle takes two clicks)."""
        if cell is None or not self._inside(cell):
            return
        if self.tool == "rect":
            if self.corner is None:
                self.corner = cell
                self._say(f"rectangle from {cell}: click the opposite corner")
                return
            corner, self.corner = self.corner, None
            self.fill(corner, cell)
        elif self.tool == "erase":
            self.erase(cell)
        else:
            self.paint(cell)

    def paint(self, cell: Cell, color: Color | None = None) -> None:
        color = color or self.entry.color
        if self._color_at(cell) == color:
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
        except UserError as exc:
            self._say(f"not saved: {exc}")
            return False
        write_map(self.path, self.draft.width, self.draft.height, self.draft.cells,
                  self.draft.sidecar)
        if tell:
            self._say(f"saved {self.path}")
        return True

    # -- keys -------------------------------------------------------------------------------

    def key(self, name: str, ctrl: bool = False) -> None:
        """Keys: [ ] brush, B paint, X erase, F rectangle, U/Ctrl+Z undo, Y/Ctrl+Y redo,
        S/Ctrl+S save, Ctrl+arrows resize, G next ruleset, + / - turn limit by 10, Q quit
        (unsaved changes are kept only by S). Hero classes are painted: each class has a
        colour of its own in the palette."""
        name = name.upper()
        d = self.draft
        if ctrl and name in ("LEFT", "RIGHT", "UP", "DOWN"):
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
        elif name == "G":
            self.next_ruleset()
        elif name in ("EQUAL", "PLUS", "NUM_ADD", "MINUS", "NUM_SUBTRACT"):
            step = -10 if "MINUS" in name or "SUBTRACT" in name else 10
            limit = int(d.sidecar.get("turn_limit", 100)) + step
            self.set_field("turn_limit", max(10, limit))
        elif name in ("Q", "ESCAPE"):
            self.quit = True

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
