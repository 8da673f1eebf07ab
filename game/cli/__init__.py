"""The `rulefront` command line: one module per subcommand, each with `register(subparsers)`."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

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
    "ais",
    "envs",
    "tune",
    "balance",
    "serve",
    "online",
]


# The one-line help of each subcommand, so that `rulefront --help` and every command other
# than the one typed cost no import. Each must equal the help its module's register() gives
# (tests/unit/cli/test_startup.py checks); a command missing here is imported to register.
SUMMARIES = {
    "match": "play a headless match between AIs",
    "tournament": "round robin of AIs on maps, with Elo ratings",
    "play": "play hotseat or against AIs (window, or --text)",
    "replay": "re-simulate a replay and verify its result",
    "map": "check a map or print the colour legend",
    "maps": "list the shipped maps and levels, by the names that open them",
    "bench": "measure speed (medians of several runs)",
    "grundy": "Sprague-Grundy values and periods of octal games",
    "solve": "solve a puzzle or descent level, a skirmish challenge (or a Keke level set)",
    "generate": "generate descent levels or a skirmish map",
    "render": "draw a map, level or replay's final position to a PNG, or a whole replay to an "
              "animated GIF, offscreen (no window, no X server)",
    "edit": "paint a map PNG and its sidecar in a window",
    "ais": "list every AI a seat can name (built-in and plug-ins)",
    "envs": "describe (and check) the PettingZoo/Gymnasium environment of a map or level",
    "tune": "tune the heuristic's weights by self-play (CMA-ES), or measure the rules' worth (tune rules)",
    "balance": "play one AI against itself on a map: is it fair?",
    "serve": "host games for network play, bots and spectators",
    "online": "play, watch and host games on a rulefront server",
}


class Parser(argparse.ArgumentParser):
    """argparse, but a refused argument is one line naming the fix, like every other refusal
    (argparse's default prints the whole usage block first)."""

    def error(self, message: str) -> NoReturn:
        message = message.removeprefix("argument ").rstrip(".")
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help).\n")


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The parser with `chosen`'s own options; every other command is only named, so its
    module (and whatever numba, numpy or pyglet it needs) is not imported."""
    parser = Parser(
        prog="rulefront",
        description="Turn-based tactics on grid maps drawn as PNG images.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if name != chosen and name in SUMMARIES:
            sub.add_parser(name, help=SUMMARIES[name], add_help=False)
            continue
        try:
            module = importlib.import_module(f"game.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"game.cli.{name}":
                continue  # a subcommand not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(chosen)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        if args.command is None:
            args = build_parser("match").parse_args(["match", *argv])
        else:
            parser.print_help()
            return 2
    try:
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a full disk or closed pipe under stdout shows here, not at exit
        return code
    except UserError as exc:
        print(f"rulefront: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("rulefront: interrupted.", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        # An OS error no reader or writer of ours caught (stdout on a full disk): one sentence,
        # not a traceback. Our own files say more (game.data.read_bytes, levels.maps.writable).
        where = exc.filename or "standard output"
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - nothing may raise at exit
        print(f"rulefront: {where}: {exc.strerror or exc}.", file=sys.stderr)
        return 2
