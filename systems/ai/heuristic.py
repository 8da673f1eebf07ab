"""The heuristic AI: score every legal action by what it does for the acting hero; play the best.

A hero that can hit something hits (the target it can kill, else the weakest, else the nearest);
one that cannot walks to a cell it can hit from, or nearer the nearest enemy hero (or a minion
wave at our headquarters); once it has attacked it steps out of reach of towers, headquarters
and enemies that can still act. A move that changes the rules in force, and any command of
another shape, is judged by the ruleset's evaluator (its spec's `evaluator` edge) before and
after it. Ending the turn scores 0: an action is played only if it helps. Sight and reach
read the ruleset's own occupancy (its `occupancy(world)`, with what its data makes opaque)
when it offers one.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from components import Word
from components.resources import RULES_KEY
from game.commands import Attack, Command, EndTurn, Move
from systems.ai import Budget
from systems.ai.base import Evaluator, evaluator_for
from systems.ai.evaluate import (
    HeuristicWeights,
    Unit,
    heuristic_weights,
    heuristic_weights_file,
    units,
)
from systems.board import Cell, Occupancy, distance_field, in_sight, occupancy

if TYPE_CHECKING:
    from game.engine import Engine

KIND_FIELDS = ("hero", "minion", "tower", "hq")


class Situation:
    """What one decision needs, computed once per choice: units, dangers, distances."""

    def __init__(self, engine: Engine, w: HeuristicWeights) -> None:
        world = engine.world
        self.w = w
        self.side = engine.side
        own = getattr(engine.ruleset, "occupancy", None)  # the ruleset's, with its opaque kinds
        self.occ: Occupancy = own(world) if callable(own) else occupancy(world, ())
        self.units = units(world)
        self.by_id = {u.entity: u for u in self.units}
        self.enemies = [u for u in self.units if u.side != self.side]
        own_hq = [u for u in self.units if u.side == self.side and u.kind == "hq"]
        self.raiders = {u.entity for u in self.enemies if u.kind == "minion" and any(
            abs(u.x - hq.x) + abs(u.y - hq.y) <= w.defend_radius for hq in own_hq)}
        goals = [(u.x, u.y) for u in self.enemies if u.kind == "hero" or u.entity in self.raiders]
        if not goals:
            goals = [(u.x, u.y) for u in self.enemies if u.kind == "hq"]
        if not goals:
            goals = [(u.x, u.y) for u in self.enemies]
        # Goals stand on cells the field treats as free, so walk the field around them.
        self.field = distance_field(self.occ, goals) if goals else {}
        self._danger: dict[Cell, int] = {}

    def danger(self, cell: Cell) -> int:
        """Damage the enemy could deal to a unit on `cell` before it acts again."""
        found = self._danger.get(cell)
        if found is None:
            x, y = cell
            found = 0
            for e in self.enemies:
                reach = e.range + (e.moves if e.kind in ("hero", "minion") else 0)
                if abs(e.x - x) + abs(e.y - y) <= reach:
                    found += e.damage
            self._danger[cell] = found
        return found

    def attack_value(self, hero: Unit, target: Unit, here: Cell) -> float:
        w = self.w
        value = w.attack + getattr(w, target.kind, 0.0) if target.kind in KIND_FIELDS else w.attack
        if target.hp <= hero.damage:
            value += w.kill
        else:
            value -= w.weak * (target.hp - hero.damage)
        if target.entity in self.raiders:
            value += w.defend
        return value - w.near * (abs(target.x - here[0]) + abs(target.y - here[1]))

    def best_attack_from(self, hero: Unit, cell: Cell) -> float | None:
        best = None
        for t in self.enemies:
            if abs(t.x - cell[0]) + abs(t.y - cell[1]) > hero.range:
                continue
            if not in_sight(self.occ, hero.side, cell, (t.x, t.y)):
                continue
            value = self.attack_value(hero, t, cell)
            if best is None or value > best:
                best = value
        return best

    def standing(self, hero: Unit, cell: Cell, attacked: bool) -> float:
        """How good it is for `hero` to stand on `cell` (ready to attack, or done for the turn)."""
        w = self.w
        danger = self.danger(cell)
        risk = w.kill_risk if danger >= hero.hp else 0.0
        if attacked:
            return -w.danger_after * min(danger, hero.hp) - risk - 0.1 * self.field.get(cell, 99)
        best = self.best_attack_from(hero, cell)
        if best is not None:
            return w.potential * best - w.danger_attacking * min(danger, hero.hp) - risk
        return (-w.approach_gap - w.approach * self.field.get(cell, 99)
                - w.danger_attacking * min(danger, hero.hp) - risk)


class HeuristicAI:
    name = "heuristic"
    NEEDS = ("evaluator",)  # rule changes and commands of other shapes are judged by it
    OPTIONS: tuple[str, ...] = ("weights",)

    def __init__(self, weights: str | HeuristicWeights | None = None) -> None:
        """`weights`: a YAML file with a `heuristic:` section (as `rulefront tune` writes),
        or the weights themselves; data/ai.yaml's by default."""
        if weights is None:
            self.w = heuristic_weights()
        elif isinstance(weights, HeuristicWeights):
            self.w = weights
        else:
            self.w = heuristic_weights_file(weights)
        self._evaluator: tuple[str, Evaluator] | None = None  # (ruleset name, its evaluator)

    def evaluator(self, engine: Engine) -> Evaluator:
        """The engine's ruleset's evaluator, built once per ruleset."""
        name = engine.ruleset.name
        if self._evaluator is None or self._evaluator[0] != name:
            self._evaluator = (name, evaluator_for(engine))
        return self._evaluator[1]

    def scores(self, engine: Engine) -> list[tuple[float, Command]]:
        """Every legal action with its score, in the engine's order."""
        actions = engine.legal_actions()
        s = Situation(engine, self.w)
        words = bool(engine.world.query(Word))
        scored = []
        for command in actions:
            scored.append((self.score(engine, s, command, words), command))
        return scored

    def score(self, engine: Engine, s: Situation, command: Command, words: bool) -> float:
        w = self.w
        if isinstance(command, EndTurn):
            return 0.0
        if isinstance(command, Attack):
            hero, target = s.by_id[command.unit], s.by_id.get(command.target)
            if target is None:
                return 0.0
            # Hitting is never a loss: where to stand afterwards is the next action's question.
            return max(1.0, s.attack_value(hero, target, (hero.x, hero.y)))
        if isinstance(command, Move):
            hero = s.by_id[command.unit]
            attacked = hero.ap <= 0
            here, there = (hero.x, hero.y), (command.x, command.y)
            cost = abs(there[0] - here[0]) + abs(there[1] - here[1])
            value = s.standing(hero, there, attacked) - s.standing(hero, here, attacked)
            value -= w.step * cost
            if words:
                value += self.rule_change(engine, command)
            return value
        return self.rule_change(engine, command)  # another ruleset's command: look one ply

    def rule_change(self, engine: Engine, command: Command) -> float:
        """The evaluation gain of `command` when it changes the rules in force, else 0."""
        world = engine.world
        me = engine.side
        evaluate = self.evaluator(engine)
        before_rules = world.resource(RULES_KEY)
        before = evaluate(engine, me)
        engine.apply(command)
        try:
            if world.resource(RULES_KEY) == before_rules and not engine.over:
                return 0.0
            return self.w.rule_change * (evaluate(engine, me) - before)
        finally:
            engine.retract()

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        scored = self.scores(engine)
        best = max(score for score, _ in scored)
        ties = [c for score, c in scored if score >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]
