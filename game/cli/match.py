"""`rulefront match`: AIs play a headless match; --show draws the board each round."""

from __future__ import annotations

import argparse
import json

from components.match import DRAW
from game.cli.args import games, out_dir, out_file, workers
from game.cli.common import add_map_argument, add_seats, need_sides, open_game
from game.cli.tournament import add_backend, add_budget, budget_of
from game.commands import Command, EndTurn
from game.engine import Engine
from game.levels.loader import FileKind
from game.session.match import make_seats, play_match


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("match", help="play a headless match between AIs")
    add_map_argument(p)
    add_seats(p, default="random")
    p.add_argument("--show", action="store_true", help="draw the board after every round")
    p.add_argument("--replay", type=out_file, metavar="FILE", help="write the match as a replay file")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--games", type=games, metavar="N",
                   help="play N games, in pairs with sides swapped on the same seed, and print "
                        "wins, draws, losses, score with a 95%% interval and the Elo difference")
    p.add_argument("--workers", type=workers, default=1, metavar="W",
                   help="with --games: worker processes (default 1)")
    p.add_argument("--replays", type=out_dir, metavar="DIR", help="with --games: save every game's replay here")
    add_budget(p)
    add_backend(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    engine, _record = open_game(args.map, "match", (FileKind.LEVEL,), seed=args.seed)
    need_sides(engine, args.map, "match")
    if args.games is not None:
        from game.cli.tournament import run_many

        engine.world.close()
        return run_many(args)
    specs = {"red": args.red, "blue": args.blue}

    def show(engine: Engine, command: Command) -> None:
        entry = engine.history[-1]
        print(f"{len(engine.history):4}. {command!r}")
        for event in entry.events:
            print(f"      {event!r}")
        if isinstance(command, EndTurn) or engine.over:
            print(f"-- {engine.ruleset.describe(engine.world)}")
            print(engine.ruleset.text_board(engine.world))
            for line in engine.ruleset.status_lines(engine.world):
                print(line)

    budget = budget_of(args)
    seats = make_seats(engine, specs, args.seed, budget)
    result = play_match(engine, seats, args.seed, budget, show if args.show else None)
    if args.replay:
        from game.session.replay import record_of, write_record

        write_record(args.replay, record_of(engine, args.seed, specs, result.forfeit,
                                                 result.winner))
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(f"{result.winner} wins after {result.rounds} rounds ({result.reason}); "
              f"{len(result.commands)} commands, seed {args.seed}."
              if result.winner != DRAW else
              f"draw after {result.rounds} rounds ({result.reason}); seed {args.seed}.")
    return 0
