"""Plain HTTP on the server's port, beside the WebSocket endpoint (/ws): the spectator page,
its static files and the games as JSON (the routes are listed in docs/online.md).

Pages and static files are the ones found in game/net/web/ when the server starts, looked up
by name in a dictionary: a request's path never becomes a file path.
"""

from __future__ import annotations

import json
import mimetypes
import re
from functools import cache
from http import HTTPStatus
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Response

from game.net import protocol as p
from game.net.games import Game
from game.net.spectate import Spectate


class Hosted(Protocol):
    """What the routes read of the server: its games, the maps it offers, and the spectator
    page's look and frames."""

    games: dict[str, Game]
    maps: dict[str, str]
    spectate: Spectate

WEB = Path(__file__).resolve().parent / "web"
GAME_PATH = re.compile(r"/api/games/([A-Za-z0-9_-]{12})(/replay)?")
FRAMES_PATH = re.compile(r"/api/games/([A-Za-z0-9_-]{12})/frames")
WATCH_PATH = re.compile(r"/watch/([A-Za-z0-9_-]{12})")
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' "
                               "'unsafe-inline'; connect-src 'self' ws: wss:",
}


@cache
def static_files() -> dict[str, Path]:
    """Every file under web/static/, by its path below it ("app.js", "sprites/tiles.png")."""
    root = WEB / "static"
    if not root.is_dir():
        return {}
    return {f.relative_to(root).as_posix(): f for f in root.rglob("*") if f.is_file()}


def respond(server: Hosted, connection: Any, request: Any) -> Any:
    """The HTTP answer to `request`, or None to go on with the WebSocket handshake (/ws)."""
    path = urlsplit(request.path).path
    if path == p.PATH:
        return None
    if path == "/api/games":
        return _json(connection, [p.to_builtins(g.info()) for g in server.games.values()])
    if path == "/api/look":
        return _bytes(connection, 200, server.spectate.look_json, "application/json")
    if path.startswith("/sprites/") and (sheet := server.spectate.sheets.get(path[9:])):
        return _bytes(connection, 200, sheet, "image/png")
    if (found := FRAMES_PATH.fullmatch(path)) is not None:
        return _frames(server, connection, found.group(1), urlsplit(request.path).query)
    if path == "/api/maps":
        return _json(connection, sorted(server.maps))
    if (found := GAME_PATH.fullmatch(path)) is not None:
        game = server.games.get(found.group(1))
        if game is None:
            return _text(connection, 404, f"no game {found.group(1)} on this server.\n")
        if found.group(2):
            return _json(connection, game.record_json())
        return _json(connection, p.to_builtins(game.info()))
    if path == "/":
        return _page(connection, "index.html")
    if WATCH_PATH.fullmatch(path):
        return _page(connection, "watch.html")
    if path.startswith("/static/") and (file := static_files().get(path[8:])) is not None:
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        return _bytes(connection, 200, file.read_bytes(), kind)
    return _text(connection, 404, "not found.\n")


def _frames(server: Hosted, connection: Any, game_id: str, query: str) -> Any:
    """A game's frames from `?from=N` on (game/net/spectate.py), with its GameInfo."""
    game = server.games.get(game_id)
    if game is None:
        return _text(connection, 404, f"no game {game_id} on this server.\n")
    start = parse_qs(query).get("from", ["0"])[0]
    if not start.isdigit() or len(start) > 9:
        return _text(connection, 400, "from must be a number of commands.\n")
    try:
        frames = server.spectate.frames(game_id, game.engine, int(start))
    except ValueError as exc:
        return _text(connection, 404, f"{exc}.\n")
    return _json(connection, {**p.to_builtins(game.info()), **frames})


def _page(connection: Any, name: str) -> Any:
    page = WEB / name
    if not page.is_file():
        return _text(connection, 404, f"this server has no {name} (the spectator page is not "
                                      "installed); the games are at /api/games.\n")
    return _bytes(connection, 200, page.read_bytes(), "text/html; charset=utf-8")


def _json(connection: Any, value: Any) -> Any:
    return _bytes(connection, 200, json.dumps(value).encode(), "application/json")


def _text(connection: Any, status: int, text: str) -> Any:
    return _bytes(connection, status, text.encode(), "text/plain; charset=utf-8")


def _bytes(connection: Any, status: int, body: bytes, kind: str) -> Response:
    headers = Headers({"Content-Type": kind, "Content-Length": str(len(body)),
                       "Cache-Control": "no-store", "Connection": "close", **SECURITY_HEADERS})
    return Response(status, HTTPStatus(status).phrase, headers, body)
