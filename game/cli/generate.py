"""`rulefront generate descent|skirmish`: random levels that are known to be playable."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.cli.args import at_least, positive_int


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate descent levels or a skirmish map")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    d = kinds.add_parser("descent", help="solvable descent heightmaps, ranked by difficulty")
    d.add_argument("--size", type=at_least(2), default=6, help="cells a side (default 6)")
    d.add_argument("--count", type=positive_int, default=5, help="levels to write (default 5)")
    d.add_argument("--out", required=True, metavar="DIR", help="folder for the .txt levels")
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--slope", type=positive_int, default=2, help="steepest step between neighbours")
    d.add_argument("--bumps", type=float, default=0.25,
                   help="random raised blocks per cell (default 0.25)")
    d.add_argument("--prefix", default="descent", help="file names: PREFIX-01.txt ...")
    d.add_argument("--json", action="store_true", help="print what was written as JSON")
    d.set_defaults(func=run_descent)
    s = kinds.add_parser("skirmish", help="a symmetric skirmish map (PNG + sidecar)")
    s.add_argument("--size", type=at_least(2), default=24)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--out", required=True, metavar="FILE", help="the map PNG to write")
    s.set_defaults(func=run_skirmish)


def run_descent(args: argparse.Namespace) -> int:
    from game.generate.descent import generate, write_levels

    levels = generate(args.size, args.count, args.seed, args.slope, args.bumps)
    paths = write_levels(levels, Path(args.out), args.prefix)
    rows = [{"file": str(p), "optimal": g.length, "needs_push": g.needs_push,
             "stars": g.stars()} for p, g in zip(paths, levels, strict=True)]
    if args.json:
        print(json.dumps(rows))
    else:
        for row in rows:
            label = "needs a push" if row["needs_push"] else "no push needed"
            print(f"{row['file']}: optimal {row['optimal']} moves, {label}")
    return 0


def run_skirmish(args: argparse.Namespace) -> int:
    from game.generate.skirmish import write_skirmish

    write_skirmish(Path(args.out), args.size, args.seed)
    print(f"wrote {args.out} ({args.size}x{args.size}, seed {args.seed})")
    return 0
