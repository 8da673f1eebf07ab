"""`rulefront online play URL GAME --token T`: a seat of a server's game, played in the window
(or the Textual client with --text) as hotseat looks, the other seat remote. The local game
mirrors the server's (game/session/remote.py) over a link on a thread of its own
(game/net/link.py); docs/online.md."""

from __future__ import annotations

import argparse
import sys

from game.cli.args import nonempty
from game.cli.common import add_window_flags
from game.errors import UserError


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
    from game.net.link import take_seat

    if args.text and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("online play --text needs a terminal (the full-screen client); run "
                        "it in one, or play in the window.")
    seated = take_seat(args.url, args.game, args.token, args.seat)
    mirror = seated.mirror
    try:
        if args.text:
            from game.text.online import OnlineApp

            OnlineApp(mirror, seated.seats, seated.seed).run()
        else:
            try:
                from game.render.app import run_online_window
            except ImportError:
                raise UserError("the window client is not available here; play in the "
                                "terminal with --text.") from None
            run_online_window(mirror, seated.seats, seated.seed, args)
    finally:
        mirror.link.close()
    print(mirror.end_sentence() if mirror.over else
          f"left game {args.game}; come back with the same command (the server keeps it).")
    return 0
