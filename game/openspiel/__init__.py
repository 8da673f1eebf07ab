"""Every registered ruleset as an OpenSpiel game (the `openspiel` extra).

`import game.openspiel` registers `rulefront_<ruleset>` with `pyspiel.register_game` for every
ruleset that declares the edges a game needs (the four shipped ones: rulefront_skirmish,
_puzzle, _descent and _octal), so `pyspiel.load_game("rulefront_skirmish", {"map": "duel"})`
works and OpenSpiel's algorithms, bots and tests run on our engine; `register_all()` again
registers a ruleset registered since. docs/ecosystem.md describes the parameters, action
encodings and observation planes.
"""

from __future__ import annotations

import importlib.util

from game.errors import UserError

if importlib.util.find_spec("pyspiel") is None:
    raise UserError("OpenSpiel is not installed: pip install 'rulefront[openspiel]' "
                    "(the open-spiel package) to use the OpenSpiel games and openspiel-mcts.")

from game.openspiel.games import (  # noqa: E402
    RulefrontGame,
    RulefrontState,
    game_for,
    load,
    register_all,
)

register_all()

__all__ = ["RulefrontGame", "RulefrontState", "game_for", "load", "register_all"]
