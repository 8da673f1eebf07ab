"""argparse types shared by the subcommands: numbers range-checked at the door, so a bad
`--budget -1` or `--repeat 0` is refused by argparse (exit 2) before any work starts."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from game.grundy import BYTES_PER_HEAP, BYTES_PER_VALUE, available_memory


def _number(text: str, kind: type) -> int | float:
    try:
        value = kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
    if kind is float and value != value:  # NaN passes every comparison
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    return value


def at_least(minimum: int) -> Callable[[str], int]:
    """A whole number >= minimum (--repeat, --games, --workers >= 1)."""
    def parse(text: str) -> int:
        value = int(_number(text, int))
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {value}")
        return value
    parse.__name__ = f"whole number >= {minimum}"
    return parse


def between(minimum: int, maximum: int) -> Callable[[str], int]:
    """A whole number in minimum..maximum: the ceiling is what one machine can get through in
    a day, so `--games 1000000000` is refused at the door instead of running for years."""
    def parse(text: str) -> int:
        value = int(_number(text, int))
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(
                f"must be from {minimum:,} to {maximum:,}, not {value:,}")
        return value
    parse.__name__ = f"whole number in {minimum}..{maximum}"
    return parse


positive_int = at_least(1)
count = at_least(0)
games = between(1, 100_000)  # games a command plays (match, tournament, balance, tune)
workers = between(1, 64)  # worker processes


def positive_float(text: str) -> float:
    """A number > 0 (--budget seconds)."""
    value = float(_number(text, float))
    if not 0 < value < float("inf"):
        finite = "" if value <= 0 else " and finite"  # 1e999 is infinity, which is > 0
        raise argparse.ArgumentTypeError(f"must be more than 0{finite}, not {text}")
    return value


def seat_option(name: str) -> Callable[[str], float]:
    """A number with a seat option's bounds (systems.ai.base.OPTION_LIMITS): `--think` as
    `think=`, `--nodes` as `nodes=`, so the flag and the option refuse the same values."""
    def parse(text: str) -> float:
        from systems.ai.base import OPTION_LIMITS, option_value

        try:
            value = option_value(name, text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(
                str(error).removeprefix(f"option {name} ")) from None
        return int(value) if OPTION_LIMITS[name][2] else value
    parse.__name__ = name
    return parse


def size_text(size: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if size < 1024 or unit == "PiB":
            return f"{size:.0f} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def fits_in_memory(per_item: int, what: str, minimum: int = 0) -> Callable[[str], int]:
    """A whole number >= minimum whose `per_item` bytes each fit in the memory available."""
    def parse(text: str) -> int:
        value = at_least(minimum)(text)
        need, have = (value + 1) * per_item, available_memory()
        if need > have:
            raise argparse.ArgumentTypeError(
                f"{value:,} {what} need about {size_text(need)} of memory; this machine has "
                f"{size_text(have)} available")
        return value
    parse.__name__ = f"whole number >= {minimum}"
    return parse


grundy_n = fits_in_memory(BYTES_PER_VALUE, "Grundy values")
grundy_max_n = fits_in_memory(BYTES_PER_HEAP, "heaps", minimum=1)


def out_file(text: str) -> str:
    """A file to write (--replay, -o, --save...): checked when parsed, so a folder that is a
    file, a device, a read-only folder or an empty name is refused before any work starts."""
    from game.errors import UserError
    from game.levels.files import writable

    try:
        writable(text)
    except UserError as error:
        raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None
    return text


def out_dir(text: str) -> str:
    """A folder to write files into (--out, --replays), checked like out_file."""
    from pathlib import Path

    from game.errors import UserError
    from game.levels.files import writable_folder

    try:
        if Path(text).exists() and not Path(text).is_dir():
            raise UserError(f"{text}: is a file; name a folder")
        writable_folder(text)
    except UserError as error:
        raise argparse.ArgumentTypeError(str(error).rstrip(".")) from None
    return text


def nonempty(text: str) -> str:
    """A name that must say something (--level): an empty string is an error, not a default
    (`--level ""` would otherwise solve the whole set)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; give a level id, or leave the option out")
    return text
