"""`rulefront play`: a game in a window, or in the terminal with --text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.cli.common import add_map_argument, add_seats, add_window_flags
from game.engine import Engine
from game.errors import UserError
from game.session.match import make_seats
from game.session.replay import read_record, rebuild
from game.text.play import TextGame, default_save_path, restore_rng


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play hotseat or against AIs (window, or --text)")
    add_map_argument(p)
    add_seats(p, default="human")
    p.add_argument("--text", action="store_true", help="play in the terminal instead of a window "
                   "(levels: also with --moves or --json)")
    p.add_argument("--resume", metavar="SAVE", help="continue a saved game exactly")
    p.add_argument("--save", metavar="FILE",
                   help=f"where to autosave after every command (default {default_save_path()})")
    p.add_argument("--octal", metavar="CODE",
                   help="play an octal take-away game, e.g. 0.137 or nim (with --heaps)")
    p.add_argument("--heaps", default="7,9,12", help="octal: heap sizes, e.g. 7,9,12")
    p.add_argument("--misere", action="store_true",
                   help="octal: misere play (who takes the last block loses)")
    add_window_flags(p, fps_help="window: AI animation speed")
    p.add_argument("--series", type=int, metavar="N",
                   help="terminal: play N games in a row with a running tally; the loser of "
                        "each game moves first (red) in the next")
    p.add_argument("--level", metavar="ID", help="a level id in a Keke JSON level set")
    p.add_argument("--moves", help="puzzle/descent: apply these moves (u d l r, s wait) and stop")
    p.add_argument("--json", action="store_true", help="with --moves: print the state as JSON")
    p.add_argument("--player", help="puzzle/descent: record a win under this player's name")
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
    if args.octal:
        from game.rulesets.octal.ruleset import parse_heaps, spec_map

        args.map = str(spec_map(args.octal, parse_heaps(args.heaps), args.misere).path)
    engine = Engine.from_map(args.map, seed=args.seed)
    return engine, make_seats(engine, {"red": args.red, "blue": args.blue}, args.seed), args.seed


def is_level(args: argparse.Namespace) -> bool:
    """Whether the map goes through load_level (puzzle, descent, Keke) and not the skirmish
    flow."""
    if args.resume or args.octal:
        return False
    from game.levels.maps import virtual_map

    if virtual_map(args.map) is not None:
        return False
    if args.level or args.moves is not None or args.json:
        return True
    if Path(args.map).suffix.lower() == ".json":
        return True  # a Keke level set; which of its levels is --level's business
    from game.levels.loader import load_game_map

    # Loaded rather than judged by its suffix: a shipped map named without one ("duel",
    # "first-steps") is only known once the loader has found its file.
    return load_game_map(args.map).ruleset != "skirmish"


def run_level(args: argparse.Namespace) -> int:
    from game.cli.solve import apply_moves
    from game.levels.loader import load_level
    from game.text.levels import level_text, play_text

    engine = load_level(args.map, args.level, args.seed)
    if engine.ruleset.name == "skirmish":
        raise UserError(f"{args.map}: --moves and --json are for puzzle and descent levels.")
    if args.moves is None:
        code = play_text(engine, input, sys.stdout)
    else:
        apply_moves(engine, args.moves)
        if args.json:
            import json

            print(json.dumps(level_state(engine)))
        else:
            print(level_text(engine))
            print(engine.ruleset.describe(engine.world))
        code = 0
    if args.player and engine.outcome and engine.outcome[0] == "player":
        from game.session.scores import record_score

        record_score(args.map + (f"#{args.level}" if args.level else ""), args.player,
                     len(engine.history))
    return code


def run_level_in_window(args: argparse.Namespace) -> int:
    """A puzzle or descent level in the window (N goes on to the next level)."""
    from game.levels.loader import load_level

    engine = load_level(args.map, args.level, args.seed)
    if engine.ruleset.name == "skirmish":
        raise UserError(f"{args.map}: is a skirmish map; --level is for Keke level sets.")
    try:
        from game.render.app import run_level_window
    except ImportError:
        raise UserError("the window client is not available here; play in the terminal "
                        "with --text.") from None
    return run_level_window(engine, args)


def level_state(engine: Engine) -> dict:
    if engine.ruleset.name == "puzzle":
        from game.rulesets.puzzle.ruleset import summary

        return summary(engine)
    rules = engine.ruleset
    world = engine.world
    outcome = engine.outcome
    x, y = rules.ball(world)  # type: ignore[attr-defined]
    return {"status": "won" if outcome else "playing", "moves": len(engine.history),
            "ball": {"x": x, "y": y}, "exit": list(world.resource("exit")),
            "heights": rules.heights(world)}  # type: ignore[attr-defined]


def run(args: argparse.Namespace) -> int:
    if getattr(args, "series", None) is not None:
        return run_series_args(args)
    if is_level(args):
        if args.text or args.moves is not None or args.json:
            return run_level(args)
        return run_level_in_window(args)
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
    from game.text.series import run_series

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
