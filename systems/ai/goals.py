"""Word goals: the pushes that would change the rules, wherever the heroes stand now.

A whole-turn search sees a push of a word only once a hero can walk to it and push within
the turn (systems/ai/pushes.py). A sentence six steps off the heroes' road stays out of its
sight: no candidate turn walks there, and no leaf is worth more for a hero on its way. Here
the words as they lie are read for every push of one word tile (a unit stepping into it from
the cell behind) that would form or break a rule: the tile and the words in line ahead of it
shift one cell, into a free cell, and the sentences are read again. What a change is worth to
each side is the evaluation with the new rules in force less the evaluation now (the rules set
for a moment and rolled back), so no rule's worth is written here: the evaluation's `rules`
values (data/ai.yaml, measured by simulation) decide.

The searches use a goal twice: TurnSearch offers a candidate turn in which the hero nearest
the best goal walks toward its cell, and MCTS adds to a leaf, for each side that may push
words, its best goal's gain discounted by `discount` for each turn its nearest hero needs to
get there and once more for the push (a hero beside the word holds half a push's worth at the
default 0.5; pushing is worth the whole). A side playing `words=off` has no goals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from components import Health, Kind, Moves, Position, Team, Word
from components.resources import BASE_KEY
from systems.ai.wordless import may_push_words
from systems.board import DIRS, occupancy
from systems.rules import read_rules, rules_now, set_rules, word_grid

if TYPE_CHECKING:
    from game.engine import Engine
    from systems.ai.base import Evaluator

Cell = tuple[int, int]
DISCOUNT = 0.5  # a goal's worth kept per turn of walking (and once for the push itself)
KEPT = 256  # word layouts a Goals remembers before it starts afresh


@dataclass(frozen=True, slots=True)
class Goal:
    """A push that changes the rules: a unit standing on `spot` steps onto `tile` (the word it
    pushes); `gains` is what the change is worth to each side, in evaluation points."""

    spot: Cell
    tile: Cell
    gains: tuple[tuple[str, float], ...]

    def gain(self, side: str) -> float:
        for name, value in self.gains:
            if name == side:
                return value
        return 0.0


def layout_key(engine: Engine) -> tuple | None:
    """What the goals depend on: the base rules and each word tile's text and cell (None: no
    word on the board)."""
    world = engine.world
    words = world.query(Word, Position)
    if not words:
        return None
    return (world.resource(BASE_KEY, ()),
            tuple(sorted((w.text, p.x, p.y) for _e, (w, p) in words)))


def find_goals(engine: Engine, evaluate: Evaluator) -> list[Goal]:
    """Every push of a word tile that would change the rules in force, with its gains."""
    world = engine.world
    grid = word_grid(world)
    if not grid:
        return []
    occ = occupancy(world)
    base = world.resource(BASE_KEY, ())
    now = rules_now(world)
    changes: dict[tuple[str, ...], list[tuple[Cell, Cell]]] = {}
    for tile in grid:
        for dx, dy in DIRS:
            spot = (tile[0] - dx, tile[1] - dy)
            if not occ.inside(*spot) or spot in occ.solid:
                continue
            chain = [tile]
            while (chain[-1][0] + dx, chain[-1][1] + dy) in grid:
                chain.append((chain[-1][0] + dx, chain[-1][1] + dy))
            end = (chain[-1][0] + dx, chain[-1][1] + dy)
            if not occ.inside(*end) or end in occ.solid or end in occ.units:
                continue
            moved = dict(grid)
            for cell in reversed(chain):
                del moved[cell]
            for cell in chain:
                moved[(cell[0] + dx, cell[1] + dy)] = grid[cell]
            rules = tuple(dict.fromkeys(base + read_rules(moved)))
            if rules != now:
                changes.setdefault(rules, []).append((spot, tile))
    if not changes:
        return []
    sides = sorted({team.side for _e, team in world.query(Team)})
    before = {side: evaluate(engine, side) for side in sides}
    goals: list[Goal] = []
    for rules, pushes in changes.items():
        mark = world.mark()
        try:
            set_rules(world, rules)
            gains = tuple((side, evaluate(engine, side) - before[side]) for side in sides)
        finally:
            world.rollback(mark)
        goals += [Goal(spot, tile, gains) for spot, tile in pushes]
    return goals


class Goals:
    """The goals of each word layout a search meets (found once per layout), and what they
    add to a leaf."""

    def __init__(self, evaluate: Evaluator, discount: float = DISCOUNT) -> None:
        self.evaluate = evaluate
        self.discount = discount
        self._known: dict[tuple, list[Goal]] = {}

    def of(self, engine: Engine) -> list[Goal]:
        """The goals where the words lie now."""
        key = layout_key(engine)
        if key is None:
            return []
        found = self._known.get(key)
        if found is None:
            if len(self._known) >= KEPT:
                self._known.clear()
            found = self._known[key] = find_goals(engine, self.evaluate)
        return found

    def best(self, engine: Engine, side: str) -> tuple[float, Goal | None]:
        """`side`'s best goal, worth its gain discounted per turn its nearest hero needs to
        stand on the goal's cell and push: (that worth, the goal), (0, None) if none helps."""
        if self.discount <= 0:
            return 0.0, None
        goals = self.of(engine)
        if not goals:  # no word on the board, or no push that changes the rules
            return 0.0, None
        return self._best(engine, side, goals, _heroes(engine))

    def _best(self, engine: Engine, side: str, goals: list[Goal],
              heroes: dict[str, list[tuple[int, int, int]]]) -> tuple[float, Goal | None]:
        """`best` from the goals here and each side's living heroes (x, y, full move points)."""
        if not goals or not may_push_words(engine, side):
            return 0.0, None
        mine = heroes.get(side, [])
        best, found = 0.0, None
        for goal in goals:
            gain = goal.gain(side)
            if gain <= best:
                continue
            sx, sy = goal.spot
            turns = min(((abs(x - sx) + abs(y - sy) + mp - 1) // mp for x, y, mp in mine),
                        default=None)
            if turns is None:
                continue
            worth = gain * self.discount ** (1 + turns)
            if worth > best:
                best, found = worth, goal
        return best, found

    def potential(self, engine: Engine, me: str) -> float:
        """What the goals add to a leaf's evaluation for `me`: my best goal's discounted worth
        less the best of each other side (the goals, and the heroes, read once for all)."""
        if self.discount <= 0:
            return 0.0
        goals = self.of(engine)
        if not goals:
            return 0.0
        heroes = _heroes(engine)
        total = 0.0
        for side, _gain in goals[0].gains:  # every side, as the goals were valued for
            worth, _goal = self._best(engine, side, goals, heroes)
            total += worth if side == me else -worth
        return total


def _heroes(engine: Engine) -> dict[str, list[tuple[int, int, int]]]:
    """Each side's living heroes: (x, y, full move points, at least 1)."""
    found: dict[str, list[tuple[int, int, int]]] = {}
    for _e, (pos, team, kind, health, moves) in engine.world.query(Position, Team, Kind,
                                                                    Health, Moves):
        if kind.name == "hero" and health.hp > 0:
            found.setdefault(team.side, []).append((pos.x, pos.y, max(1, moves.max_mp)))
    return found
