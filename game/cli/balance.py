"""`rulefront balance MAP`: mirrored AIs on one map: side scores, damage by class, a death map."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from game.cli.args import games, out_file, workers
from game.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("balance", help="play one AI against itself on a map: is it fair?")
    p.add_argument("map", help="a skirmish map file or a shipped map's name")
    p.add_argument("--games", type=games, default=40, help="games, seeds SEED.. (default 40)")
    p.add_argument("--ai", default="heuristic", help="the AI in both seats (default heuristic)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game")
    p.add_argument("--workers", type=workers, default=1, help="worker processes (default 1)")
    p.add_argument("--heatmap", type=out_file, metavar="FILE.png",
                   help="write where units died as a PNG (default: MAP-deaths.png here)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=run)


def balance_report(map_path: str, ai: str, games: int, seed: int, workers: int,
                   quiet: bool = False) -> tuple[dict, list]:
    """Play and summarise (shared with `generate skirmish --balanced`)."""
    from game.progress import Progress, wanted
    from game.tournament.balance import run_balance, summarize

    bar = Progress(f"balance {Path(map_path).stem}", wanted(False) and not quiet)
    played = run_balance(map_path, ai, games, seed, workers,
                         lambda done, total: bar.update(done, total))
    bar.close()
    return summarize(played, map_path, ai), played


def check_counts(games: int, workers: int) -> None:
    if games < 1:
        raise UserError("--games must be at least 1.")
    if workers < 1:
        raise UserError("--workers must be at least 1.")


def run(args: argparse.Namespace) -> int:
    from game.cli.common import need_kind, need_sides
    from game.data import map_argument
    from game.levels.files import atomic_write
    from game.levels.loader import FileKind, load_engine
    from game.tournament.balance import balance_text, heatmap_png
    from systems.ai import make_ai

    check_counts(args.games, args.workers)
    path = str(map_argument(args.map))
    need_kind(path, "balance", (FileKind.LEVEL,))
    engine = load_engine(path)
    need_sides(engine, path, "balance")
    engine.world.close()
    if not path.endswith(".png"):
        raise UserError(f"{path}: balance reads a PNG map (its heatmap is drawn on the image).")
    make_ai(args.ai)
    summary, played = balance_report(path, args.ai, args.games, args.seed, args.workers,
                                     args.json)
    heatmap = Path(args.heatmap or f"{Path(path).stem}-deaths.png")
    atomic_write(heatmap, heatmap_png(path, played))
    summary["heatmap"] = str(heatmap)
    if args.json:
        print(json.dumps(summary))
    else:
        print(balance_text(summary))
        print(f"deaths drawn in {heatmap}", file=sys.stderr)
    return 0
