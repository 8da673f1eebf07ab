"""`rulefront generate descent|skirmish`: random levels that are known to be playable."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.cli.args import at_least, between, games, out_dir, out_file, positive_int, workers


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate descent levels or a skirmish map")
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    d = kinds.add_parser("descent", help="solvable descent heightmaps, ranked by difficulty")
    d.add_argument("--size", type=at_least(2), default=6, help="cells a side (default 6)")
    d.add_argument("--count", type=between(1, 10_000), default=5, help="levels to write (default 5)")
    d.add_argument("--out", type=out_dir, required=True, metavar="DIR", help="folder for the .txt levels")
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
    s.add_argument("--out", type=out_file, required=True, metavar="FILE", help="the map PNG to write")
    s.add_argument("--balanced", action="store_true",
                   help="keep generating (seeds SEED, SEED+1, ...) until mirrored AIs score "
                        "red within 0.5 +- 0.05 on the map (rulefront balance)")
    s.add_argument("--balance-games", type=games, default=40, metavar="N",
                   help="with --balanced: games each candidate map is judged on (default 40)")
    s.add_argument("--tries", type=between(1, 10_000), default=20,
                   help="with --balanced: maps to try before giving up (default 20)")
    s.add_argument("--ai", default="heuristic",
                   help="with --balanced: the AI in both seats (default heuristic)")
    s.add_argument("--workers", type=workers, default=1, help="with --balanced: worker processes")
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

    if not args.balanced:
        write_skirmish(Path(args.out), args.size, args.seed)
        print(f"wrote {args.out} ({args.size}x{args.size}, seed {args.seed})")
        return 0
    from game.cli.balance import balance_report, check_counts
    from game.errors import UserError
    from systems.ai import make_ai

    check_counts(args.balance_games, args.workers)
    if args.tries < 1:
        raise UserError("--tries must be at least 1.")
    make_ai(args.ai)
    out = Path(args.out)
    scores = []
    for seed in range(args.seed, args.seed + args.tries):
        write_skirmish(out, args.size, seed, name=out.stem)
        summary, _played = balance_report(str(out), args.ai, args.balance_games, 0, args.workers)
        red = summary["sides"]["red"]
        scores.append(f"seed {seed}: {red['score']:.3f}")
        if summary["balanced"]:
            print(f"wrote {out} ({args.size}x{args.size}, seed {seed}): red scored "
                  f"{red['score']:.3f} [{red['ci95'][0]:.3f}, {red['ci95'][1]:.3f}] in "
                  f"{args.balance_games} games of {args.ai} against itself "
                  f"(the {len(scores)}. map tried)")
            return 0
    out.unlink(missing_ok=True)
    out.with_suffix(".yaml").unlink(missing_ok=True)
    raise UserError(f"no balanced map in {args.tries} tries (red scores: {'; '.join(scores)}); "
                    "try another --seed, more --tries or more --balance-games.")
