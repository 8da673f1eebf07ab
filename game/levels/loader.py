"""One door for every file a command opens: it recognises the file once, then reads it.

Levels are whatever a registered ruleset reads: PNG maps (the sidecar names the ruleset; some
rulesets read their PNGs their own way), other suffixes a ruleset claims (`.keke`, Keke JSON
sets, descent `.txt` heightmaps) and described positions (`octal:0.137:7,9,12`). Replays and
saves are JSON objects with a `format` field. Every command goes through `recognise` and
`load_engine`, so a file is read the same way wherever it is named.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Any

from game import registry
from game.data import map_argument, parse_json, read_bytes
from game.engine import Engine
from game.errors import UserError
from game.levels.maps import GameMap, load_map, read_sidecar, sidecar_path


class FileKind(Enum):
    """What a file given to a command holds."""

    LEVEL = "level"  # one map or level of some ruleset, or a described position
    LEVEL_SET = "level set"  # several levels in one file: pick one with --level
    REPLAY = "replay"  # a recorded game: map, seed, seats, commands, result
    SAVE = "save"  # a game to resume: a replay plus redo stack and each seat's RNG state


def described(source: str | Path) -> registry.RulesetSpec | None:
    """The ruleset whose described positions `source` names ("octal:..."), if any."""
    text = str(source)
    for spec in registry.specs():
        if spec.prefix and text.startswith(spec.prefix):
            return spec
    return None


def recognise(source: str | Path) -> FileKind:
    """What kind of file `source` is, from its name and (for JSON) its first key; a file no
    ruleset or command reads is a UserError that lists the kinds there are."""
    if described(source) is not None:
        return FileKind.LEVEL
    path = map_argument(source)
    suffix = path.suffix.lower()
    if suffix == ".json":
        kind = _json_kind(path)
        if kind is not None:
            return kind
    if suffix == ".png":
        return FileKind.LEVEL
    for spec in registry.specs():
        if suffix in spec.readers:
            return FileKind.LEVEL_SET if suffix in spec.level_sets else FileKind.LEVEL
    raise UserError(f"{path}: is not a file Rulefront reads; {known_files()}.")


def known_files() -> str:
    suffixes = sorted({s for spec in registry.specs() for s in spec.readers} | {".png"})
    prefixes = [spec.prefix + "..." for spec in registry.specs() if spec.prefix]
    return (f"levels are {', '.join(suffixes)} files or described positions "
            f"({', '.join(prefixes)}), replays and saves are .json")


def _json_kind(path: Path) -> FileKind | None:
    """REPLAY or SAVE for a JSON object with a `format` field; None for anything else (a
    ruleset's reader of .json files says what is wrong with those)."""
    data = read_bytes(path)
    try:
        raw = parse_json(data, path, "replay, save or level set")
    except UserError:
        try:
            json.loads(data, parse_int=len)  # syntax only: a long number is not a syntax error
        except ValueError:
            return None  # not JSON at all: the ruleset's reader says what is wrong
        except RecursionError:
            pass
        raise  # JSON, but refused (a repeated key, an endless number, too deep)
    if not isinstance(raw, dict) or "format" not in raw:
        return None
    return FileKind.SAVE if "rng_states" in raw else FileKind.REPLAY


def load_game_map(source: str | Path, level: str | int | None = None) -> GameMap:
    """Decode any level file into a GameMap whose sidecar names its ruleset."""
    spec = described(source)
    if spec is not None:
        if level is not None:
            raise UserError(f"{source}: --level only applies to level sets.")
        built: GameMap = registry.load_object(spec.prefix_reader)(str(source))
        return built
    path = map_argument(source)
    suffix = path.suffix.lower()
    if suffix == ".png":
        if level is not None:
            raise UserError(f"{path}: --level only applies to level sets.")
        sidecar = _png_sidecar(path)
        reader = registry.spec(sidecar.get("ruleset", GameMap.default_ruleset)).png_reader
        return registry.load_object(reader)(path) if reader else load_map(path, sidecar)
    for spec in registry.specs():
        target = spec.readers.get(suffix)
        if target is None:
            continue
        read = registry.load_object(target)
        if suffix in spec.level_sets:
            game_map: GameMap = read(path, level)
            return game_map
        if level is not None:
            raise UserError(f"{path}: --level only applies to level sets.")
        game_map = read(path)
        return game_map
    raise UserError(f"{path}: is not a level file; {known_files()}.")


def _png_sidecar(path: Path) -> dict[str, Any]:
    """A PNG's sidecar, read once, with the ruleset it names (skirmish when it names none)
    checked against the registry so that a typo is reported with the sidecar's path."""
    side = sidecar_path(path)
    if not side.exists():
        return {}
    return read_sidecar(side, registry.sidecar_schemas())


def load_engine(source: str | Path, seed: int = 0, level: str | int | None = None,
                ruleset: str | None = None) -> Engine:
    """An Engine on any level file, with the ruleset its format or sidecar names (or
    `ruleset` when given)."""
    return Engine.from_game_map(load_game_map(source, level), seed=seed, ruleset=ruleset)
