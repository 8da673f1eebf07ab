"""Maps as images: one pixel per cell, colours looked up in data/palette.yaml.

A map is `NAME.png`, optionally with a sidecar `NAME.yaml` (name, ruleset, hero classes,
turn limit, overrides). Anything wrong with either is refused with one sentence that names the
file, the pixel and the fix; nothing is half-loaded.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from PIL import Image, UnidentifiedImageError

from game import MAPS
from game.data import (
    Color,
    PaletteEntry,
    hex_color,
    load_yaml,
    map_argument,
    nearest_entry,
    palette,
)
from game.errors import UserError

MAX_SIDE = 128
DEFAULT_MAP = MAPS / "duel.png"
SIDECAR_KEYS = {"name", "ruleset", "heroes", "turn_limit", "spawn", "units", "base_rules",
                "description", "rules", "code", "misere"}


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
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{path}: no such map file.") from None
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror}).") from None
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
    digest = hashlib.sha256(Path(path).read_bytes())
    side = sidecar_path(Path(path))
    if side.exists():
        digest.update(side.read_bytes())
    return digest.hexdigest()


def decode_png(data: bytes, path: Path) -> GameMap:
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise UserError(f"{path}: is not a PNG image; maps are PNG files, one pixel per cell.")
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
            if width > MAX_SIDE or height > MAX_SIDE:
                raise UserError(f"{path}: is {width}x{height} pixels; maps may be at most "
                                f"{MAX_SIDE}x{MAX_SIDE} (one pixel per cell).")
            image.load()
            rgba = image.convert("RGBA")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise UserError(f"{path}: the PNG is damaged or truncated ({exc}); "
                        "save it again from your image editor.") from None
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
        import yaml

        try:
            parsed = yaml.safe_load(raw.decode("utf-8"))
        except (UnicodeDecodeError, yaml.YAMLError):
            raise UserError(f"{sidecar_path(path)}: is not valid YAML; fix the syntax.") from None
        game_map.sidecar = check_sidecar(parsed, sidecar_path(path))
        digest.update(raw)
    game_map.sha256 = digest.hexdigest()
    return game_map


def read_sidecar(path: Path) -> dict[str, Any]:
    return check_sidecar(load_yaml(path), path)


def check_sidecar(raw: Any, path: Path) -> dict[str, Any]:
    """The sidecar's keys checked, or a UserError naming `path` and the key to fix."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise UserError(f"{path}: the sidecar must be a YAML mapping (name: ..., ruleset: ...).")
    unknown = sorted(set(raw) - SIDECAR_KEYS)
    if unknown:
        raise UserError(f"{path}: unknown key '{unknown[0]}'; known keys: "
                        f"{', '.join(sorted(SIDECAR_KEYS))}.")
    if "ruleset" in raw and not isinstance(raw["ruleset"], str):
        raise UserError(f"{path}: 'ruleset' must be the name of a ruleset "
                        "(see `rulefront rulesets`).")
    if "turn_limit" in raw and (not isinstance(raw["turn_limit"], int) or raw["turn_limit"] < 1):
        raise UserError(f"{path}: 'turn_limit' must be a whole number of rounds, at least 1.")
    return raw


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


def atomic_write(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename it over the target."""
    path = Path(path)
    if path.exists() and not path.is_file():
        # Renaming over /dev/null or a pipe would replace it with a plain file (as root).
        raise UserError(f"{path}: is not a regular file; write saves, maps and replays to "
                        "a file.")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _file_mode(path: Path) -> int:
    """Keep an existing file's permissions; a new one gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask

