"""Maps as images: one pixel per cell, colours looked up in data/palette.yaml.

A map is `NAME.png`, optionally with a sidecar `NAME.yaml` (name, ruleset, hero classes,
turn limit, overrides). Anything wrong with either is refused with one sentence that names the
file, the pixel and the fix; nothing is half-loaded.
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from PIL import Image, UnidentifiedImageError

from game import MAPS
from game.data import (
    SIDES,
    Color,
    PaletteEntry,
    hex_color,
    load_yaml,
    map_argument,
    nearest_entry,
    palette,
    parse_yaml,
    read_bytes,
    units,
    words,
)
from game.errors import UserError
from game.levels.files import atomic_write

MAX_SIDE = 128  # cells per side of any map or level, PNG, Keke or descent
DEFAULT_MAP = MAPS / "duel.png"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass
class GameMap:
    """A decoded map: its size, what stands on each cell, and its sidecar settings."""

    path: Path
    width: int
    height: int
    cells: list[tuple[int, int, PaletteEntry]]  # every non-floor cell, row-major
    sidecar: dict[str, Any] = field(default_factory=dict)
    sha256: str = ""

    default_ruleset: ClassVar[str] = "skirmish"  # of a PNG map whose sidecar names none

    @property
    def name(self) -> str:
        return str(self.sidecar.get("name") or self.path.stem)

    @property
    def ruleset(self) -> str:
        return str(self.sidecar.get("ruleset", self.default_ruleset))


def sidecar_path(path: Path) -> Path:
    return path.with_suffix(".yaml")


def load_map(path: str | Path, sidecar: dict[str, Any] | None = None) -> GameMap:
    """Decode a PNG map and its sidecar, or raise a UserError saying what to fix; `sidecar` is
    the sidecar already read and checked (the loader reads it first to learn the ruleset)."""
    path = map_argument(path)
    data = read_bytes(path, "map file")
    game_map = decode_png(data, path)
    side = sidecar_path(path)
    if sidecar is not None:
        game_map.sidecar = sidecar
    elif side.exists():
        game_map.sidecar = read_sidecar(side)
    game_map.sha256 = map_digest(path)
    return game_map


def map_digest(path: Path) -> str:
    """sha256 of the map image and its sidecar, so replays notice any change to either."""
    digest = hashlib.sha256(read_bytes(Path(path), "map file"))
    side = sidecar_path(Path(path))
    if side.exists():
        digest.update(read_bytes(side, "sidecar"))
    return digest.hexdigest()


def check_size(width: int, height: int, path: Path | str, what: str = "maps") -> None:
    """Refuse a map or level over MAX_SIDE cells on a side (or with no cells)."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise UserError(f"{path}: is {width}x{height} cells; {what} may be at most "
                        f"{MAX_SIDE}x{MAX_SIDE}.")


def png_size(data: bytes, path: Path | str) -> tuple[int, int]:
    """Width and height from a PNG's IHDR header, read before any decoding, so that a header
    claiming 100000x100000 pixels is refused without allocating them."""
    if not data.startswith(PNG_SIGNATURE):
        raise UserError(f"{path}: is not a PNG image; maps are PNG files, one pixel per cell.")
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise UserError(f"{path}: the PNG is damaged or truncated (it has no image header); "
                        "save it again from your image editor.")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def open_png(data: bytes, path: Path | str, what: str = "maps") -> Image.Image:
    """Decode a PNG whose header size was checked first; any decoding failure is a UserError."""
    check_size(*png_size(data, path), path, what)
    check_png_chunks(data, path)
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            return image.convert("RGBA")
    except UnidentifiedImageError:
        raise UserError(f"{path}: is not an image Pillow can read; save it again as PNG from "
                        "your image editor.") from None
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        detail = str(exc).split(" <_io.", 1)[0]
        raise UserError(f"{path}: the PNG is damaged or truncated ({detail}); "
                        "save it again from your image editor.") from None


def check_png_chunks(data: bytes, path: Path | str) -> None:
    """Every chunk's checksum, up to IEND (Pillow skips the image data's own), so a damaged
    PNG is refused whole instead of loading with a cell changed."""
    at = 8  # past the signature
    while at + 12 <= len(data):
        length = struct.unpack(">I", data[at:at + 4])[0]
        end = at + 8 + length
        if end + 4 > len(data):
            break
        kind = data[at + 4:at + 8]
        if zlib.crc32(data[at + 4:end]) != struct.unpack(">I", data[end:end + 4])[0]:
            name = kind.decode("latin-1")
            raise UserError(f"{path}: the PNG is damaged or truncated (the checksum of its {name} "
                            f"chunk at byte {at} is wrong); save it again from your image "
                            "editor.")
        if kind == b"IEND":
            return
        at = end + 4
    raise UserError(f"{path}: the PNG is damaged or truncated (it ends before its IEND "
                    "chunk); save it again from your image editor.")


def decode_png(data: bytes, path: Path) -> GameMap:
    rgba = open_png(data, path)
    width, height = rgba.size
    colours = palette()
    cells: list[tuple[int, int, PaletteEntry]] = []
    # Plain bytes, not numpy: opening a map is on every command's start-up path, and a map
    # of at most 128x128 pixels is read faster than numpy is imported.
    pixels = rgba.tobytes()
    for i in range(3, len(pixels), 4):
        if not pixels[i]:
            continue
        y, x = divmod(i // 4, width)
        r, g, b, a = pixels[i - 3 : i + 1]
        if a != 255:
            raise UserError(f"{path}: pixel ({x}, {y}) is half transparent (alpha {a}); "
                            "use alpha 255, or 0 for floor.")
        entry = colours.get((r, g, b))
        if entry is None:
            near = nearest_entry((r, g, b))
            raise UserError(f"{path}: pixel ({x}, {y}) has colour {hex_color((r, g, b))}, which "
                            f"is not in the palette; the nearest is '{near.name}' "
                            f"{hex_color(near.color)} (see `rulefront map legend`).")
        if entry.prefab != "floor":
            cells.append((x, y, entry))
    return GameMap(path, width, height, cells)


def map_from_bytes(png: bytes, sidecar: bytes | str | None, name: str) -> GameMap:
    """A map decoded from its PNG bytes and sidecar text (no disk), as `load_map` would give.

    Remote workers get maps this way; `name` is the path the driver knows the map by, and the
    digest is the same as `map_digest` of the files those bytes came from.
    """
    path = Path(name)
    game_map = decode_png(png, path)
    raw = sidecar.encode() if isinstance(sidecar, str) else sidecar
    digest = hashlib.sha256(png)
    if raw is not None:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise UserError(f"{sidecar_path(path)}: is not UTF-8 text; save it as UTF-8.") \
                from None
        parsed = parse_yaml(text, sidecar_path(path))
        game_map.sidecar = check_sidecar(parsed, sidecar_path(path))
        digest.update(raw)
    game_map.sha256 = digest.hexdigest()
    return game_map


def read_sidecar(path: Path, schemas: Mapping[str, type] | None = None) -> dict[str, Any]:
    return check_sidecar(load_yaml(path), path, schemas)


def check_sidecar(raw: Any, where: str | Path,
                  schemas: Mapping[str, type] | None = None) -> dict[str, Any]:
    """The sidecar checked against its ruleset's schema (`schemas`: each registered ruleset's
    name -> its spec's `sidecar` Struct, which the loader passes; the ruleset named is checked
    against them) and the game's data (teams, hero classes, words): the dict back, or a
    UserError naming `where`, the key and the fix. Without `schemas` only the keys every
    ruleset shares (game.schemas.Sidecar) are checked."""
    from game.schemas import Sidecar, kinds_text, quoted, validate

    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise UserError(f"{where}: the sidecar must be a YAML mapping (name: ..., ruleset: ...), "
                        f"not {kinds_text(type(raw).__name__.replace('list', 'array'))}.")
    schema: type = Sidecar
    if schemas is not None:
        if "ruleset" in raw:
            _check_ruleset(raw["ruleset"], where, list(schemas))
        schema = schemas.get(raw.get("ruleset", GameMap.default_ruleset)) or Sidecar
    sidecar = validate(raw, schema, where)
    heroes = units().heroes
    for side, classes in (getattr(sidecar, "heroes", None) or {}).items():
        if side not in SIDES:
            raise UserError(f"{where}: 'heroes' names the team {quoted(side)}; the teams are "
                            f"{' and '.join(SIDES)}.")
        for name in classes:
            if name not in heroes:
                raise UserError(f"{where}: 'heroes: {side}' lists the class {quoted(name)}, which "
                                f"is not in data/units.yaml; known: {', '.join(heroes)}.")
    patch = getattr(sidecar, "units", None)
    for name in (patch.heroes or {}) if patch else ():
        if name not in heroes:
            raise UserError(f"{where}: 'units: heroes' names the class {quoted(name)}, which is not "
                            f"in data/units.yaml; known: {', '.join(heroes)}.")
    goal = getattr(sidecar, "challenge", None)
    if goal and goal.side not in SIDES:
        raise UserError(f"{where}: 'challenge: side' is {quoted(goal.side)}; the sides are "
                        f"{' and '.join(SIDES)}.")
    known = words()
    for rule in sidecar.base_rules or []:
        _check_rule(rule, known, where)
    return raw


def _check_ruleset(name: Any, where: str | Path, rulesets: Collection[str]) -> None:
    from game.schemas import kinds_text, quoted

    if isinstance(name, str) and name in rulesets:
        return
    known = ", ".join(rulesets)
    if isinstance(name, str):
        raise UserError(f"{where}: unknown ruleset {quoted(name)}; 'ruleset' must be one of {known}.")
    got = {"list": "array", "dict": "object", "NoneType": "null"}.get(type(name).__name__,
                                                                       type(name).__name__)
    raise UserError(f"{where}: 'ruleset' must be one of {known}, not {kinds_text(got)}.")


def _check_rule(rule: str, known: dict[str, Any], where: str | Path) -> None:
    from game.schemas import quoted

    parts = rule.split()
    if len(parts) != 3 or parts[1] != "IS":
        raise UserError(f"{where}: 'base_rules' holds {quoted(rule)}; write each rule as "
                        "'NOUN IS PROPERTY' or 'NOUN IS NOUN'.")
    subject, _is, target = parts
    for word, parts_ok in ((subject, ("noun",)), (target, ("noun", "property"))):
        info = known.get(word)
        if word == "TEXT":
            continue
        if info is None or info.part not in parts_ok:
            allowed = sorted(w for w, i in known.items() if i.part in parts_ok)
            raise UserError(f"{where}: 'base_rules' holds {quoted(rule)}, but {quoted(word)} is not a "
                            f"{' or '.join(parts_ok)} of data/words.yaml; known: "
                            f"{', '.join(allowed[:12])}...")


def write_map(path: Path, width: int, height: int, cells: dict[tuple[int, int], Color],
              sidecar: dict[str, Any] | None = None) -> None:
    """Write a map PNG (and its sidecar) atomically: a crash never leaves half a file."""
    image = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    for (x, y), rgb in cells.items():
        image.putpixel((x, y), (*rgb, 255))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    atomic_write(path, buffer.getvalue())
    if sidecar is not None:
        import yaml

        atomic_write(sidecar_path(path), yaml.safe_dump(sidecar, sort_keys=False).encode())
