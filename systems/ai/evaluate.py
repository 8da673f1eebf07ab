"""What the AIs know about a position: YAML weights, a static evaluation and a state hash.

The evaluation scores material (heroes, headquarters, towers, minions and their hit points),
how near each hero is to the fight, and threats: damage each side could deal before the other
can answer. The hash is Zobrist-style (XOR of one term per component field, resource and the RNG)
and is kept up to date from the World's journal, so a search pays only for what a command wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, Any

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from components.match import DRAW
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
class EvalWeights:
    win: float
    hero_alive: float
    hero_hp: float
    hq_hp: float
    tower_alive: float
    tower_hp: float
    minion_alive: float
    minion_hp: float
    approach: float
    threat_now: float
    threat_later: float
    kill_threat: float


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


def _section(raw: Any, name: str, cls: type, path: Any = AI_YAML) -> Any:
    """One section of a weights file, its shape checked by game.schemas.AiFile, then each
    weight against `cls`'s fields: every one given, a number, none unknown."""
    from game.schemas import AiFile, validate

    values = getattr(validate(raw, AiFile, path), name)
    where = f"{path}: {name}"
    names = [f.name for f in fields(cls)]
    for n in names:
        if n not in values:
            raise UserError(f"{where}: '{n}' is missing; give every weight: {', '.join(names)}.")
        if not isinstance(values[n], int | float) or isinstance(values[n], bool):
            raise UserError(f"{where}: '{n}' must be a number, not {values[n]!r}.")
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise UserError(f"{where}: unknown weight '{unknown[0]}'; known: {', '.join(names)}.")
    return cls(**{n: float(values[n]) for n in names})


@cache
def weights() -> tuple[EvalWeights, HeuristicWeights]:
    """The evaluation and heuristic weights from data/ai.yaml (read once)."""
    raw = load_yaml(AI_YAML)
    return _section(raw, "evaluation", EvalWeights), _section(raw, "heuristic", HeuristicWeights)


@cache
def heuristic_weights_file(path: str) -> HeuristicWeights:
    """The `heuristic:` section of another weights file (e.g. one `rulefront tune` wrote)."""
    from pathlib import Path

    file = Path(path)
    if not file.is_file():
        raise UserError(f"weights file {path}: no such file.")
    found: HeuristicWeights = _section(load_yaml(file), "heuristic", HeuristicWeights, file)
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


def evaluate(engine: Engine, me: str, w: EvalWeights | None = None, ply: int = 0) -> float:
    """The position's worth to `me` (positive is good); a decided game is +-win minus plies.

    Threats are Manhattan reach without sight: what each side could hit on its next go. When
    a side acts now, a hero of it that has already attacked threatens nothing more and walks
    only its remaining points; otherwise heroes and minions walk their full move points, and
    buildings fire where they stand. (Written for speed: it runs at every search leaf.)
    """
    outcome = engine.outcome
    w = w or weights()[0]
    if outcome is not None:
        winner = outcome[0]
        if winner == DRAW:
            return 0.0
        return (w.win - ply) if winner == me else (ply - w.win)
    world = engine.world
    to_move = engine.side
    mobile = dict(world.query(Moves, Actions))
    # Per side: its pieces (kind, x, y, hp) and what it threatens when acting now / later.
    pieces: dict[str, list[tuple[str, int, int, int]]] = {}
    now: dict[str, list[tuple[int, int, int, int]]] = {}
    later: dict[str, list[tuple[int, int, int, int]]] = {}
    goals: dict[str, list[tuple[int, int]]] = {}
    for entity, (pos, team, health, kind, attack) in world.query(Position, Team, Health, Kind,
                                                                   Attack):
        hp = health.hp
        if hp <= 0:
            continue
        side = team.side
        name = kind.name
        x, y = pos.x, pos.y
        if side not in pieces:
            pieces[side], now[side], later[side], goals[side] = [], [], [], []
        pieces[side].append((name, x, y, hp))
        pair = mobile.get(entity)
        if pair is None:
            fixed = (x, y, attack.range, attack.damage)
            now[side].append(fixed)
            later[side].append(fixed)
        else:
            moves, actions = pair
            later[side].append((x, y, attack.range + moves.max_mp, attack.damage))
            if name == "hero":
                if actions.ap > 0:
                    now[side].append((x, y, attack.range + moves.mp, attack.damage))
            else:
                now[side].append((x, y, attack.range + moves.max_mp, attack.damage))
        if name == "hero" or name == "hq":
            goals[side].append((x, y))
    score = 0.0
    for side, mine in pieces.items():
        acting_now = side != to_move
        danger: list[tuple[int, int, int, int]] = []
        targets: list[tuple[int, int]] = []
        for other in pieces:
            if other != side:
                danger += now[other] if acting_now else later[other]
                targets += goals[other]
        threat_w = w.threat_now if acting_now else w.threat_later
        value = 0.0
        for name, x, y, hp in mine:
            if name == "minion":
                value += w.minion_alive + w.minion_hp * hp
                continue
            if name == "hero":
                value += w.hero_alive + w.hero_hp * hp
                if targets:
                    best = 1 << 30
                    for gx, gy in targets:
                        d = (gx - x if gx > x else x - gx) + (gy - y if gy > y else y - gy)
                        if d < best:
                            best = d
                    value -= w.approach * best
            elif name == "hq":
                value += w.hq_hp * hp
            elif name == "tower":
                value += w.tower_alive + w.tower_hp * hp
            hurt = 0
            for tx, ty, reach, damage in danger:
                if (tx - x if tx > x else x - tx) + (ty - y if ty > y else y - ty) <= reach:
                    hurt += damage
            if hurt:
                value -= threat_w * (hurt if hurt < hp else hp)
                if hurt >= hp and (acting_now or name != "hero"):
                    value -= w.kill_threat
        score += value if side == me else -value
    return score


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
