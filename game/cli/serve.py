"""`rulefront serve`: host games over the network (docs/online.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys

from game.cli.args import between, positive_float, positive_int

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="host games for network play, bots and spectators")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 "
                        "for every network, behind TLS)")
    p.add_argument("--port", type=between(0, 65535), default=8765,
                   help="port for WebSockets and HTTP (default 8765; 0 picks a free one)")
    p.add_argument("--data", metavar="DIR",
                   help="where games are kept (default $XDG_DATA_HOME/rulefront/server); a "
                        "server started again on the same folder resumes every game")
    p.add_argument("--certfile", metavar="PEM", help="serve TLS (https/wss) with this "
                   "certificate chain")
    p.add_argument("--keyfile", metavar="PEM", help="the certificate's private key")
    p.add_argument("--max-games", type=positive_int, default=10_000,
                   help="games the server may hold (default 10000)")
    p.add_argument("--rate", type=positive_float, default=200.0,
                   help="messages a second one connection may send (default 200; twice that "
                        "at once)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from game.net import need_websockets

    need_websockets("serve")
    from game.net.server import Limits, Server, serve, tls_context
    from game.net.spectate import Spectate
    from game.net.store import data_folder
    from game.render.look import page_look

    context = tls_context(args.certfile, args.keyfile)
    folder = data_folder(args.data)
    look = page_look()  # the spectator page paints with the window's sheets and colours
    server = Server(folder, Limits(args.rate, args.rate * 2, args.max_games),
                    Spectate(look.index, look.sheets))
    for note in server.load():
        print(f"rulefront serve: {note}", file=sys.stderr, flush=True)
    if args.host not in LOOPBACK and context is None:
        print("rulefront serve: listening beyond this machine without TLS: seat tokens cross "
              "the network in clear; use --certfile/--keyfile or a reverse proxy "
              "(docs/online.md).", file=sys.stderr, flush=True)

    def announce(url: str) -> None:
        print(f"rulefront serve: {url} ({len(server.games)} games in {folder}; Ctrl-C "
              "stops)", flush=True)

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C stops it, as SIGTERM does
        asyncio.run(serve(server, args.host, args.port, context, announce))
    print("rulefront serve: stopped.", flush=True)
    return 0
