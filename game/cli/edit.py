"""`rulefront edit MAP` / `rulefront edit MAP --new 24x24`: paint a map in a window."""

from __future__ import annotations

import argparse
from pathlib import Path

from game.cli.args import between
from game.cli.common import add_window_flags, need_kind
from game.errors import UserError
from game.levels.loader import FileKind
from game.levels.maps import GameMap
from game.render.controllers.editor import EditorController, load_draft, new_draft


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("edit", help="paint a map PNG and its sidecar in a window")
    p.add_argument("map", nargs="?", default="untitled.png",
                   help="the map PNG to edit or create (default untitled.png)")
    p.add_argument("--new", metavar="WxH", help="start an empty map of this many cells")
    p.add_argument("--ruleset", default=GameMap.default_ruleset, help="ruleset of a new map")
    p.add_argument("--name", help="set the sidecar's name")
    p.add_argument("--turn-limit", type=between(1, 10_000), help="set the sidecar's turn_limit")
    add_window_flags(p)
    p.set_defaults(func=run)


def make_editor(args: argparse.Namespace) -> EditorController:
    path = Path(args.map)
    if args.new:
        if path.exists():
            raise UserError(f"{path} exists; edit it without --new, or name a new file.")
        draft = new_draft(args.new, args.ruleset)
    else:
        need_kind(path, "edit", (FileKind.LEVEL,))
        draft = load_draft(path)
    ctrl = EditorController(draft, path)
    if args.name:
        ctrl.set_field("name", args.name)
    if args.turn_limit:
        ctrl.set_field("turn_limit", args.turn_limit)
    ctrl.undo_stack.clear()  # the flags are the starting point, not edits to undo
    return ctrl


def run(args: argparse.Namespace) -> int:
    from game.render.app import run_editor_window

    return run_editor_window(make_editor(args), args.size, args.quit_after)
