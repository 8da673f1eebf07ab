"""AI players: one protocol, `choose(engine, rng, budget) -> Command`, and one way to name them.

A seat is written `NAME` or `NAME:key=value,key=value` (e.g. `minimax:think=0.5`); `make_ai`
turns that into a player, or says in one sentence which names and options exist.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.errors import UserError

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


@dataclass(frozen=True)
class Budget:
    """How long an AI may think about one action: seconds, search nodes, or neither."""

    seconds: float | None = None
    nodes: int | None = None


class AI(Protocol):
    name: str

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command: ...


# AI name -> "module:factory"; a factory takes the seat's options as keyword arguments.
AIS: dict[str, str] = {
    "random": "systems.ai.random_ai:RandomAI",
    "perfect": "systems.ai.perfect:PerfectAI",
    "heuristic": "systems.ai.heuristic:HeuristicAI",
    "minimax": "systems.ai.minimax:MinimaxAI",
    "mcts": "systems.ai.mcts:MctsAI",
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    name, _, rest = spec.partition(":")
    options: dict[str, str] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise UserError(f"AI option '{part}' in '{spec}' must be written key=value.")
        options[key.strip()] = value.strip()
    return name.strip(), options


def make_ai(spec: str) -> AI:
    """Build the AI a seat names, e.g. 'random' or 'minimax:nodes=5000'."""
    name, options = parse_spec(spec)
    if name not in AIS:
        raise UserError(f"unknown AI '{name}'; known AIs: {', '.join(sorted(AIS))} (or human).")
    module_name, factory_name = AIS[name].split(":")
    factory = getattr(importlib.import_module(module_name), factory_name)
    try:
        ai: AI = factory(**options)
    except TypeError:
        known = ", ".join(getattr(factory, "OPTIONS", ())) or "none"
        raise UserError(f"AI '{name}' does not take the options {sorted(options)}; "
                        f"its options: {known}.") from None
    except ValueError as exc:
        raise UserError(f"AI '{spec}': {exc}.") from None
    return ai


def options_float(value: Any, name: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {name} must be a number, not {value!r}") from None
