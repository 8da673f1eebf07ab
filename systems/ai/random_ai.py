"""The random AI: uniform over the legal actions, from the seat's own seeded RNG."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from systems.ai import Budget

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


class RandomAI:
    name = "random"
    OPTIONS: tuple[str, ...] = ()

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        actions = engine.legal_actions()
        return actions[rng.randrange(len(actions))]
