"""Network play: `rulefront serve` and its clients (docs/online.md).

protocol.py (the messages, as msgspec schemas with size limits), store.py (each game's meta
and command log on disk, made durable in batches through one fsynced journal), games.py (one
game the server holds), server.py (asyncio on websockets), routes.py (plain HTTP on the same
port), spectate.py and scenes.py (what the spectator page is sent), client.py (requests and
the Follower: a seat or spectator with a replica Engine that reconnects and catches up),
bot.py (an AI seat), link.py (a Follower on a thread of its own, for the window and terminal).
"""

from __future__ import annotations

from game.errors import UserError


def need_websockets(command: str) -> None:
    """Refuse `command` in one sentence when the `online` extra is not installed."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise UserError(f"`rulefront {command}` needs websockets: pip install -e '.[online]' "
                        "(or pip install 'rulefront[online]').") from None
