"""`rulefront play`: a game in a window, or in the terminal with --text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.cli.common import add_map_argument, add_seats
from game.engine import Engine
from game.errors import UserError
from game.match import make_seats
from game.replay import read_record, rebuild
from game.textplay import TextGame, default_save_path, restore_rng


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play hotseat or against AIs (window, or --text)")
    add_map_argument(p)
    add_seats(p, default="human")
    p.add_argument("--text", action="store_true", help="play in the terminal instead of a window")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game exactly")
    p.add_argument("--save", metavar="FILE",
                   help=f"where to autosave after every command (default {default_save_path()})")
    p.add_argument("--fps", type=int, default=30, help="window: AI animation speed")
    p.add_argument("--size", default="1024x768", help="window size WxH")
    p.add_argument("--quit-after", type=float, metavar="SECONDS",
                   help="window: close by itself after this long (demos, smoke tests)")
    p.add_argument("--series", type=int, metavar="N",
                   help="terminal: play N games in a row with a running tally; the loser of "
                        "each game moves first (red) in the next")
    p.set_defaults(func=run)


def load_game(args: argparse.Namespace) -> tuple[Engine, dict, int]:
    """The engine and seats to play: a resumed save, or a new game on the map."""
    if args.resume:
        record = read_record(args.resume)
        engine = rebuild(record, args.resume)
        seats = make_seats(engine, record.seats, record.seed)
        for side, raw in record.rng_states.items():
            if side in seats:
                restore_rng(seats[side], raw)
        return engine, seats, record.seed
    engine = Engine.from_map(args.map, seed=args.seed)
    return engine, make_seats(engine, {"red": args.red, "blue": args.blue}, args.seed), args.seed


def run(args: argparse.Namespace) -> int:
    if getattr(args, "series", None) is not None:
        return run_series_args(args)
    engine, seats, seed = load_game(args)
    save_path = Path(args.save) if args.save else default_save_path()
    if args.text:
        game = TextGame(engine, seats, seed, save_path, input, sys.stdout)
        return game.run()
    try:
        from game.render.app import run_window
    except ImportError:
        raise UserError("the window client is not available here; play in the terminal "
                        "with --text.") from None
    return run_window(engine, seats, seed, save_path, args)


def run_series_args(args: argparse.Namespace) -> int:
    from game.series import run_series

    if args.series < 1:
        raise UserError("--series must be at least 1 game.")
    if args.resume:
        raise UserError("--series starts new games; it cannot be combined with --resume.")
    if not args.text:
        raise UserError("--series plays in the terminal; add --text.")
    save_path = Path(args.save) if args.save else default_save_path()
    run_series(args.map, args.red, args.blue, args.series, args.seed, save_path, input,
               sys.stdout)
    return 0
