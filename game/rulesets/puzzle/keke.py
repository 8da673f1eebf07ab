"""Keke AI Competition levels: the JSON level sets and single ASCII `.keke` files.

One character per cell, framed by a `_` border that is the map's edge, not a cell. Lower case
letters are things, upper case letters their noun words, digits the operator and properties
(legend in ../shared/benchmarks/keke/README.md; KILL is our DEFEAT). Our `.keke` files add
`&` AND, `[` OPEN, `]` SHUT, `%` WEAK and `$` TEXT.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components import Kind, Position, Word
from components.resources import SIZE_KEY
from game.data import PaletteEntry, load_json, palette, read_text
from game.errors import UserError
from game.levels.maps import GameMap, check_size
from game.world import World

THINGS = {"b": "baba", "s": "skull", "f": "flag", "o": "floor", "a": "grass", "l": "lava",
          "r": "rock", "w": "wall", "k": "keke", "g": "goop", "v": "love"}
WORDS = {"1": "IS", "2": "YOU", "3": "WIN", "4": "DEFEAT", "5": "PUSH", "6": "STOP",
         "7": "MOVE", "8": "HOT", "9": "MELT", "0": "SINK"}
WORDS.update({char.upper(): kind.upper() for char, kind in THINGS.items()})
# Our additions for words Keke's legend lacks (single .keke files only; Keke sets never use them).
WORDS.update({"&": "AND", "[": "OPEN", "]": "SHUT", "%": "WEAK", "$": "TEXT"})
EMPTY = {".", " "}


@dataclass(frozen=True)
class KekeLevel:
    """One level of a set: its id, name, ASCII grid and the stored solution."""

    id: str
    name: str
    ascii: str
    solution: str


def entries() -> tuple[dict[str, PaletteEntry], dict[str, PaletteEntry]]:
    """Palette entries for Keke's things (by kind) and words (by text)."""
    things: dict[str, PaletteEntry] = {}
    words: dict[str, PaletteEntry] = {}
    for entry in palette().values():
        if entry.prefab == "thing":
            things.setdefault(entry.kind, entry)
        elif entry.prefab == "word":
            words[entry.word] = entry
    return things, words


def parse_ascii(text: str, path: Path, name: str = "") -> GameMap:
    """A Keke ASCII grid -> GameMap for the puzzle ruleset (x = column, y = row, inside the
    border)."""
    rows = [row for row in text.replace("\r", "").split("\n") if row.strip()]
    if len(rows) < 3 or not set(rows[0]) <= {"_"} or not set(rows[-1]) <= {"_"}:
        raise UserError(f"{path}: a Keke level must be framed by a '_' border on every side.")
    width = len(rows[0]) - 2
    inner = rows[1:-1]
    check_size(width, len(inner), path, "puzzle levels")
    for number, row in enumerate(rows, 1):
        if len(row) != width + 2:
            raise UserError(f"{path}: row {number} is {len(row)} characters wide, the first is "
                            f"{width + 2}; every row of a Keke level has the same width.")
    things, words = entries()
    cells: list[tuple[int, int, PaletteEntry]] = []
    for y, row in enumerate(inner):
        if not row.startswith("_") or not row.endswith("_"):
            raise UserError(f"{path}: row {y + 2} must start and end with the '_' border.")
        for x, char in enumerate(row[1:-1]):
            if char in EMPTY:
                continue
            if char in THINGS:
                cells.append((x, y, things[THINGS[char]]))
            elif char in WORDS:
                cells.append((x, y, words[WORDS[char]]))
            else:
                raise UserError(f"{path}: row {y + 2}, column {x + 2} holds {char!r}, which is "
                                "not in Keke's legend (see the benchmarks README).")
    digest = hashlib.sha256(text.encode()).hexdigest()
    return GameMap(path, width, len(inner), cells, {"name": name or path.stem,
                                                    "ruleset": "puzzle"}, digest)


def read_keke_file(path: Path) -> GameMap:
    """One `.keke` grid file as a puzzle level."""
    return parse_ascii(read_text(path, "Keke level"), path)


def read_set_level(path: Path, level: str | int | None) -> GameMap:
    """One level of a Keke JSON set: the one with id `level`, or the only one there is."""
    levels = read_set(path)
    if level is None:
        if len(levels) != 1:
            raise UserError(f"{path}: holds {len(levels)} levels; pick one with --level ID.")
        return level_map(path, levels[0])
    return level_map(path, find_level(levels, level, path))


def read_set(path: str | Path) -> list[KekeLevel]:
    """Every level of a Keke JSON level set."""
    path = Path(path)
    raw = load_json(path, "Keke level set")
    levels = raw.get("levels") if isinstance(raw, dict) else None
    if not isinstance(levels, list):
        raise UserError(f"{path}: a Keke level set is {{\"levels\": [...]}}.")
    result = []
    for index, level in enumerate(levels):
        if not isinstance(level, dict) or not isinstance(level.get("ascii"), str):
            raise UserError(f"{path}: level #{index + 1} has no 'ascii' grid.")
        result.append(KekeLevel(str(level.get("id", index + 1)), str(level.get("name") or ""),
                                level["ascii"], str(level.get("solution") or "")))
    return result


def find_level(levels: list[KekeLevel], wanted: Any, path: Path) -> KekeLevel:
    for level in levels:
        if level.id == str(wanted):
            return level
    ids = ", ".join(level.id for level in levels[:8])
    raise UserError(f"{path}: has no level with id {wanted}; ids begin {ids}...")


def level_map(path: Path, level: KekeLevel) -> GameMap:
    game_map = parse_ascii(level.ascii, path, level.name or f"{path.stem} #{level.id}")
    game_map.sidecar["level"] = level.id
    return game_map


THING_CHARS = {kind: char for char, kind in THINGS.items()}
WORD_CHARS = {text: char for char, text in WORDS.items()}


def ascii_board(world: World) -> str:
    """The board in Keke's ASCII legend, framed by the '_' border (kinds outside the legend
    show their first letter; the highest id shows where things share a cell)."""
    width, height = world.resource(SIZE_KEY)
    rows = [["."] * width for _ in range(height)]
    for entity, (kind, pos) in world.query(Kind, Position):
        if kind.name == "text":
            text = world.get(entity, Word).text
            char = WORD_CHARS.get(text, text[:1].upper())
        else:
            char = THING_CHARS.get(kind.name, kind.name[:1])
        rows[pos.y][pos.x] = char
    border = "_" * (width + 2)
    return "\n".join([border, *("_" + "".join(r) + "_" for r in rows), border])
