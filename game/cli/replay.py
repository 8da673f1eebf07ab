"""`rulefront replay FILE`: re-simulate a replay, check its recorded result, then watch it.

The viewer window opens for a person at a terminal (or with --window) unless --json, --show
or --text is given; with no display the terminal verdict is all there is.
"""

from __future__ import annotations

import argparse
import json
import sys

from game.cli.common import RECORDS, add_window_flags, need_kind
from game.errors import UserError
from game.session.replay import Record, read_record, verify


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-simulate a replay and verify its result")
    p.add_argument("file", help="a replay JSON written by match --replay or play")
    p.add_argument("--show", action="store_true", help="draw the final board")
    p.add_argument("--text", action="store_true", help="stay in the terminal (no window)")
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.add_argument("--window", action="store_true",
                   help="open the viewer even when output is not a terminal")
    add_window_flags(p, fps_help="viewer: frames per second")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    need_kind(args.file, "replay", RECORDS)
    record = read_record(args.file)
    report = verify(record, args.file)
    if args.show:
        from game.session.replay import rebuild

        engine = rebuild(record, args.file)
        print(engine.ruleset.text_board(engine.world))
        for line in engine.ruleset.status_lines(engine.world):
            print(line)
    if args.json:
        print(json.dumps(report))
    elif report["verified"]:
        result = report["result"] or {"winner": "nobody yet", "reason": "unfinished"}
        print(f"verified: {report['commands']} commands replay to {result['winner']} "
              f"({result['reason']}).")
    if not report["verified"]:
        # Exit 1, not 2: the file was read fine, it just does not verify (README, exit codes).
        print(f"rulefront: {args.file}: replays to {report['result']}, but it recorded "
              f"{report['recorded']}.", file=sys.stderr)
        return 1
    if wants_viewer(args):
        view_replay(record, args)
    return 0


def wants_viewer(args: argparse.Namespace) -> bool:
    """The viewer opens for a person at a terminal, or when asked with --window."""
    if args.json or args.show or args.text:
        return False
    return bool(args.window or sys.stdout.isatty())


def view_replay(record: Record, args: argparse.Namespace) -> None:
    """Open the replay viewer; where no window can open, the verdict above is all there is."""
    try:
        from game.render.app import run_replay_window
    except ImportError:
        return
    from game.session.replay import rebuild

    try:
        run_replay_window(rebuild(record, args.file), args.fps, args.size, args.quit_after,
                          False if getattr(args, "no_anim", False) else None)
    except UserError:
        print("(no display here for the viewer; the verdict above is the result.)",
              file=sys.stderr)
