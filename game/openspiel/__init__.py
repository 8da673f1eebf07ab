"""Rulefront's four rulesets as OpenSpiel games (the `openspiel` extra).

`import game.openspiel` registers rulefront_skirmish, rulefront_puzzle, rulefront_descent and
rulefront_octal with `pyspiel.register_game`, so `pyspiel.load_game("rulefront_skirmish",
{"map": "duel"})` works and OpenSpiel's algorithms, bots and tests run on our engine.
docs/ecosystem.md describes the parameters, action encodings and observation planes.
"""

from __future__ import annotations

import importlib.util

from game.errors import UserError

if importlib.util.find_spec("pyspiel") is None:
    raise UserError("OpenSpiel is not installed: pip install 'rulefront[openspiel]' "
                    "(the open-spiel package) to use the OpenSpiel games and openspiel-mcts.")

from game.openspiel.games import (  # noqa: E402
    GAMES,
    RulefrontGame,
    RulefrontState,
    game_for,
    register_all,
)

register_all()

__all__ = ["GAMES", "RulefrontGame", "RulefrontState", "game_for"]
