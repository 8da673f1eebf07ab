"""`rulefront tune`: self-play tuning of the heuristic's weights (CMA-ES), with a report;
`rulefront tune rules`: what each property is worth to a side, measured by simulation."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from game.cli.args import between, games, out_file, positive_float, workers
from game.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tune", help="tune the heuristic's weights by self-play (CMA-ES), or "
                                    "measure the rules' worth (tune rules)")
    p.add_argument("what", nargs="?", choices=("weights", "rules"), default="weights",
                   help="weights: the heuristic's weights by CMA-ES (default); rules: each "
                        "property's worth to a side, by playouts from sampled positions, "
                        "written as the rules section of an ai.yaml")
    p.add_argument("--maps", default=None,
                   help="maps to tune on: paths, shipped map names or quoted globs, "
                        "comma-separated (default duel; tune rules: every shipped skirmish "
                        "map)")
    p.add_argument("--games", type=games, default=None,
                   help="games per candidate per map in each generation, in swapped pairs "
                        "(default 4); tune rules: sampling games per map (default 4)")
    p.add_argument("--turns", type=between(1, 200), default=8,
                   help="tune rules: turns each playout plays (default 8)")
    p.add_argument("--every", type=positive_float, default=0.5,
                   help="tune rules: the chance that a turn's start is measured (default 0.5)")
    p.add_argument("--generations", type=between(1, 10_000), default=4, help="CMA-ES generations (default 4)")
    p.add_argument("--popsize", type=between(2, 1_000), default=6, help="candidates per generation (default 6)")
    p.add_argument("--sigma", type=positive_float, default=0.3,
                   help="first step size, in log-multipliers of the weights (default 0.3)")
    p.add_argument("--validate", type=between(0, 100_000), default=400,
                   help="games of tuned against old weights for the report (default 400; "
                        "0 skips it)")
    p.add_argument("--out", type=out_file, default="tuned-ai.yaml", metavar="FILE",
                   help="the tuned weights file to write (default tuned-ai.yaml); candidates go "
                        "to FILE's folder under STEM-candidates/; tune rules replaces the "
                        "rules section of FILE (data/ai.yaml to ship it), keeping its other "
                        "lines, or writes data/ai.yaml with the new section")
    p.add_argument("--report", type=out_file, metavar="FILE.json", help="also write the report as JSON")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=workers, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local worker processes (default) or Ray tasks")
    p.add_argument("--address", metavar="ray://HOST:PORT|auto",
                   help="with --backend ray: the cluster (the weights folder must be shared)")
    p.add_argument("--progress", action="store_true",
                   help="draw the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.what == "rules":
        return run_rules(args)
    return run_weights(args)


def run_rules(args: argparse.Namespace) -> int:
    """`rulefront tune rules`: measure, write the section, print the report."""
    import sys

    from game import MAPS
    from game.cli.tournament import expand_maps
    from game.progress import Progress, wanted
    from game.tournament.rulevalues import RuleTuneConfig, measure, report_text, write_rules
    from systems.ai.evaluate import AI_YAML

    if args.every > 1:
        raise UserError(f"--every must be at most 1 (a chance), not {args.every:g}.")
    if args.maps is None:
        from game.levels.loader import load_game_map

        maps = [str(m) for m in sorted(MAPS.glob("*.png"))
                if load_game_map(m).ruleset == "skirmish"]
    else:
        maps = expand_maps(args.maps)
    cfg = RuleTuneConfig(tuple(maps), args.games or 4, args.turns, args.every, args.seed)
    bar = Progress("sampling games", wanted(args.progress) and not args.json)
    try:
        report = measure(cfg, on_game=bar.update)
    finally:
        bar.close()
    command = " ".join(["rulefront tune rules", *sys.argv[3:]]) if sys.argv[2:3] == ["rules"] \
        else "rulefront tune rules"
    write_rules(Path(args.out), report, command, AI_YAML)
    if args.report:
        from game.levels.files import atomic_write

        atomic_write(Path(args.report), (json.dumps(report, indent=1) + "\n").encode())
    print(json.dumps(report) if args.json else report_text(report) + f"\nwritten: {args.out}")
    return 0


def run_weights(args: argparse.Namespace) -> int:
    from game.cli.tournament import expand_maps
    from game.levels.files import atomic_write
    from game.progress import wanted
    from game.tournament.tune import TuneConfig, report_text, tune

    args.games = 4 if args.games is None else args.games
    args.maps = args.maps or "duel"
    if args.games % 2:
        raise UserError("--games must be even: games are played in pairs with sides swapped.")
    out = Path(args.out)
    if any(c in str(out.resolve()) for c in ",:="):
        raise UserError(f"--out {out}: the path may not hold ',', ':' or '=' (it is passed "
                        "inside an AI seat, heuristic:weights=FILE).")
    cfg = TuneConfig(expand_maps(args.maps), args.games, args.generations, args.popsize,
                     args.sigma, args.seed, args.workers, args.backend, args.address,
                     out.resolve(), args.validate, wanted(args.progress))
    report = tune(cfg)
    if args.report:
        atomic_write(Path(args.report), (json.dumps(report, indent=1) + "\n").encode())
    print(json.dumps(report) if args.json else report_text(report))
    return 0
