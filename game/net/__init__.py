"""Network play: `rulefront serve` and its clients (docs/online.md).

protocol.py (the messages, as msgspec schemas with size limits), store.py (each game's
fsynced command log on disk), games.py (one game the server holds), server.py (asyncio on
websockets), routes.py (plain HTTP on the same port), client.py (requests and the Follower:
a seat or spectator with a replica Engine that reconnects and catches up), bot.py (an AI seat).
"""
