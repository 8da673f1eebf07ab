"""`rulefront bench [GROUP ...] [--json]`: print the medians each capability names."""

from __future__ import annotations

import argparse
import json

from game.bench import GROUPS, run_groups
from game.cli.args import between, positive_int
from game.errors import UserError
from game.progress import Progress, wanted


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure speed (medians of several runs)")
    p.add_argument("groups", nargs="*", metavar="GROUP", help=f"groups: {', '.join(GROUPS)} (default: all)")
    p.add_argument("--json", action="store_true", help="print one flat JSON object: figure -> median")
    p.add_argument("--repeat", type=positive_int, default=5, help="runs per figure (default 5)")
    p.add_argument("--keke", action="store_true", help="also run the Keke level set (slow)")
    p.add_argument("--games", type=between(1, 1000), default=50,
                   help="concurrent games for the server group (default 50)")
    p.add_argument("--think-ms", type=between(0, 10_000), default=None,
                   help="server group: each seat's pause in ms before a command, the pace of "
                        "people or of AIs with a time budget (default 100; 0 sends each "
                        "command as soon as the last is played; a pause other than 0 is "
                        "measured beside 0)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    names = args.groups or list(GROUPS)
    unknown = [n for n in names if n not in GROUPS]
    if unknown:
        raise UserError(f"unknown bench group {unknown[0]!r}; known groups: {', '.join(GROUPS)}.")
    figures: dict[str, float] = {}
    bar = Progress("bench", not args.json and wanted(False))
    try:
        for done, name in enumerate(names):
            bar.update(done, len(names), name)
            options = {"repeat": args.repeat, "keke": args.keke, "games": args.games}
            if args.think_ms is not None:
                options["think_ms"] = float(args.think_ms)
            figures.update(run_groups([name], options))
        bar.update(len(names), len(names))
    finally:
        bar.close()
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    else:
        width = max((len(k) for k in figures), default=0)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value:.6g}")
    return 0
