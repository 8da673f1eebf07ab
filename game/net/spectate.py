"""What the spectator page asks the server for beside its static files: the look of the board
(`/api/look`: the sprite index and colours), the sheets (`/sprites/NAME.png`) and a game's
frames (`/api/games/GAME/frames?from=N`), as game/net/routes.py serves them.

The look is handed in once at start (`rulefront serve` reads it from game/render/look.py: the
window's own sheets and colours; the server sits below the front ends and reads no sprites
itself); sheets are bytes looked up by the file names the index gives, so a request never
names a file. Frames are built on a replica of each watched game (game/net/scenes.py), never
on the engine the server plays, and kept for the most recently watched games only.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from game.engine import Engine
from game.net.scenes import Frames

# A long game comes in pieces (the page asks until it has them all), so building them never
# holds the server's loop long: about 0.3-0.5 ms a frame on duel, 30-50 ms an answer.
FRAMES_PER_ANSWER = 100
REPLICAS = 64  # games whose frames are kept (the least recently watched go first)
NO_LOOK: dict[str, Any] = {"sheets": {}, "sides": {}, "things": {}, "words": {}}


class Spectate:
    """The page's look and the frames of the games being watched (one replica each)."""

    def __init__(self, look: dict[str, Any] | None = None,
                 sheets: dict[str, bytes] | None = None, replicas: int = REPLICAS) -> None:
        self.look_json = json.dumps(look or NO_LOOK, separators=(",", ":")).encode()
        self.sheets = dict(sheets or {})
        self.replicas = replicas
        self.followers: OrderedDict[str, Frames] = OrderedDict()

    def frames(self, game_id: str, engine: Engine, start: int) -> dict[str, Any]:
        """Frames `start` on (at most FRAMES_PER_ANSWER of them) of the game `engine` plays:
        frame 0 is the whole scene at the start, frame n the change command n made."""
        follower = self.followers.get(game_id)
        if follower is None:
            if engine.map is None:
                raise ValueError("a game without a map cannot be drawn")
            replica = Engine.from_game_map(engine.map, seed=engine.seed,
                                           ruleset=engine.ruleset.name)
            follower = self.followers[game_id] = Frames(replica)
        self.followers.move_to_end(game_id)
        while len(self.followers) > self.replicas:
            self.followers.popitem(last=False)
        commands = engine.commands()
        follower.follow(commands[:start + FRAMES_PER_ANSWER])
        return {"frames": follower.since(start)[:FRAMES_PER_ANSWER]}
