"""Maps as images: one pixel per cell, colours looked up in data/palette.yaml.

A map is `NAME.png`, optionally with a sidecar `NAME.yaml` (name, ruleset, hero classes,
turn limit, overrides). Anything wrong with either is refused with one sentence that names the
file, the pixel and the fix; nothing is half-loaded.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import shutil
import stat
import struct
import tempfile
import time
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


# -- the one writer ---------------------------------------------------------------------

STALE_SECONDS = 3600.0  # a temporary whose writer still runs is swept only when this old

_FIXES = {
    errno.ENOSPC: "the disk is full; free some space or write elsewhere",
    errno.EDQUOT: "the disk quota is used up; free some space or write elsewhere",
    errno.EACCES: "permission denied; write to a folder you own",
    errno.EPERM: "permission denied; write to a folder you own",
    errno.EROFS: "the file system is read-only; write elsewhere",
    errno.EISDIR: "it is a folder; name a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENAMETOOLONG: "the name is too long",
}


def write_error(path: Path | str, error: OSError) -> UserError:
    """An OS error while writing `path`, as the one sentence the CLI prints."""
    fix = _FIXES.get(error.errno or 0, error.strerror or str(error))
    return UserError(f"{path}: cannot be written: {fix}.")


def writable(path: Path | str, need_bytes: int = 0) -> Path:
    """The file a write to `path` replaces (a symlink is followed, never replaced), checked
    before anything is written: a regular file or nothing, under a writable folder (or one
    that can be made) with `need_bytes` free; a UserError says what is wrong. Commands check
    their output files with it when they parse them (game/cli/args.py), so a bad --replay or
    -o is found before the work, not after."""
    if str(path) == "":
        raise UserError("an empty file name; name the file to write.")
    target = Path(path)
    try:
        info = os.stat(target)  # through any symlink: what a write would land on
    except OSError:
        info = None
    try:
        if target.is_symlink():
            target = target.resolve()
    except (OSError, RuntimeError) as error:  # a name too long, a loop of links
        if isinstance(error, OSError):
            raise write_error(path, error) from None
        raise UserError(f"{path}: cannot be written: its links loop.") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        # Renaming over /dev/null, /dev/stdout or a pipe would replace it with a plain file.
        raise UserError(f"{path}: is not a regular file (a folder, pipe or device); write "
                        "saves, maps and replays to a file.")
    writable_folder(target.parent, path, need_bytes)
    return target


def writable_folder(folder: Path | str, named: Path | str | None = None,
                    need_bytes: int = 0) -> Path:
    """`folder`, checked to be a folder we can write in, or one we can make (its nearest
    existing parent is a writable folder); a UserError names `named` (default: the folder)."""
    if str(folder) == "":
        raise UserError("an empty folder name; name the folder to write to.")
    folder = Path(folder)
    named = folder if named is None else named
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UserError(f"{named}: cannot be written: {existing} is a file, not a folder.")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"{named}: cannot be written: the folder {existing} is not writable; "
                        "write to a folder you own.")
    if need_bytes and shutil.disk_usage(existing).free < need_bytes:
        raise UserError(f"{named}: cannot be written: {existing} has less than "
                        f"{need_bytes:,} bytes free; free some space or write elsewhere.")
    return folder


def path_under(folder: Path | str, name: str, source: Path | str) -> Path:
    """`folder / name` for a file name built from a file's contents (a level id in a set): a
    UserError naming `source` when the name has a separator, is `..` or empty, or would land
    outside `folder`, so no file we read chooses where we write."""
    folder = Path(folder)
    bad = (not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name
           or name != name.strip())
    target = folder / name
    if bad or target.resolve().parent != folder.resolve():
        raise UserError(f"{source}: the name {name!r} is not a plain file name; a level id "
                        "may not hold a path (/, \\, ..).")
    return target


_swept: set[Path] = set()  # files whose stale temporaries this process has removed


def atomic_write(path: Path | str, data: bytes) -> None:
    """Write through a temporary file in the same folder and rename it over the target: a
    crash or a full disk leaves the old file whole and no temporary behind. The one writer of
    every file Rulefront writes; every OS error becomes one sentence (a UserError). The first
    rewrite of a file in a run sweeps the temporaries a killed writer left beside it."""
    target = writable(path, len(data))
    if target not in _swept and target.exists():  # a new file has no killed rewrite to sweep
        _swept.add(target)
        sweep_temporaries(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}-", suffix=".tmp",
                                   dir=target.parent)
    except OSError as error:
        raise write_error(path, error) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _file_mode(target))
        os.replace(tmp, target)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise write_error(path, error) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def temporaries(path: Path) -> list[Path]:
    """The temporary files atomic_write leaves beside `path` when killed mid-write."""
    path = Path(path)
    return sorted(path.parent.glob(f".{glob_escape(path.name)}.*.tmp"))


def _writer_alive(temporary: Path, prefix: str) -> bool:
    """Whether the process that named `temporary` (".NAME.PID-XXXX.tmp") still runs."""
    pid_text = temporary.name[len(prefix):].partition("-")[0]
    if not pid_text.isdigit():
        return False  # no writer named: an older Rulefront's temporary
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def sweep_temporaries(path: Path) -> int:
    """Remove stale temporaries of `path` (a SIGKILL between mkstemp and rename leaves one);
    returns how many went. Only the file's own are touched, `.NAME.*.tmp` beside it, and
    never one a running writer is filling (its pid is in the name) unless it is over an hour
    old: two games autosaving to one file do not sweep each other's live writes."""
    removed = 0
    prefix = f".{Path(path).name}."
    now = time.time()
    for stale in temporaries(path):
        try:
            if _writer_alive(stale, prefix) and now - stale.stat().st_mtime < STALE_SECONDS:
                continue
            stale.unlink()
            removed += 1
        except OSError:
            pass  # another process may be renaming it right now; it is not ours to fight over
    return removed


def glob_escape(name: str) -> str:
    return "".join(f"[{c}]" if c in "*?[" else c for c in name)


def _file_mode(path: Path) -> int:
    """Keep an existing file's permissions; a new one gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask

