"""The skirmish evaluation: what a position is worth to one side, for the AIs' searches.

It scores material (heroes, headquarters, towers, minions and their hit points), how near each
hero is to the fight, threats (damage each side could deal before the other can answer) and the
rules in force: each unit's properties (its kind's, side's and class's, systems.stats.unit_mask)
are worth what data/ai.yaml's `rules` section says a property is worth to a side when all its
units have it, as measured by simulation (`rulefront tune rules`, systems/ai/rulevalue.py), in
the share of the side's material the unit is. The weights are data/ai.yaml's `evaluation`
section. The skirmish spec's `evaluator` edge names `Evaluation`, which minimax, MCTS and the
heuristic ask for through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from components.match import DRAW
from components.resources import PROPS_KEY
from game import DATA
from game.data import load_yaml
from game.errors import UserError
from systems.stats import named, unit_mask

if TYPE_CHECKING:
    from game.engine import Engine
    from game.world import World

AI_YAML = DATA / "ai.yaml"
SCALE = 150.0  # evaluation points that MCTS squashes to tanh(1) ~ 0.76


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


@cache
def evaluation_weights() -> EvalWeights:
    """data/ai.yaml's `evaluation` section (read once)."""
    from game.schemas import weights_section

    found: EvalWeights = weights_section(load_yaml(AI_YAML), "evaluation", EvalWeights, AI_YAML)
    return found


@cache
def rule_values() -> dict[str, float]:
    """data/ai.yaml's `rules` section: property name -> what it is worth to a side, in
    evaluation points, when every unit and building of that side has it (read once)."""
    return rule_values_of(load_yaml(AI_YAML), AI_YAML)


def rule_values_of(raw: object, path: str | Path) -> dict[str, float]:
    """The `rules` section of a weights file, each name a property of data/properties.yaml."""
    from game.data import properties
    from game.schemas import AiFile, validate

    values = validate(raw, AiFile, path).rules
    known = {info.name for info in properties().values()}
    for name, value in values.items():
        if name not in known:
            raise UserError(f"{path}: rules: '{name}' is not a property of "
                            f"data/properties.yaml; known: {', '.join(sorted(known))}.")
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise UserError(f"{path}: rules: '{name}' must be a number, not {value!r}.")
    return {name: float(value) for name, value in values.items()}


class RuleWorth:
    """What a unit's property mask is worth (the sum of its properties' rule values), by mask."""

    __slots__ = ("values", "_bits", "_known")

    def __init__(self, values: dict[str, float]) -> None:
        from systems.rules import property_bits

        bits = property_bits()
        self.values = values
        self._bits = [(bits[name], value) for name, value in values.items() if value]
        self._known: dict[int, float] = {0: 0.0}

    def __call__(self, mask: int) -> float:
        found = self._known.get(mask)
        if found is None:
            found = self._known[mask] = sum(v for bit, v in self._bits if mask & bit)
        return found


@cache
def _default_worth() -> RuleWorth:
    return RuleWorth(rule_values())


class Evaluation(partial[float]):
    """The skirmish ruleset's evaluator edge (systems.ai.base.Evaluator): `score` with
    data/ai.yaml's weights and rule values (or `w` and `rules`) bound, called (engine, side,
    ply); a won game is worth `win` less the plies to it, two values nearer than a hero's hit
    point are a tie to the whole-turn search, and SCALE is what MCTS counts as a clear lead.
    A partial, so a search leaf pays for no call frame of its own."""

    exact = False  # a heuristic, not perfect play
    w: EvalWeights
    win: float
    tie: float
    scale: float

    def __new__(cls, w: EvalWeights | None = None,
                rules: dict[str, float] | None = None) -> Evaluation:
        weights = w or evaluation_weights()
        worth = _default_worth() if rules is None else RuleWorth(rules)
        self = super().__new__(cls, score, weights, worth)
        self.w, self.win, self.tie, self.scale = weights, weights.win, weights.hero_hp, SCALE
        return self

    def without_rules(self) -> Evaluation:
        """The same evaluation with every rule worth nothing (what `rulefront tune rules`
        measures the rules' worth by, so the measure does not feed on itself)."""
        return Evaluation(self.w, rules={})


def evaluate(engine: Engine, me: str, w: EvalWeights | None = None, ply: int = 0,
             rules: dict[str, float] | None = None) -> float:
    """`score` with data/ai.yaml's weights and rule values unless `w` or `rules` is given."""
    worth = _default_worth() if rules is None else RuleWorth(rules)
    return score(w or evaluation_weights(), worth, engine, me, ply)


def score(w: EvalWeights, worth: RuleWorth, engine: Engine, me: str, ply: int = 0) -> float:
    """The position's worth to `me` (positive is good); a decided game is +-win minus plies.

    Threats are Manhattan reach without sight: what each side could hit on its next go. When
    a side acts now, a hero of it that has already attacked threatens nothing more and walks
    only its remaining points; otherwise heroes and minions walk their full move points, and
    buildings fire where they stand. (Written for speed: it runs at every search leaf.)
    """
    outcome = engine.outcome
    if outcome is not None:
        winner = outcome[0]
        if winner == DRAW:
            return 0.0
        return (w.win - ply) if winner == me else (ply - w.win)
    world = engine.world
    to_move = engine.side
    mobile = dict(world.query(Moves, Actions))
    props = world.resource(PROPS_KEY, {})
    masked = bool(named(props)) and bool(worth._bits)  # a rule gives some unit a property
    ruled: dict[str, list[tuple[int, str, int]]] = {}  # side -> (entity, kind, hp), if masked
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
        if masked:
            ruled.setdefault(side, []).append((entity, name, hp))
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
        if masked and side in ruled:
            value += _rules_worth(w, worth, world, props, ruled[side])
        score += value if side == me else -value
    return score


def _rules_worth(w: EvalWeights, worth: RuleWorth, world: World, props: dict[str, int],
                 units: list[tuple[int, str, int]]) -> float:
    """What the rules in force are worth to a side: each unit's properties' worth, in the
    share of the side's material (its evaluation worth) the unit is."""
    total = weighted = 0.0
    for entity, name, hp in units:
        if name == "hero":
            material = w.hero_alive + w.hero_hp * hp
        elif name == "hq":
            material = w.hq_hp * hp
        elif name == "tower":
            material = w.tower_alive + w.tower_hp * hp
        else:
            material = w.minion_alive + w.minion_hp * hp
        total += material
        weighted += material * worth(unit_mask(world, entity, props))
    return weighted / total if total else 0.0
