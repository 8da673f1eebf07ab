"""What the AIs know about a position: the heuristic's YAML weights, the units a position is
made of, the ruleset's evaluation (asked through its spec's `evaluator` edge) and a state hash.

The hash is Zobrist-style (XOR of one term per component field, resource and the RNG) and is
kept up to date from the World's journal, so a search pays only for what a command wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, Any

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from game import DATA
from game.data import load_yaml
from game.errors import UserError
from game.world import MISSING, Op, World

if TYPE_CHECKING:
    from game.engine import Engine

# The journal's ops as the plain ints it holds (the hash below compares one per change).
SET, MOVE, REMOVE, RESOURCE, RNG = (
    op.value for op in (Op.SET, Op.MOVE, Op.REMOVE, Op.RESOURCE, Op.RNG))
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


def evaluate(engine: Engine, me: str, ply: int = 0) -> float:
    """The position's worth to `me` by the ruleset's own evaluator (its spec's `evaluator`
    edge, systems.ai.base.evaluator_for): positive is good, a won game is its `win`."""
    from systems.ai.base import evaluator_for

    return evaluator_for(engine)(engine, me, ply)


# -- hashing ---------------------------------------------------------------------------------


_PLAIN = frozenset({int, str, bool, float, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _frozen(value: Any) -> Any:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


class StateHash:
    """A 64-bit-ish key of the whole world, updated from the journal after each command.

    Python's `hash` of small tuples serves as the Zobrist table: stable within one process
    (a transposition table never outlives its process) and free to look up.
    """

    def __init__(self, world: World) -> None:
        self.world = world
        self.owner: dict[int, tuple[int, str]] = {}
        self.value = self.full()

    def full(self) -> int:
        """Hash the world from scratch (and learn which component belongs to whom)."""
        world = self.world
        owner: dict[int, tuple[int, str]] = {}
        h = 0
        for entity in world.entities():
            for comp in world.components(entity):
                name = type(comp).__name__
                owner[id(comp)] = (entity, name)
                for f in _field_names(type(comp)):
                    h ^= hash((entity, name, f, _frozen(getattr(comp, f))))
        for key in world.resource_keys():
            h ^= hash(("resource", key, _frozen(world.resource(key))))
        h ^= hash(("rng", world.rng.state))
        self.owner.update(owner)  # keep entities a retract may bring back
        return h

    def after(self, value: int, mark: int) -> int:
        """The hash now, given it was `value` at journal `mark` (falls back to `full`)."""
        world = self.world
        first: dict[tuple[Any, ...], Any] = {}
        removed: list[Any] = []
        for entry in world.changes_since(mark):
            op = entry[0]
            if op == SET:
                key = (id(entry[1]), entry[2])
                if key not in first:
                    first[key] = (entry[1], entry[3])
            elif op == MOVE:
                _, _entity, comp, (x, y) = entry
                for f, old in (("x", x), ("y", y)):
                    if (id(comp), f) not in first:
                        first[(id(comp), f)] = (comp, old)
            elif op == RESOURCE:
                if ("resource", entry[1]) not in first:
                    first[("resource", entry[1])] = entry[2]
            elif op == RNG:
                if ("rng",) not in first:
                    first[("rng",)] = entry[1]
            elif op == REMOVE:  # a component taken away (None closes a destroy)
                if entry[2] is not None:
                    removed.append(entry[2])
            else:  # a spawn or an add: rebuild, it is rare
                return self.full()
        owner = self.owner
        for comp in removed:
            if any((id(comp), f) in first for f in _field_names(type(comp))):
                return self.full()  # changed, then removed: rare enough to rebuild
            entity, cname = owner[id(comp)]
            for f in _field_names(type(comp)):
                value ^= hash((entity, cname, f, _frozen(getattr(comp, f))))
        for key, old in first.items():
            if key[0] == "resource":
                name = key[1]
                if old is not MISSING:
                    value ^= hash(("resource", name, _frozen(old)))
                now = world.resource(name, MISSING)
                if now is not MISSING:
                    value ^= hash(("resource", name, _frozen(now)))
            elif key[0] == "rng":
                value ^= hash(("rng", old)) ^ hash(("rng", world.rng.state))
            else:
                comp, before = old
                entity, cname = owner[key[0]]
                f = key[1]
                value ^= hash((entity, cname, f, _frozen(before)))
                value ^= hash((entity, cname, f, _frozen(getattr(comp, f))))
        return value
