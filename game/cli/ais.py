"""`rulefront ais [--json]`: every AI a seat can name, its options, what it needs of a
ruleset (its NEEDS), and where it comes from."""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("ais", help="list every AI a seat can name (built-in and plug-ins)")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from systems.ai.plugins import listing

    rows = listing()
    if args.json:
        print(json.dumps([row.to_json() for row in rows]))
        return 0
    width = max(len(row.name) for row in rows)
    for row in rows:
        where = row.source + (f" of {row.distribution}" if row.distribution else "")
        options = ", ".join(row.options) or "no options"
        needs = ", ".join(row.needs) or "nothing"
        line = (f"{row.name:<{width}}  {where}, {row.target}; options: {options}; "
                f"needs: {needs}")
        print(line + (f" (cannot be loaded: {row.error})" if row.error else ""))
    print("A seat may also name any class with choose(engine, rng, budget): "
          "--red module.path:Class[:key=value,...]")
    return 0
