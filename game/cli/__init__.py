"""The `rulefront` command line: one module per subcommand, each with `register(subparsers)`."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from game.errors import UserError

# Subcommand modules under game/cli/; each defines register(subparsers) and sets `func`.
COMMANDS = [
    "match",
    "tournament",
    "play",
    "replay",
    "map",
    "maps",
    "bench",
    "grundy",
    "solve",
    "generate",
    "render",
    "edit",
    "tune",
    "balance",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulefront",
        description="Turn-based tactics on grid maps drawn as PNG images.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"game.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"game.cli.{name}":
                continue  # a subcommand not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        if args.command is None:
            args = parser.parse_args(["match", *(argv or [])])
        else:
            parser.print_help()
            return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"rulefront: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulefront: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
