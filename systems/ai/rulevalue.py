"""What a property is worth to a side, measured by simulation: the numbers behind the
evaluation's `rules` section (data/ai.yaml), so no rule's value is written by hand.

From a position at the start of a turn, the rule `SIDE IS PROPERTY` is put in force for one
side (added to the base rules, the turn's move points dealt again as if it had held from the
turn's start) and the game is played on by the heuristic for both sides for a few turns; then
the same with the other side's noun. Both playouts take the same random numbers. Each ends in a
result for the first side: 1 or -1 when decided, else tanh of the evaluation over its scale
(the evaluation with no rule values, so what is measured does not feed on itself). Half the
difference of the two results, times the scale, is what the property is worth, in evaluation
points, to a side whose every unit and building has it (and what it costs a side when every
enemy has it): the evaluation's unit of account. `rulefront tune rules` averages it over
positions from games on the word maps (game/tournament/rulevalues.py).

Nothing copies the world: each playout is applied and retracted, and the forced rule rolled
back with it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from components.resources import BASE_KEY
from game.commands import EndTurn
from systems.ai.base import Budget, Evaluator
from systems.ai.heuristic import HeuristicAI
from systems.ai.plan import MAX_TURN
from systems.rules import noun_kinds, refresh_rules
from systems.stats import start_turn

if TYPE_CHECKING:
    from game.engine import Engine


def side_noun(side: str) -> str | None:
    """The noun word that names every unit of `side` ('red' -> 'RED'), if the words have one."""
    return next((text for text, kind in noun_kinds().items() if kind == side), None)


def without_rules(evaluate: Evaluator) -> Evaluator:
    """The evaluation with no rule values, when the ruleset's offers one (its
    `without_rules()`), else the evaluation itself."""
    plain = getattr(evaluate, "without_rules", None)
    found: Evaluator = plain() if callable(plain) else evaluate
    return found


def force(engine: Engine, rule: str) -> None:
    """Put `rule` in force as a base rule (the caller rolls the world back afterwards) and
    deal the side to play its turn again, as if the rule had held when the turn began."""
    world = engine.world
    world.set_resource(BASE_KEY, (*world.resource(BASE_KEY, ()), rule))
    refresh_rules(world)
    start_turn(world, engine.side)


def playout(engine: Engine, policy: HeuristicAI, turns: int, seed: int,
            evaluate: Evaluator, side: str) -> float:
    """Play `turns` turns with `policy` for both sides; the result for `side` in [-1, 1]
    (the engine is left where the playout ended: the caller retracts)."""
    rng = random.Random(seed)
    for _ in range(turns):
        mover = engine.side
        for _ in range(MAX_TURN):
            if engine.over or engine.side != mover:
                break
            engine.apply(policy.choose(engine, rng, Budget()))
        if engine.over:
            break
        if engine.side == mover:
            engine.apply(EndTurn())
    value = evaluate(engine, side)
    if abs(value) >= evaluate.win - 10_000:
        return 1.0 if value > 0 else -1.0
    return math.tanh(value / evaluate.scale)


def property_worth(engine: Engine, properties: Sequence[str], sides: Sequence[str],
                   turns: int, seed: int, evaluate: Evaluator,
                   policy: HeuristicAI | None = None) -> dict[str, float]:
    """Property -> its worth to a side, in evaluation points, measured from this position
    (at the start of a turn) by the playouts the module's docstring describes. `sides`: the
    two sides; `evaluate`: the evaluation without rule values."""
    first, second = sides[0], sides[1]
    nouns = side_noun(first), side_noun(second)
    if nouns[0] is None or nouns[1] is None:
        return {}
    policy = policy or HeuristicAI()
    world = engine.world
    start = len(engine.history)
    found: dict[str, float] = {}
    for prop in properties:
        results = []
        for noun in nouns:
            mark = world.mark()
            try:
                force(engine, f"{noun} IS {prop}")
                results.append(playout(engine, policy, turns, seed, evaluate, first))
            finally:
                engine.retract_to(start)
                world.rollback(mark)
        found[prop] = 0.5 * (results[0] - results[1]) * evaluate.scale
    return found
