"""`rulefront tournament` (round robin, Bradley-Terry ratings) and `rulefront match --games N`."""

from __future__ import annotations

import argparse
import csv
import glob
import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.cli.args import games, out_dir, out_file, seat_option, workers
from game.data import map_argument
from game.errors import UserError
from game.progress import Progress, wanted
from systems.ai import Budget

if TYPE_CHECKING:
    from game.tournament.games import GameOutcome, GameSpec

# The tournament machinery (worker pools, Ray, statistics on numpy) is imported inside the
# functions that run games: `rulefront match` borrows this module's flags for one game.


def add_budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--think", type=seat_option("think"), metavar="SECONDS",
                        help="thinking time per action for searching AIs (minimax)")
    parser.add_argument("--nodes", type=seat_option("nodes"), metavar="N",
                        help="search nodes per action for searching AIs (deterministic)")


def budget_of(args: argparse.Namespace) -> Budget:
    if args.think is not None and args.think <= 0:
        raise UserError("--think must be a positive number of seconds.")
    if args.nodes is not None and args.nodes <= 0:
        raise UserError("--nodes must be a positive number.")
    return Budget(args.think, args.nodes)


def add_backend(parser: argparse.ArgumentParser) -> None:
    """--backend, --address, --results, --resume: where games run and where they are kept."""
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local: worker processes here (default); ray: one Ray task per "
                             "game (pip install -e '.[cluster]')")
    parser.add_argument("--address", metavar="ray://HOST:PORT|auto",
                        help="with --backend ray: the cluster to use (default: start a local "
                             "Ray with --workers CPUs, or all when --workers is 1)")
    parser.add_argument("--results", type=out_file, metavar="FILE",
                        help="append each finished game to FILE as one JSON line")
    parser.add_argument("--resume", action="store_true",
                        help="with --results: keep the games FILE already holds, play the rest")


def play(specs: list[GameSpec], args: argparse.Namespace,
         quiet: bool) -> tuple[list[GameOutcome], bool]:
    """Run the games on the chosen backend: (outcomes in game order, whether Ctrl-C cut it)."""
    from game.tournament.backends import Interrupted, make_backend, run_games
    from game.tournament.results import ResultsFile, recorded

    if args.resume and not args.results:
        raise UserError("--resume needs --results FILE (the file to resume from).")
    backend = make_backend(args.backend, args.workers, args.address)
    done = recorded(Path(args.results), specs) if args.resume else []
    results = ResultsFile(Path(args.results), specs) if args.results else None
    bar = Progress("games", not quiet and wanted(False))
    try:
        return run_games(specs, backend=backend, progress=bar.update if bar.enabled else None,
                         on_result=results, done=done), False
    except Interrupted as stop:
        bar.close()
        print(f"\ninterrupted: {len(stop.outcomes)} of {len(specs)} games finished; "
              + (f"--resume from {args.results} plays the rest." if args.results else
                 "add --results FILE to be able to resume."), file=sys.stderr)
        return stop.outcomes, True
    finally:
        bar.close()
        if results:
            results.close()


def _check_counts(games: int, workers: int) -> None:
    if games < 1:
        raise UserError("--games must be at least 1.")
    if workers < 1:
        raise UserError("--workers must be at least 1.")


# -- match --games N -------------------------------------------------------------------------


def run_many(args: argparse.Namespace) -> int:
    """`rulefront match MAP --red A --blue B --games N`: the swapped-pairs match summary."""
    from game.tournament.games import summarize_match, swapped_pairs

    _check_counts(args.games, args.workers)
    a, b = args.red, args.blue
    if a == b:
        raise UserError(f"--red and --blue are both '{a}'; a multi-game match compares two "
                        "different seats (add an option to one, e.g. minimax:think=0.5).")
    specs = swapped_pairs(str(args.map), a, b, args.games, args.seed, budget_of(args),
                          args.replays)
    outcomes, interrupted = play(specs, args, args.json)
    summary = summarize_match(outcomes, a, b)
    print(json.dumps(summary) if args.json else match_table(summary))
    return 130 if interrupted else 0


def match_table(summary: dict[str, Any]) -> str:
    """The match summary as a small text table."""
    lines = [f"{summary['games']} games on {summary['map']}, sides swapped on each seed",
             f"{'AI':<24} {'side':<5} {'W':>4} {'D':>4} {'L':>4} {'score':>6}  95% interval"
             f"  {'ms/action':>9}"]
    for seat, row in summary["results"].items():
        for side, part in (("all", row), ("red", row["as_red"]), ("blue", row["as_blue"])):
            lo, hi = part["ci95"]
            think = f"{row['think_ms_per_action']:9.2f}" if side == "all" else ""
            lines.append(f"{seat[:24]:<24} {side:<5} {part['wins']:>4} {part['draws']:>4} "
                         f"{part['losses']:>4} {part['score']:>6.3f}  [{lo:.3f}, {hi:.3f}]"
                         f"  {think}")
    for seat, row in summary["results"].items():
        if "nodes_per_action" in row:
            lines.append(f"{seat}: {row['nodes_per_action']:.0f} search nodes per action, "
                         f"{row['nodes_per_s']:.0f} nodes/s while thinking")
    elo = summary["elo"]
    lo, hi = elo["ci95"]
    lines.append(f"Elo {elo['player']} - {elo['opponent']}: {elo['difference']:+.0f} "
                 f"[{lo:+.0f}, {hi:+.0f}]; red side scored {summary['sides']['red']:.3f}; "
                 f"average {summary['avg_rounds']:.1f} rounds; endings: "
                 + ", ".join(f"{k} {v}" for k, v in summary["endings"].items()))
    changes = summary["rule_changes"]
    lines.append(f"rules changed in {changes['games']} of {summary['games']} games; commands "
                 "that formed or broke a rule: "
                 + ", ".join(f"{seat} {n}" for seat, n in changes["by_seat"].items()))
    for game in summary["error_games"]:
        lines.append(f"error in game {game['game']} ({game['red']} vs {game['blue']}, seed "
                     f"{game['seed']}): {game['error']}")
    return "\n".join(lines)


# -- tournament ------------------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tournament", help="round robin of AIs on maps, with Elo ratings")
    p.add_argument("--ais", default="random,heuristic,minimax",
                   help="comma-separated seats (default random,heuristic,minimax); "
                        "write options with ';' instead of ',' e.g. minimax:think=0.2;width=8")
    p.add_argument("--maps", default="duel",
                   help="map paths, shipped map names or glob patterns, comma-separated "
                        "(quote globs; default: duel)")
    p.add_argument("--games", type=games, default=10, help="games per pair of AIs per map")
    p.add_argument("--seed", type=int, default=0, help="seed of the first pair of games")
    p.add_argument("--workers", type=workers, default=1, help="worker processes")
    p.add_argument("--replays", type=out_dir, metavar="DIR", help="save every game's replay here")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--csv", type=out_file, metavar="FILE", help="write one row per game to FILE")
    p.add_argument("--plot", type=out_file, metavar="FILE.png", help="draw the ratings with their intervals")
    add_budget(p)
    add_backend(p)
    p.set_defaults(func=run_tournament)


def expand_maps(text: str) -> list[str]:
    maps: list[str] = []
    for pattern in filter(None, (p.strip() for p in text.split(","))):
        found = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else \
            [str(map_argument(pattern))]  # a path, or a shipped map's name
        if not found:
            raise UserError(f"--maps pattern '{pattern}' matches no file.")
        for path in found:
            if not Path(path).is_file():
                raise UserError(f"map {path}: no such file.")
        maps += [m for m in found if m not in maps]
    if not maps:
        raise UserError("--maps names no map; give a path or a pattern like 'maps/*.png'.")
    return maps


def run_tournament(args: argparse.Namespace) -> int:
    from game.levels.files import atomic_write
    from game.tournament.games import round_robin, summarize_tournament

    ais = [a.strip().replace(";", ",") for a in args.ais.split(",") if a.strip()]
    if len(ais) < 2 or len(set(ais)) != len(ais):
        raise UserError("--ais must name at least two different AIs, e.g. random,heuristic.")
    _check_counts(args.games, args.workers)
    maps = expand_maps(args.maps)
    specs = round_robin(ais, maps, args.games, args.seed, budget_of(args), args.replays)
    outcomes, interrupted = play(specs, args, args.json)
    summary = summarize_tournament(outcomes, ais)
    if args.csv:
        atomic_write(Path(args.csv), games_csv(outcomes).encode())
    if args.plot:
        atomic_write(Path(args.plot), ratings_png(summary))
    print(json.dumps(summary) if args.json else tournament_table(summary))
    return 130 if interrupted else 0


def games_csv(outcomes: list[GameOutcome]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["game", "map", "seed", "red", "blue", "winner", "reason", "rounds",
                     "commands", "red_think_s", "blue_think_s", "error"])
    for o in outcomes:
        writer.writerow([o.index + 1, o.map, o.seed, o.red, o.blue, o.winner, o.reason, o.rounds,
                         o.commands, f"{o.think['red']:.4f}", f"{o.think['blue']:.4f}",
                         o.error or ""])
    return out.getvalue()


def tournament_table(summary: dict[str, Any]) -> str:
    ais = list(summary["crosstable"])
    lines = [f"{summary['games']} games on {', '.join(summary['maps'])}",
             "ratings (Bradley-Terry fit over all games, Elo scale, mean 0, 95% interval):"]
    for r in summary["ratings"]:
        lines.append(f"  {r['name'][:28]:<28} {r['elo']:+7.1f}  [{r['low']:+7.1f}, "
                     f"{r['high']:+7.1f}]  {r['games']} games, score {r['score']:.3f}")
    width = max(8, *(len(a) for a in ais))
    lines.append("crosstable (row's score against column):")
    lines.append(" " * (width + 2) + " ".join(f"{a[:width]:>{width}}" for a in ais))
    for a in ais:
        cells = []
        for b in ais:
            value = summary["crosstable"][a].get(b)
            cells.append(f"{'-' if value is None else f'{value:.3f}':>{width}}")
        lines.append(f"  {a[:width]:<{width}}" + " ".join(cells))
    for row in summary["errors"]:
        a, b = row["pair"]
        lines.append(f"errors: {a} vs {b} on {row['map']}: {row['errors']} games not played "
                     f"(games {', '.join(map(str, row['games']))}): {row['error']}")
    return "\n".join(lines)


def ratings_png(summary: dict[str, Any]) -> bytes:
    """A bar-free chart: each AI's rating as a dot with its 95% interval as a line."""
    from PIL import Image, ImageDraw

    ratings = summary["ratings"]
    row_h, left, right, top = 36, 200, 40, 40
    width, height = 720, top + row_h * len(ratings) + 40
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    lo = min(r["low"] for r in ratings)
    hi = max(r["high"] for r in ratings)
    lo, hi = (lo - 50, hi + 50) if hi > lo else (lo - 100, hi + 100)

    def x_of(elo: float) -> float:
        return left + (elo - lo) / (hi - lo) * (width - left - right)

    draw.text((10, 10), f"Ratings (Elo, 95% interval), {summary['games']} games", fill="black")
    zero = x_of(0.0)
    draw.line([(zero, top - 5), (zero, height - 30)], fill=(200, 200, 200))
    for i, r in enumerate(ratings):
        y = top + row_h * i + row_h // 2
        draw.text((10, y - 6), r["name"][:30], fill="black")
        draw.line([(x_of(r["low"]), y), (x_of(r["high"]), y)], fill=(60, 90, 200), width=3)
        cx = x_of(r["elo"])
        draw.ellipse([cx - 5, y - 5, cx + 5, y + 5], fill=(200, 40, 40))
        draw.text((cx + 8, y - 16), f"{r['elo']:+.0f}", fill="black")
    for tick in range(int(lo // 100) * 100, int(hi) + 1, 100):
        if lo <= tick <= hi:
            draw.text((x_of(tick) - 10, height - 24), f"{tick:+d}", fill="gray")
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
