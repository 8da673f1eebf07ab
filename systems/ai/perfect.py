"""Perfect play for impartial games: move to a position the next side loses whenever one exists.

It asks the ruleset, never names one: an impartial ruleset's evaluator (its spec's `evaluator`
edge) is exact, its value's sign being who wins under perfect play (for octal games, Grundy
values and Bouton's rule: game/rulesets/octal/perfect.py). The seat is refused, before the
game, on a ruleset that is not impartial or has no evaluator.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from game.errors import UserError
from systems.ai import Budget
from systems.ai.base import evaluator_for

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


class PerfectAI:
    """Plays a winning move whenever the position has one; otherwise any legal move."""

    name = "perfect"
    NEEDS = ("impartial", "evaluator")
    OPTIONS: tuple[str, ...] = ()

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        evaluate = evaluator_for(engine)
        if not getattr(evaluate, "exact", False):
            raise UserError(f"the perfect AI needs an exact evaluator, and the "
                            f"{engine.ruleset.name} ruleset's is a heuristic.")
        mover = engine.side
        actions = engine.legal_actions()
        for command in actions:
            engine.apply(command)
            try:
                wins = evaluate(engine, mover) > 0
            finally:
                engine.retract()
            if wins:
                return command
        return actions[rng.randrange(len(actions))]
