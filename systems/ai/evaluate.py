"""What the AIs know about a position: the heuristic's YAML weights, the units a position is
made of, the ruleset's evaluation (asked through its spec's `evaluator` edge) and the state hash.

The hash (`StateHash`, from game.journal) is the World's own `state_key`: Zobrist-style, kept
up to date from the World's journal, so a search pays only for what a command wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from game import DATA
from game.data import load_yaml
from game.errors import UserError
from game.journal import StateHash as StateHash  # minimax and turns import it from here
from game.world import World

if TYPE_CHECKING:
    from game.engine import Engine

AI_YAML = DATA / "ai.yaml"


@dataclass(frozen=True)
class HeuristicWeights:
    attack: float
    kill: float
    hero: float
    minion: float
    tower: float
    hq: float
    weak: float
    near: float
    defend: float
    defend_radius: float
    potential: float
    approach_gap: float
    approach: float
    danger_attacking: float
    danger_after: float
    kill_risk: float
    step: float
    rule_change: float


@cache
def heuristic_weights() -> HeuristicWeights:
    """The heuristic's weights from data/ai.yaml (read once)."""
    from game.schemas import weights_section

    found: HeuristicWeights = weights_section(load_yaml(AI_YAML), "heuristic",
                                              HeuristicWeights, AI_YAML)
    return found


@cache
def heuristic_weights_file(path: str) -> HeuristicWeights:
    """The `heuristic:` section of another weights file (e.g. one `rulefront tune` wrote)."""
    from pathlib import Path

    file = Path(path)
    if not file.is_file():
        raise UserError(f"weights file {path}: no such file.")
    from game.schemas import weights_section

    found: HeuristicWeights = weights_section(load_yaml(file), "heuristic", HeuristicWeights,
                                              file)
    return found


# -- the units a position is made of ---------------------------------------------------------


@dataclass(slots=True)
class Unit:
    """One fighting thing as the AIs see it (a copy: reading it never touches the World)."""

    entity: int
    kind: str
    side: str
    x: int
    y: int
    hp: int
    damage: int
    range: int
    moves: int  # full move points (what it can walk next turn)
    mp: int  # move points left this turn
    ap: int  # attacks left this turn


def units(world: World) -> list[Unit]:
    """Every living unit and building with a side, by entity id."""
    found = []
    mobile = dict(world.query(Moves, Actions))
    for entity, (pos, team, health, kind, attack) in world.query(Position, Team, Health, Kind,
                                                                   Attack):
        if health.hp <= 0:
            continue
        pair = mobile.get(entity)
        if pair is None:
            found.append(Unit(entity, kind.name, team.side, pos.x, pos.y, health.hp,
                              attack.damage, attack.range, 0, 0, 0))
        else:
            moves, actions = pair
            found.append(Unit(entity, kind.name, team.side, pos.x, pos.y, health.hp,
                              attack.damage, attack.range, moves.max_mp, moves.mp, actions.ap))
    return found


def unit_of(world: World, entity: int) -> Unit | None:
    """One entity as `units` gives it (None where `units` leaves it out)."""
    pos, team, health = (world.try_get(entity, Position), world.try_get(entity, Team),
                         world.try_get(entity, Health))
    kind, attack = world.try_get(entity, Kind), world.try_get(entity, Attack)
    if pos is None or team is None or health is None or kind is None or attack is None \
            or health.hp <= 0:
        return None
    moves, actions = world.try_get(entity, Moves), world.try_get(entity, Actions)
    if moves is None or actions is None:
        return Unit(entity, kind.name, team.side, pos.x, pos.y, health.hp, attack.damage,
                    attack.range, 0, 0, 0)
    return Unit(entity, kind.name, team.side, pos.x, pos.y, health.hp, attack.damage,
                attack.range, moves.max_mp, moves.mp, actions.ap)


def evaluate(engine: Engine, me: str, ply: int = 0) -> float:
    """The position's worth to `me` by the ruleset's own evaluator (its spec's `evaluator`
    edge, systems.ai.base.evaluator_for): positive is good, a won game is its `win`."""
    from systems.ai.base import evaluator_for

    return evaluator_for(engine)(engine, me, ply)
