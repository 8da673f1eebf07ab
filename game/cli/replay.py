"""`rulefront replay FILE`: re-simulate a replay and check its recorded result."""

from __future__ import annotations

import argparse
import json

from game.ascii import board, roster
from game.errors import UserError
from game.replay import read_record, verify


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-simulate a replay and verify its result")
    p.add_argument("file", help="a replay JSON written by match --replay or play")
    p.add_argument("--show", action="store_true", help="draw the final board")
    p.add_argument("--text", action="store_true", help="stay in the terminal (no window)")
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    record = read_record(args.file)
    report = verify(record, args.file)
    if args.show:
        from game.replay import rebuild

        engine = rebuild(record, args.file)
        if engine.ruleset.name in ("puzzle", "descent"):
            from game.levelplay import level_text

            print(level_text(engine))
        else:
            print(board(engine.world))
            print(roster(engine.world))
    if args.json:
        print(json.dumps(report))
    elif report["verified"]:
        result = report["result"] or {"winner": "nobody yet", "reason": "unfinished"}
        print(f"verified: {report['commands']} commands replay to {result['winner']} "
              f"({result['reason']}).")
    if not report["verified"]:
        raise UserError(f"{args.file}: replays to {report['result']}, but it recorded "
                        f"{report['recorded']}.")
    return 0
