"""What both clients show of the battlefield: where enemies threaten (the ruleset's `threat`
edge), the units that can still act, and the heroes an end of turn would leave unused.

No front end here and no ruleset named: a ruleset without the `threat` edge has no threat
to show, and units are read from the legal actions and plain components.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components import Actions, Moves, Team
from game import registry
from game.commands import Attack, Command, Move

if TYPE_CHECKING:
    from game.engine import Engine

Cell = tuple[int, int]
Threat = tuple[frozenset[Cell], frozenset[Cell]]  # (cells it may move to, cells it may strike)
NO_THREAT: Threat = (frozenset(), frozenset())


def threats(engine: Engine, units: list[int]) -> Threat:
    """Where `units` may move and strike on their next turn, together, as the ruleset's
    `threat` edge says: strike cells they may also walk to are move cells only (blue), the
    rest of their reach is strike cells (red). Nothing for a ruleset without the edge."""
    target = registry.spec(engine.ruleset.name).threat
    if not target:
        return NO_THREAT
    edge = registry.load_object(target)
    moves: set[Cell] = set()
    strikes: set[Cell] = set()
    for unit in units:
        found = edge(engine, unit)
        if found is not None:
            moves.update(found[0])
            strikes.update(found[1])
    return frozenset(moves), frozenset(strikes - moves)


def has_threats(engine: Engine) -> bool:
    return bool(registry.spec(engine.ruleset.name).threat)


def enemies_of(engine: Engine, side: str) -> list[int]:
    """Every thing on a side other than `side`, by id."""
    return [entity for entity, team in engine.world.query(Team) if team.side != side]


def ready_units(engine: Engine, legal: list[Command]) -> list[int]:
    """The units of the side to play that a legal move or attack still names, in the order
    the engine lists them."""
    seen: dict[int, None] = {}
    for command in legal:
        if isinstance(command, Move | Attack):
            seen[command.unit] = None
    return list(seen)


def untouched(engine: Engine, units: list[int]) -> list[int]:
    """Those of `units` that have done nothing this turn: all their move points and actions
    left (the heroes an end of turn would leave unused)."""
    world = engine.world
    found = []
    for unit in units:
        moves, acts = world.try_get(unit, Moves), world.try_get(unit, Actions)
        if moves is not None and acts is not None and moves.mp == moves.max_mp \
                and acts.ap == acts.max_ap:
            found.append(unit)
    return found


