"""`rulefront render FILE -o FILE.png`: a picture of a position, drawn offscreen; `-o
FILE.gif` (or `.mp4`) with a replay or save: the whole game, animated.

FILE is anything the loader reads: a map PNG, a `.keke` grid, a Keke JSON set (with --level),
a descent `.txt` or PNG heightmap, a described position, or a replay or save (drawn at its final
position). One-player levels are drawn as the level window shows them (moves, stars), with the
clock at 0:00.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from components.resources import SIZE_KEY
from game.cli.args import between, count, nonempty, out_file
from game.cli.common import LEVELS, RECORDS, add_map_argument, open_game
from game.render.layout import movie_size, parse_size
from game.session.seat import Forfeited, make_seats, step
from systems.ai import Budget


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help="draw a map, level or replay's final position to a PNG, "
                       "or a whole replay to an animated GIF, offscreen (no window, no X server)")
    add_map_argument(p)
    p.add_argument("-o", "--output", type=out_file, required=True, metavar="FILE",
                   help="where to save: .png (a still) or, for a replay, .gif or .mp4")
    p.add_argument("--size", help="picture size WxH (default 1024x768 for a PNG; 640x480 for "
                   "an animation, larger for a big map so that a cell is 16 pixels)")
    p.add_argument("--fps", type=int, default=12, help="animation frames per second (default 12)")
    p.add_argument("--tween", type=between(0, 30), default=3, metavar="N",
                   help="animation frames through each command that moves something (default 3)")
    p.add_argument("--seed", type=int, default=0, help="seed of the game set up")
    p.add_argument("--level", type=nonempty, metavar="ID", help="a level id in a Keke JSON level set")
    p.add_argument("--moves", type=count, default=0, metavar="N",
                   help="let random AIs play N commands first (a mid-game picture)")
    p.add_argument("--menu", nargs="?", const="", metavar="KEYS",
                   help="draw the title menu instead (no map), after these keys, comma-"
                        "separated window key names, e.g. --menu RETURN for New game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.menu is not None:
        from game.render.offscreen import render_menu_png

        width, height = parse_size(args.size or "1024x768")
        keys = [k.strip() for k in args.menu.split(",") if k.strip()]
        path = render_menu_png(args.output, width, height, keys, args.seed)
        print(f"wrote {path} ({width}x{height})")
        return 0
    if Path(args.output).suffix.lower() in (".gif", ".mp4"):
        return run_movie(args)
    from game.render.offscreen import render_png

    width, height = parse_size(args.size or "1024x768")
    engine, _record = open_game(args.map, "render", (*LEVELS, *RECORDS), level=args.level,
                                seed=args.seed)
    seats = make_seats(engine, {}, args.seed)  # every seat random: the default spec
    for _ in range(max(0, args.moves)):
        if engine.over:
            break
        outcome = step(seats[engine.side], engine, Budget())
        if isinstance(outcome, Forfeited):
            break
        engine.submit(outcome.command)
    ui = None
    if len(engine.ruleset.sides) == 1:
        from game.render.controllers.level import LevelController

        ui = LevelController(engine, args.map, args.level, args.seed, clock=lambda: 0.0).view()
    path = render_png(engine, args.output, width, height, ui)
    print(f"wrote {path} ({width}x{height})")
    return 0


def run_movie(args: argparse.Namespace) -> int:
    """The replay's game from its first command to its last, animated."""
    from game.cli.common import need_kind
    from game.render.movie import wind_back, write_movie

    need_kind(args.map, "render -o FILE.gif", RECORDS)
    engine, _record = open_game(args.map, "render", RECORDS)
    cols, rows = engine.world.resource(SIZE_KEY)
    width, height = parse_size(args.size) if args.size else movie_size(int(cols), int(rows))
    commands = wind_back(engine)
    movie = write_movie(engine, commands, args.output, width, height, args.fps, args.tween)
    print(f"wrote {movie.path} ({movie.width}x{movie.height}, {movie.frames} frames, "
          f"{movie.seconds:.1f} s, {len(commands)} commands)")
    return 0
