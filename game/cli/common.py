"""Flags and helpers several subcommands share, among them the one way every command opens
the file it is given."""

from __future__ import annotations

import argparse
from collections.abc import Collection
from pathlib import Path

from game import registry
from game.cli.args import between, positive_float
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import FileKind, load_engine, recognise
from game.levels.maps import DEFAULT_MAP
from game.session.replay import Record, read_record, rebuild

LEVELS = (FileKind.LEVEL, FileKind.LEVEL_SET)
RECORDS = (FileKind.REPLAY, FileKind.SAVE)


def add_map_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("map", nargs="?", default=str(DEFAULT_MAP),
                        help="a map or level file, or a shipped map's name (default: duel)")


def add_seats(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument("--red", default=default, metavar="SEAT",
                        help=f"who plays red: human or an AI such as random (default {default})")
    parser.add_argument("--blue", default=default, metavar="SEAT",
                        help=f"who plays blue (default {default})")
    parser.add_argument("--seed", type=int, default=0, help="seed for every random choice")


def add_window_flags(parser: argparse.ArgumentParser, fps_help: str | None = None) -> None:
    """--size and --quit-after for every command that opens a window; --fps where it animates."""
    if fps_help is not None:
        parser.add_argument("--fps", type=between(1, 240), default=30, help=fps_help)
    parser.add_argument("--size", default="1024x768", help="window size WxH")
    parser.add_argument("--quit-after", type=positive_float, metavar="SECONDS",
                        help="close the window by itself after this long (demos, smoke tests)")
    parser.add_argument("--no-anim", action="store_true",
                        help="no animation: pieces jump to their cells (or set animate: false "
                             "in data/client.yaml)")


def open_game(source: str | Path, command: str, accepts: Collection[FileKind],
              level: str | None = None, seed: int = 0) -> tuple[Engine, Record | None]:
    """The engine for the file a command was given, and the record when it is a replay or a
    save; a kind of file the command cannot use is refused with one sentence."""
    kind = need_kind(source, command, accepts)
    if kind in RECORDS:
        if level is not None:
            raise UserError(f"{source}: is a {kind.value}; --level only applies to level sets.")
        record = read_record(source)
        return rebuild(record, source), record
    return load_engine(source, seed=seed, level=level), None


def need_kind(source: str | Path, command: str, accepts: Collection[FileKind]) -> FileKind:
    """The kind of file `source` is, or one sentence when the command cannot use it."""
    kind = recognise(source)
    if kind not in accepts:
        wanted = " or ".join(k.value for k in accepts)
        raise UserError(f"{source}: is a {kind.value}; `rulefront {command}` takes a {wanted}.")
    return kind


def need_sides(engine: Engine, source: str | Path, command: str) -> None:
    """Refuse a one-player level where a command pits sides against each other."""
    if len(engine.ruleset.sides) > 1:
        return
    two_sided = [spec.name for spec in registry.specs()
                 if len(registry.load_object(spec.factory).sides) > 1]
    raise UserError(f"{source}: is a one-player {engine.ruleset.name} level; `rulefront "
                    f"{command}` pits sides against each other ({', '.join(two_sided)} maps): "
                    f"play it with `rulefront play {source}`.")


def need_one_player(engine: Engine, source: str | Path, flag: str) -> None:
    """Refuse a level-only flag (--moves, --json of play) on a game of sides."""
    if len(engine.ruleset.sides) > 1:
        raise UserError(f"{source}: is a {engine.ruleset.name} map of sides; {flag} is for "
                        "one-player levels.")
