"""`rulefront online play URL GAME --token T`: a seat of a server's game, played in the window
(or the Textual client with --text) as hotseat looks, the other seat remote. The local game
mirrors the server's (game/session/remote.py) over a link on a thread of its own
(game/net/link.py); docs/online.md."""

from __future__ import annotations

import argparse
import random
import sys

from game.cli.args import nonempty
from game.cli.common import add_window_flags
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_game_map
from game.session.match import Seat


def register(verbs: argparse._SubParsersAction) -> None:
    """`rulefront online play URL GAME --token T` (game/cli/online.py registers it)."""
    p = verbs.add_parser("play", help="take a seat at a server's game, in the window (or --text)")
    p.add_argument("url", help="the server, as `rulefront serve` prints it (http://HOST:PORT/)")
    p.add_argument("game", help="the game id `rulefront online new` printed")
    p.add_argument("--token", required=True, type=nonempty,
                   help="the seat's secret token (`online new` prints one per seat)")
    p.add_argument("--seat", help="the side to play (default: the side the token opens)")
    p.add_argument("--text", action="store_true", help="play in the terminal instead of a window")
    add_window_flags(p, fps_help="window: frames per second")
    p.set_defaults(func=run_online)


def run_online(args: argparse.Namespace) -> int:
    """Join a seat and play it as hotseat looks: the local game mirrors the server's."""
    from game.net.link import Link
    from game.session.remote import Mirror

    seat = args.seat or seat_of_token(args.url, args.game, args.token)
    link = Link(args.url, args.game, seat, args.token)
    joined = link.start()
    engine = Engine.from_game_map(load_game_map(joined.map), seed=joined.seed,
                                  ruleset=joined.ruleset)
    mirror = Mirror(engine, seat, link)
    mirror.pull(limit=None)  # the catch-up so far, before the first frame
    seats = {side: Seat(side, "you" if side == seat else "online", None,
                        random.Random(0)) for side in engine.ruleset.sides}
    try:
        if args.text:
            if not (sys.stdin.isatty() and sys.stdout.isatty()):
                raise UserError("online play --text needs a terminal (the full-screen "
                                "client); run it in one, or play in the window.")
            from game.text.online import OnlineApp

            OnlineApp(mirror, seats, joined.seed).run()
        else:
            try:
                from game.render.app import run_online_window
            except ImportError:
                raise UserError("the window client is not available here; play in the "
                                "terminal with --text.") from None
            run_online_window(mirror, seats, joined.seed, args)
    finally:
        link.close()
    print(mirror.end_sentence() if mirror.over else
          f"left game {args.game}; come back with the same command (the server keeps it).")
    return 0


def seat_of_token(url: str, game: str, token: str) -> str:
    """The side a token opens: each side of the game is tried (a wrong token opens none)."""
    from game.net import protocol as p
    from game.net.client import ask

    games = ask(url, p.ListGames())
    found = [info for info in getattr(games, "games", []) if info.game == game]
    if not found:
        raise UserError(f"the server at {url} has no game {game} (`rulefront online games "
                        f"{url}` lists them).")
    for side in found[0].sides:
        try:
            answer = ask(url, p.Join(game, side, token))
        except UserError:
            continue
        if isinstance(answer, p.Joined):
            return side
    raise UserError(f"that token opens no seat of game {game}; give the token `rulefront "
                    "online new` printed for your seat.")
