"""Designer data from data/*.yaml, loaded into dataclasses and checked with readable errors."""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from game import DATA, MAPS
from game.errors import UserError

Color = tuple[int, int, int]
SIDES = ("red", "blue")


MAX_FILE_BYTES = 16 * 1024 * 1024  # any map, level, sidecar, replay or save


def read_bytes(path: Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES: pipes, devices and folders are refused
    before they are opened (a pipe would block, /dev/zero never ends), big files before they
    are read."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what}.") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror}).") from None
    if not stat.S_ISREG(info.st_mode):
        raise UserError(f"{path}: is not a regular file (a folder, pipe or device); give a "
                        f"{what}.")
    if info.st_size > limit:
        raise UserError(f"{path}: is {info.st_size:,} bytes; Rulefront reads a {what} of at "
                        f"most {limit // 2**20} MiB.")
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror}).") from None
    if len(data) > limit:
        raise UserError(f"{path}: grew past {limit // 2**20} MiB while being read.")
    return data


def read_text(path: Path, what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """A regular file's text (UTF-8), with read_bytes' limits."""
    try:
        return read_bytes(path, what, limit).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: is not UTF-8 text (byte {exc.start}); save it as UTF-8.") \
            from None


MAX_DIGITS = 18  # the longest whole number a file may hold (every count we read fits)


class _Refused(Exception):
    """A value the strict parsers below refuse: its sentence, and where (a YAML mark)."""

    def __init__(self, sentence: str, mark: Any = None) -> None:
        super().__init__(sentence)
        self.mark = mark


class _StrictLoader(yaml.SafeLoader):
    """YAML's safe loader that refuses a key given twice in one mapping (the last would win
    silently) and whole numbers past MAX_DIGITS (Python refuses past 4,300 with a traceback)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _value in node.value:
                key = self.construct_object(key_node, deep=True)
                if isinstance(key, list | dict):
                    continue  # let the base class say an unhashable key is not allowed
                if key in seen:
                    raise _Refused(f"the key '{key}' is given twice; keep one",
                                   key_node.start_mark)
                seen.add(key)
        return super().construct_mapping(node, deep)

    def construct_yaml_int(self, node: Any) -> Any:
        digits = str(self.construct_scalar(node)).lstrip("+-").replace("_", "")
        if len(digits.lstrip("0")) > MAX_DIGITS:
            raise _Refused(f"the number {digits[:12]}... has over {MAX_DIGITS} digits",
                           node.start_mark)
        return super().construct_yaml_int(node)


_StrictLoader.add_constructor("tag:yaml.org,2002:int", _StrictLoader.construct_yaml_int)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_text(tree: Any, where: Path | str) -> Any:
    """`tree` back, or a UserError when a string in it holds a lone surrogate: an escape such as
    "\\ud800" that is half of a character, which no file, terminal or encoder can carry."""
    stack, seen = [tree], set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise UserError(f"{where}: holds an escape such as \\ud800 that is half of a "
                                "character; write the character itself, in UTF-8.")
        elif isinstance(item, dict | list | tuple) and id(item) not in seen:
            seen.add(id(item))  # YAML anchors can make a list hold itself (&a [*a])
            if isinstance(item, dict):
                stack.extend(item.keys())
                stack.extend(item.values())
            else:
                stack.extend(item)
    return tree


def parse_yaml(text: str, where: Path | str) -> Any:
    """YAML text, strictly (no repeated keys, no endless numbers), or a UserError naming
    `where` and the line."""
    try:
        return _check_text(yaml.load(text, Loader=_StrictLoader), where)  # noqa: S506
    except _Refused as exc:
        line = f" at line {exc.mark.line + 1}" if exc.mark is not None else ""
        raise UserError(f"{where}{line}: {exc}.") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark else ""
        raise UserError(f"{where}: is not valid YAML{line}; fix the syntax there.") from None
    except RecursionError:
        raise UserError(f"{where}: is nested too deeply to be a Rulefront file.") from None


def load_yaml(path: Path) -> Any:
    """Parse a YAML file, turning every failure into one sentence that names the file."""
    return parse_yaml(read_text(path), path)


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Refused(f"the key '{key}' is given twice; keep one")
        found[key] = value
    return found


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-").lstrip("0")) > MAX_DIGITS:
        raise _Refused(f"the number {text[:12]}... has over {MAX_DIGITS} digits")
    return int(text)


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a number Rulefront reads")


def parse_json(text: str | bytes, where: Path | str, what: str = "file") -> Any:
    """JSON text, strictly (no repeated keys, no NaN or Infinity, no endless numbers), or a
    UserError naming `where`."""
    try:
        return _check_text(json.loads(text, object_pairs_hook=_unique_pairs,
                                      parse_int=_bounded_int, parse_constant=_no_constant), where)
    except _Refused as exc:
        raise UserError(f"{where}: {exc}.") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{where}: is not a readable {what} ({exc}).") from None
    except RecursionError:
        raise UserError(f"{where}: is nested too deeply to be a {what}.") from None


def load_json(path: Path, what: str) -> Any:
    """Parse a JSON file that should be `what` (e.g. 'replay or save'), or a UserError."""
    return parse_json(read_text(path, what), path, what)


def need(mapping: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """mapping[key], checked for presence and type, or a UserError naming `where` and `key`."""
    if not isinstance(mapping, dict):
        raise UserError(f"{where}: expected a mapping of keys, found {type(mapping).__name__}.")
    if key not in mapping:
        raise UserError(f"{where}: has no '{key}'; add it.")
    value = mapping[key]
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise UserError(f"{where}: '{key}' must be {names}, not {value!r}.")
    return value


def parse_color(text: Any, where: str) -> Color:
    if isinstance(text, str) and len(text) == 7 and text.startswith("#"):
        try:
            return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
        except ValueError:
            pass
    raise UserError(f"{where}: colour {text!r} must be written '#rrggbb'.")


def hex_color(rgb: Color) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


# -- units ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitStats:
    name: str
    hp: int
    damage: int
    range: int
    moves: int
    glyph: str


@dataclass(frozen=True)
class Units:
    heroes: dict[str, UnitStats]
    minion: UnitStats
    buildings: dict[str, UnitStats]


def parse_units(raw: Any, source: str) -> Units:
    """data/units.yaml's tree (or one merged with a sidecar's overrides) checked against
    game.schemas.UnitsFile."""
    from game.schemas import UnitsFile, validate

    checked: UnitsFile = validate(raw, UnitsFile, source)

    def stats(name: str, entry: Any) -> UnitStats:
        return UnitStats(name, entry.hp, entry.damage, entry.range,
                         getattr(entry, "moves", 0), entry.glyph)

    return Units({name: stats(name, e) for name, e in checked.heroes.items()},
                 stats("minion", checked.minion),
                 {"hq": stats("hq", checked.buildings.hq),
                  "tower": stats("tower", checked.buildings.tower)})


@cache
def units() -> Units:
    path = DATA / "units.yaml"
    return parse_units(load_yaml(path), str(path))


def unit_glyph(kind: str, hero_class: str | None, side: str | None) -> str | None:
    """A fighting unit's one-letter glyph from data/units.yaml, red upper case, blue lower
    case; None for anything that is not a hero, minion or building."""
    stats = units()
    if hero_class is not None and hero_class in stats.heroes:
        char = stats.heroes[hero_class].glyph
    elif kind == "minion":
        char = stats.minion.glyph
    elif kind in stats.buildings:
        char = stats.buildings[kind].glyph
    else:
        return None
    return char.lower() if side == "blue" else char.upper()


def data_units_with(overrides: Any) -> Units:
    """data/units.yaml with a sidecar's `units:` overrides merged in, field by field."""
    if not overrides:
        return units()
    if not isinstance(overrides, dict):
        raise UserError("sidecar 'units' must be a mapping shaped like data/units.yaml.")
    path = DATA / "units.yaml"
    raw = load_yaml(path)
    for group, value in overrides.items():
        if group not in raw:
            raise UserError(f"sidecar 'units': unknown group '{group}'; known: heroes, minion, "
                            "buildings.")
        if group == "minion":
            raw[group] = {**raw[group], **value}
        else:
            for name, stats in value.items():
                raw[group][name] = {**raw[group].get(name, {}), **stats}
    return parse_units(raw, "sidecar 'units'")


# -- words ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WordInfo:
    text: str
    part: str  # noun, operator, property
    kind: str  # the kind a noun names ('' for operators and properties)
    color: Color


@cache
def words() -> dict[str, WordInfo]:
    from game.schemas import WordsFile, validate

    path = DATA / "words.yaml"
    checked: WordsFile = validate(load_yaml(path), WordsFile, path)
    result: dict[str, WordInfo] = {}
    for i, entry in enumerate(checked.words):
        where = f"{path}: word #{i + 1}"
        if entry.part == "noun" and not entry.kind:
            raise UserError(f"{where}: the noun {entry.text} needs a 'kind'.")
        kind = entry.kind if entry.part == "noun" else ""
        result[entry.text] = WordInfo(entry.text, entry.part, kind,
                                      parse_color(entry.color, where))
    return result


# -- properties ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PropertyInfo:
    """One row of data/properties.yaml (see its header)."""

    name: str
    bit: int
    puzzle: str  # walk, acts or none
    order: int | None
    unit: str
    building: str
    cell: str
    moves: int = 0
    damage: int = 0
    range: int = 0
    armour: int = 0
    heal: int = 0


@cache
def properties() -> dict[str, PropertyInfo]:
    """Name -> property, in the file's order; bits powers of two and distinct, orders distinct,
    and each property a word of data/words.yaml (and each property word a row here)."""
    from game.schemas import PropertiesFile, validate

    path = DATA / "properties.yaml"
    checked: PropertiesFile = validate(load_yaml(path), PropertiesFile, path)
    result: dict[str, PropertyInfo] = {}
    bits: dict[int, str] = {}
    orders: dict[int, str] = {}
    for entry in checked.properties:
        where = f"{path}: property {entry.name}"
        if entry.name in result:
            raise UserError(f"{where} is listed twice; keep one row.")
        if entry.bit & (entry.bit - 1):
            raise UserError(f"{where}: bit {entry.bit} is not a power of two.")
        if entry.bit in bits:
            raise UserError(f"{where}: bit {entry.bit} is {bits[entry.bit]}'s; take a free one.")
        if entry.order is not None and entry.order in orders:
            raise UserError(f"{where}: order {entry.order} is {orders[entry.order]}'s; "
                            "give it a turn of its own.")
        bits[entry.bit] = entry.name
        if entry.order is not None:
            orders[entry.order] = entry.name
        s = entry.stats
        result[entry.name] = PropertyInfo(entry.name, entry.bit, entry.puzzle, entry.order,
                                          entry.unit, entry.building, entry.cell, s.moves,
                                          s.damage, s.range, s.armour, s.heal)
    said = {info.text for info in words().values() if info.part == "property"}
    for name in sorted(said ^ set(result)):
        where = "data/words.yaml has the word" if name in said else f"{path} has"
        fix = f"add its row to {path}" if name in said else "add its word tile to data/words.yaml"
        raise UserError(f"{where} property {name} but the other file has not; {fix}.")
    return result


# -- palette -------------------------------------------------------------------------------

PREFABS = ("floor", "thing", "hq", "tower", "hero", "spawn", "word")


@dataclass(frozen=True)
class PaletteEntry:
    name: str
    color: Color
    prefab: str
    kind: str = ""
    team: str = ""
    hero_class: str = ""
    word: str = ""
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@cache
def palette() -> dict[Color, PaletteEntry]:
    """Colour -> prefab for every tile, unit, building and word a map may hold."""
    from game.schemas import PaletteFile, validate

    path = DATA / "palette.yaml"
    raw = load_yaml(path)
    validate(raw, PaletteFile, path)
    result: dict[Color, PaletteEntry] = {}
    for entry in raw["entries"]:
        name = entry["name"]
        where = f"{path}: entry '{name}'"
        prefab = entry["prefab"]
        team = entry.get("team", "")
        if prefab in ("hq", "tower", "hero", "spawn") and team not in SIDES:
            raise UserError(f"{where}: needs 'team: red' or 'team: blue'.")
        hero_class = entry.get("class", "")
        if hero_class and hero_class not in units().heroes:
            raise UserError(f"{where}: class '{hero_class}' is not in data/units.yaml.")
        kind = need(entry, "kind", str, where) if prefab == "thing" else prefab
        known = {"name", "color", "prefab", "kind", "team", "class"}
        extra = {k: v for k, v in entry.items() if k not in known}
        _add(result, PaletteEntry(name, parse_color(entry.get("color"), where), prefab,
                                  kind, team, hero_class, extra=extra), path)
    for info in words().values():
        _add(result, PaletteEntry(f"word {info.text}", info.color, "word", "text", word=info.text),
             DATA / "words.yaml")
    return result


def _add(result: dict[Color, PaletteEntry], entry: PaletteEntry, path: Path) -> None:
    other = result.get(entry.color)
    if other is not None:
        raise UserError(f"{path}: '{entry.name}' reuses colour {hex_color(entry.color)} of "
                        f"'{other.name}'; give it a colour of its own.")
    result[entry.color] = entry


def nearest_entry(color: Color) -> PaletteEntry:
    """The palette entry whose colour is closest to `color` (for error messages)."""
    return min(palette().values(),
               key=lambda e: sum((a - b) ** 2 for a, b in zip(e.color, color, strict=True)))


# -- shipped maps --------------------------------------------------------------------------

# What load_game_map opens; sidecars (.yaml) belong to the map beside them.
LEVEL_SUFFIXES = (".png", ".keke", ".txt", ".json")


@dataclass(frozen=True)
class ShippedLevel:
    """A map or level in maps/, and the name that finds it from any folder."""

    name: str  # the file's stem, or its file name where two formats share the stem
    path: Path

    @property
    def relative(self) -> str:
        """The path inside the shipped maps folder, e.g. 'puzzles/first-steps.keke'."""
        return self.path.relative_to(MAPS).as_posix()


@cache
def shipped_levels() -> tuple[ShippedLevel, ...]:
    """Every map and level shipped in maps/, the top folder's first, then each subfolder's."""
    files = sorted((p for p in MAPS.rglob("*")
                    if p.suffix.lower() in LEVEL_SUFFIXES and p.is_file()),
                   key=lambda p: (p.relative_to(MAPS).parent.as_posix(), p.name))
    stems = Counter(p.stem for p in files)
    return tuple(ShippedLevel(p.stem if stems[p.stem] == 1 else p.name, p) for p in files)


def find_shipped(name: str) -> Path | None:
    """The shipped file a bare name stands for ('duel', 'level-03', 'tower.txt'), or None.

    A name without a suffix matches file stems, one with a suffix whole file names; a stem
    shared by two formats of one level (tower.png, tower.txt) needs the suffix.
    """
    matches = [s.path for s in shipped_levels() if name in (s.path.stem, s.path.name)]
    if len(matches) > 1:
        choices = ", ".join(p.name for p in matches)
        raise UserError(f"'{name}' names {len(matches)} shipped maps ({choices}); add the "
                        f"suffix, e.g. {matches[0].name}.")
    return matches[0] if matches else None


def map_argument(arg: str | Path) -> Path:
    """The file a map argument means: an existing file as given, else the shipped map named so
    (a bare name, or a path under `maps/` as replays and saves record shipped maps, so they
    open from any folder).

    Anything else that looks like a path is returned unchanged for the loader to report.
    """
    path = Path(arg)
    text = str(arg)
    bare = "/" not in text and os.sep not in text and path.suffix.lower() in ("", *LEVEL_SUFFIXES)
    if path.exists() and not path.is_file():
        raise UserError(f"{path}: is not a regular file (a folder, pipe or device); give a map "
                        "or level file.")
    if path.is_file():
        return path
    if not bare:
        parts = path.parts
        shipped = MAPS.joinpath(*parts[1:]) if len(parts) > 1 and parts[0] == "maps" else None
        return shipped if shipped is not None and shipped.is_file() else path
    found = find_shipped(text)
    if found is None:
        raise UserError(f"{text}: no such map file, nor a shipped map of that name "
                        "(`rulefront maps` lists them).")
    return found
