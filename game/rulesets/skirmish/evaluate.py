"""The skirmish evaluation: what a position is worth to one side, for the AIs' searches.

It scores material (heroes, headquarters, towers, minions and their hit points), how near each
hero is to the fight, and threats: damage each side could deal before the other can answer.
The weights are data/ai.yaml's `evaluation` section. The skirmish spec's `evaluator` edge
names `Evaluation`, which minimax, MCTS and the heuristic ask for through the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, partial
from typing import TYPE_CHECKING

from components import Actions, Attack, Health, Kind, Moves, Position, Team
from components.match import DRAW
from game import DATA
from game.data import load_yaml

if TYPE_CHECKING:
    from game.engine import Engine

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


class Evaluation(partial[float]):
    """The skirmish ruleset's evaluator edge (systems.ai.base.Evaluator): `score` with
    data/ai.yaml's weights (or `w`) bound, called (engine, side, ply); a won game is worth `win`
    less the plies to it, two values nearer than a hero's hit point are a tie to the whole-turn
    search, and SCALE is what MCTS counts as a clear lead. A partial, so a search leaf pays for
    no call frame of its own."""

    exact = False  # a heuristic, not perfect play
    w: EvalWeights
    win: float
    tie: float
    scale: float

    def __new__(cls, w: EvalWeights | None = None) -> Evaluation:
        weights = w or evaluation_weights()
        self = super().__new__(cls, score, weights)
        self.w, self.win, self.tie, self.scale = weights, weights.win, weights.hero_hp, SCALE
        return self


def evaluate(engine: Engine, me: str, w: EvalWeights | None = None, ply: int = 0) -> float:
    """`score` with data/ai.yaml's weights unless `w` is given."""
    return score(w or evaluation_weights(), engine, me, ply)


def score(w: EvalWeights, engine: Engine, me: str, ply: int = 0) -> float:
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
