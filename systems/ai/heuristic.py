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
from collections.abc import Set as AbstractSet
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from components import Health, Word
from components.resources import RULES_KEY
from game.commands import Attack, Command, EndTurn, Move
from game.journal import MOVE, RNG, SET
from systems.ai import Budget
from systems.ai.base import Evaluator, evaluator_for
from systems.ai.evaluate import (
    HeuristicWeights,
    Unit,
    heuristic_weights,
    heuristic_weights_file,
    unit_of,
    units,
)
from systems.ai.plan import TurnPlan
from systems.ai.pushes import push_lines
from systems.board import DIRS, Cell, Occupancy, in_sight, occupancy

if TYPE_CHECKING:
    from game.engine import Engine
    from game.world import World

KIND_FIELDS = ("hero", "minion", "tower", "hq")
_first = itemgetter(0)  # a (score, command) pair's score
_UNKNOWN: Any = object()  # not worked out yet (None is an answer: no attack from there)
MOBILE = frozenset({"hero", "minion"})
UNREACHED = 99  # steps counted for a cell no walk reaches
KEPT = 512  # distance fields, and fronts, a heuristic remembers before it starts afresh

# What standing on a cell is worth depends on the enemy, the walls and what blocks sight, not
# on where our own heroes stand: a Front keeps those values while the enemy stays as it was,
# which it does through the whole of our turn until we hit something, and which a search meets
# again and again. Keyed by everything the values read, so a hit is a new Front. Its cells
# are indexes (x + y * width, the board's width being part of the key): an int hashes faster
# than a pair, and the values outlive a search without leaving the collector pairs to walk.
FrontKey = tuple
Profile = tuple[int, int, int, bool]  # what a hero's standing reads of it: range, damage, hp,
# and whether it has attacked


class Front:
    """Values of cells against one fixed enemy: the damage it could deal there (whatever the
    weights), the best attack from there (per attacker range and damage, for the weights that
    value attacks) and a hero's standing there (per weights)."""

    __slots__ = ("danger", "attack", "standing")

    def __init__(self) -> None:
        self.danger: dict[int, int] = {}
        # per attack weights and attacker (range, damage): cell -> value
        self.attack: dict[tuple[float, ...], dict[tuple[int, int], dict[int, float | None]]] = {}
        # per weights (by id: Memo.attack_key keeps them alive) and hero (range, damage, hp,
        # attacked): cell -> value
        self.standing: dict[int, dict[Profile, dict[int, float]]] = {}


def attack_weights(w: HeuristicWeights) -> tuple[float, ...]:
    """The weights `Situation.attack_value` reads: heuristics that agree on them value every
    attack alike (the pressing heuristic and the one it presses from)."""
    return (w.attack, w.kill, w.hero, w.minion, w.tower, w.hq, w.weak, w.defend, w.near)


class Memo:
    """A heuristic's memory across its choices: distance fields and fronts (see Front). Two
    heuristics may share one (a whole-turn search's two policies): what depends on weights is
    kept per weights."""

    def __init__(self) -> None:
        self.fields: dict[tuple, GoalSteps] = {}
        self.fronts: dict[FrontKey, Front] = {}
        self.attack_keys: dict[int, tuple[HeuristicWeights, tuple[float, ...]]] = {}

    def field(self, occ: Occupancy, goals: list[Cell]) -> GoalSteps:
        """distance_field(occ, goals) by cell (x + y * width), UNREACHED where no way leads,
        walked as far as asked and remembered by the solid cells and the goals."""
        solid = _frozen(occ.solid)
        key = (solid, occ.width, occ.height, tuple(goals))
        found = self.fields.get(key)
        if found is None:
            if len(self.fields) >= KEPT:
                self.fields.clear()
            found = self.fields[key] = GoalSteps(_grid(solid, occ.width, occ.height), goals,
                                                 occ.width)
        return found

    def attack_key(self, w: HeuristicWeights) -> tuple[float, ...]:
        """attack_weights(w), worked out once per weights (by id: they are kept here)."""
        found = self.attack_keys.get(id(w))
        if found is None:
            found = self.attack_keys[id(w)] = (w, attack_weights(w))
        return found[1]

    def front(self, key: FrontKey) -> Front:
        found = self.fronts.get(key)
        if found is None:
            if len(self.fronts) >= KEPT:
                self.fronts.clear()
            found = self.fronts[key] = Front()
        return found


@lru_cache(maxsize=64)
def _grid(solid: frozenset[Cell], width: int, height: int) -> list[tuple[int, ...]]:
    """Each cell's neighbours a walk may enter (on the board, not solid), by index: made once
    per board and walls, for every heuristic (a read-only answer: do not mutate it)."""
    return [tuple((x + dx) + (y + dy) * width for dx, dy in DIRS
                  if 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in solid)
            for y in range(height) for x in range(width)]


class GoalSteps:
    """Breadth-first steps to the nearest goal on a flat grid (systems.board.grid_distances
    by cell index), walked only as far as the cells asked about: a heuristic asks about the
    cells its heroes can walk to, mostly far nearer the goals than the board's far corners.
    The walk goes layer by layer, so a cell has its true distance once it is reached; one
    still at UNREACHED is not reached yet, which holds while every step counted is below
    UNREACHED (longer walks are counted by _far_steps)."""

    __slots__ = ("dist", "frontier", "goals", "grid", "step", "width")

    def __init__(self, grid: list[tuple[int, ...]], goals: list[Cell], width: int) -> None:
        dist = [UNREACHED] * len(grid)
        frontier = []
        for x, y in goals:
            i = x + y * width
            if dist[i]:
                dist[i] = 0
                frontier.append(i)
        self.dist, self.frontier, self.step = dist, frontier, 0
        self.grid, self.goals, self.width = grid, tuple(goals), width

    def at(self, i: int) -> int:
        """Steps from cell index `i` to the nearest goal (UNREACHED if no way leads)."""
        found = self.dist[i]
        if found != UNREACHED or not self.frontier:
            return found
        return self._walk(i)

    def _walk(self, i: int) -> int:
        """Walk on until cell `i` is reached or nothing is left to reach (i = -1: to the end)."""
        dist, grid, frontier, step = self.dist, self.grid, self.frontier, self.step
        while frontier and (i < 0 or dist[i] == UNREACHED):
            step += 1
            if step >= UNREACHED:
                self.dist = dist = _far_steps(grid, list(self.goals), self.width)
                frontier = []
                break
            nxt: list[int] = []
            push = nxt.append
            for k in frontier:
                for j in grid[k]:
                    if dist[j] == UNREACHED:
                        dist[j] = step
                        push(j)
            frontier = nxt
        self.frontier, self.step = frontier, step
        return dist[i] if i >= 0 else 0

    def all(self) -> list[int]:
        """Every cell's steps (the whole walk)."""
        self._walk(-1)
        return self.dist


def _steps(grid: list[tuple[int, ...]], goals: list[Cell], width: int) -> list[int]:
    """Breadth-first steps to the nearest goal (systems.board.grid_distances on a flat grid)."""
    return GoalSteps(grid, goals, width).all()


def _far_steps(grid: list[tuple[int, ...]], goals: list[Cell], width: int) -> list[int]:
    """_steps with each cell marked when reached, for boards with walks of UNREACHED steps."""
    dist = [UNREACHED] * len(grid)
    seen = bytearray(len(grid))
    frontier = []
    for x, y in goals:
        i = x + y * width
        if not seen[i]:
            seen[i] = 1
            dist[i] = 0
            frontier.append(i)
    step = 0
    while frontier:
        step += 1
        nxt = []
        for i in frontier:
            for j in grid[i]:
                if not seen[j]:
                    seen[j] = 1
                    dist[j] = step
                    nxt.append(j)
        frontier = nxt
    return dist


def _frozen(cells: AbstractSet[Cell]) -> frozenset[Cell]:
    return cells if isinstance(cells, frozenset) else frozenset(cells)


class Situation:
    """What one decision needs, computed once per choice: units, dangers, distances.

    `before`, the situation of an earlier state this one grew from by moves of the side's own
    heroes and minions alone (a greedy turn before it hits anything), lends it everything that
    reads only the enemy and the scenery (the enemy's units, raiders, the distance field, the
    cell values); only the units those moves wrote are read again. After a hit that left its
    target standing it lends what reads only where the enemies stand (raiders, the distance
    field, the danger by cell); the cell values that read their hp are looked up afresh.
    """

    def __init__(self, engine: Engine, w: HeuristicWeights, memo: Memo | None = None,
                 before: Situation | None = None) -> None:
        world = engine.world
        memo = memo or Memo()
        self.w = w
        side = self.side = engine.side
        own = getattr(engine.ruleset, "occupancy", None)  # the ruleset's, with its opaque kinds
        occ = self.occ = own(world) if callable(own) else occupancy(world, ())
        self.world, self.token = world, world.version()
        if before is not None:
            found = before._own_moves(self)
            if found is not None:
                self._grow(before, *found)
                if found[1]:
                    self._front(memo, before)
                return
        every = units(world)
        self.by_id = {u.entity: u for u in every}  # in entity id order, as units gives them
        self.enemies = [u for u in every if u.side != side]
        own_hq = [u for u in every if u.side == side and u.kind == "hq"]
        raiders = tuple(u.entity for u in self.enemies if u.kind == "minion" and any(
            abs(u.x - hq.x) + abs(u.y - hq.y) <= w.defend_radius for hq in own_hq))
        self.raiders = set(raiders)
        goals = [(u.x, u.y) for u in self.enemies if u.kind == "hero" or u.entity in self.raiders]
        if not goals:
            goals = [(u.x, u.y) for u in self.enemies if u.kind == "hq"]
        if not goals:
            goals = [(u.x, u.y) for u in self.enemies]
        # Goals stand on cells the field treats as free, so walk the field around them.
        self.field = memo.field(occ, goals)
        self.width, self.height = occ.width, occ.height
        self._raider_key: tuple[int, ...] = raiders
        self._reaches: list[tuple[int, int, int, int]] | None = None  # _threats, when asked
        self._front(memo, None)

    def _front(self, memo: Memo, struck: Situation | None) -> None:
        """Take the cell values against this enemy line-up from `memo`. `struck`: an earlier
        situation whose enemies stood where these stand, with the same reach and damage
        (only their hp differs), whose danger by cell holds here too."""
        occ, side, w = self.occ, self.side, self.w
        key = (side, _frozen(occ.solid), _frozen(occ.opaque), occ.width, occ.height,
               self._raider_key,
               tuple([(u.entity, u.kind, u.x, u.y, u.hp, u.damage, u.range, u.moves)
                      for u in self.enemies]),
               tuple([cell for cell, owner in occ.units.items() if owner != side]))
        front = memo.front(key)
        if struck is not None and not front.danger:
            front.danger = struck._danger
        self._danger: dict[int, int] = front.danger
        attack_key = memo.attack_key(w)
        attack = front.attack.get(attack_key)
        if attack is None:
            attack = front.attack[attack_key] = {}
        self._attack = attack
        standing = front.standing.get(id(w))
        if standing is None:
            standing = front.standing[id(w)] = {}
        self._standing = standing

    def _own_moves(self, now: Situation) -> tuple[set[int], bool] | None:
        """The entities written between this situation and `now` (a later one of the same
        heuristic), when all are this side's heroes and minions on an unchanged board, or
        enemies whose hp alone changed and who still stand (a hit that did not kill), and
        whether there were such enemies; else None."""
        world, occ, old = now.world, now.occ, self.occ
        if world is not self.world or now.side != self.side or now.w is not self.w \
                or occ.solid is not old.solid or occ.opaque is not old.opaque \
                or occ.width != old.width or occ.height != old.height \
                or not world.is_ancestor(self.token):
            return None
        # The journal's entries read as they are (a step or two of one hero, most often):
        # moves and fields written, draws of the RNG, and nothing else.
        by_id, side = self.by_id, self.side
        changed: set[int] = set()
        hurt: list[int] = []
        for entry in world.changes_since(self.token[1]):
            op = entry[0]
            if op in (SET, MOVE):
                entity = entry[1]
                unit = by_id.get(entity)
                if unit is None:
                    return None
                if unit.side != side:
                    if op == MOVE or type(entry[2]) is not Health:
                        return None
                    hurt.append(entity)
                elif unit.kind not in MOBILE:
                    return None
                changed.add(entity)
            elif op != RNG:
                return None
        for entity in hurt:
            if not world.get(entity, Health).hp > 0:
                return None
        return changed, bool(hurt)

    def _grow(self, before: Situation, changed: set[int], struck: bool) -> None:
        """Take `before`'s enemy side and cell values; read the `changed` units again. When
        an enemy was `struck` (its hp changed), the enemy side is read again and the cell
        values are left to `_front`."""
        world = self.world
        # before's units with the changed ones read again (a copy keeps the id order)
        by_id = self.by_id = before.by_id.copy()
        for entity in changed:
            unit = unit_of(world, entity)
            if unit is None:
                del by_id[entity]
            else:
                by_id[entity] = unit
        self.raiders, self.field = before.raiders, before.field
        self._raider_key = before._raider_key
        self.width, self.height = before.width, before.height
        self._reaches = before._reaches  # where the enemies stand, their reach and damage
        if struck:
            side = self.side
            self.enemies = [u for u in by_id.values() if u.side != side]
            return
        self.enemies = before.enemies
        self._danger = before._danger
        self._attack, self._standing = before._attack, before._standing

    def danger(self, cell: Cell) -> int:
        """Damage the enemy could deal to a unit on `cell` (on the board) before it acts
        again."""
        x, y = cell
        found = self._danger.get(x + y * self.width)
        return self._danger_at(x, y) if found is None else found

    def _danger_at(self, x: int, y: int) -> int:
        found = 0
        for ex, ey, reach, damage in self._threats():
            if (ex - x if ex > x else x - ex) + (ey - y if ey > y else y - ey) <= reach:
                found += damage
        self._danger[x + y * self.width] = found
        return found

    def _threats(self) -> list[tuple[int, int, int, int]]:
        """Each enemy's cell, reach (its range, plus its walk for heroes and minions) and
        damage."""
        found = self._reaches
        if found is None:
            found = self._reaches = [
                (e.x, e.y, e.range + (e.moves if e.kind in ("hero", "minion") else 0), e.damage)
                for e in self.enemies]
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
        """The best attack `hero` could make from `cell` (on the board), None if none."""
        known = self._attacks(hero)
        i = cell[0] + cell[1] * self.width
        if i in known:
            return known[i]
        best = known[i] = self._best_attack_from(hero, cell)
        return best

    def _attacks(self, hero: Unit) -> dict[int, float | None]:
        """The best attacks worked out so far for heroes like `hero`, by cell index."""
        found = self._attack.get((hero.range, hero.damage))
        if found is None:
            found = self._attack[(hero.range, hero.damage)] = {}
        return found

    def _best_attack_from(self, hero: Unit, cell: Cell) -> float | None:
        best = None
        x, y = cell
        reach, occ, side = hero.range, self.occ, hero.side
        for t in self.enemies:
            tx, ty = t.x, t.y
            if (tx - x if tx > x else x - tx) + (ty - y if ty > y else y - ty) > reach:
                continue
            if not in_sight(occ, side, cell, (tx, ty)):
                continue
            value = self.attack_value(hero, t, cell)
            if best is None or value > best:
                best = value
        return best

    def standing(self, hero: Unit, cell: Cell, attacked: bool) -> float:
        """How good it is for `hero` to stand on `cell` (on the board; ready to attack, or
        done for the turn)."""
        known = self.known(hero, attacked)
        x, y = cell
        found = known.get(x + y * self.width)
        if found is None:
            found = known[x + y * self.width] = self._stand(hero, x, y, attacked,
                                                            self._attacks(hero))
        return found

    def known(self, hero: Unit, attacked: bool) -> dict[int, float]:
        """The standings worked out so far for heroes like `hero`, by cell index."""
        profile = (hero.range, hero.damage, hero.hp, attacked)
        found = self._standing.get(profile)
        if found is None:
            found = self._standing[profile] = {}
        return found

    def _stand(self, hero: Unit, x: int, y: int, attacked: bool,
               attacks: dict[int, float | None]) -> float:
        """standing() of (x, y), worked out; `attacks`: self._attacks(hero)."""
        # danger(), best_attack_from() and the steps to the nearest goal inlined where they
        # remember: asked for every cell a hero can walk to, each time the enemy line-up is new
        w = self.w
        i = x + y * self.width
        danger = self._danger.get(i)
        if danger is None:
            danger = self._danger_at(x, y)
        hp = hero.hp
        hurt = danger if danger < hp else hp
        risk = w.kill_risk if danger >= hp else 0.0
        if not attacked:
            best = attacks.get(i, _UNKNOWN)
            if best is _UNKNOWN:
                best = attacks[i] = self._best_attack_from(hero, (x, y))
            if best is not None:
                return w.potential * best - w.danger_attacking * hurt - risk
        # steps from the cell to the nearest goal round the solid cells (UNREACHED if none)
        steps = UNREACHED
        if 0 <= x < self.width and 0 <= y < self.height:
            field = self.field
            steps = field.dist[i]
            if steps == UNREACHED and field.frontier:
                steps = field._walk(i)
        if attacked:
            return -w.danger_after * hurt - risk - 0.1 * steps
        return (-w.approach_gap - w.approach * steps
                - w.danger_attacking * hurt - risk)


class HeuristicAI:
    name = "heuristic"
    NEEDS = ("evaluator",)  # rule changes and commands of other shapes are judged by it
    OPTIONS: tuple[str, ...] = ("weights", "pushes")

    def __init__(self, weights: str | HeuristicWeights | None = None,
                 memo: Memo | None = None, pushes: str | bool = True) -> None:
        """`weights`: a YAML file with a `heuristic:` section (as `rulefront tune` writes),
        or the weights themselves; data/ai.yaml's by default. `memo`: a memory to share with
        another heuristic (see Memo). `pushes` (on by default; the searches' own greedy
        policies turn it off): before each action, look at the lines of a walk and a push that
        change something (systems/ai/pushes.py) and play the best one when its evaluation
        gain beats every single action's score."""
        if weights is None:
            self.w = heuristic_weights()
        elif isinstance(weights, HeuristicWeights):
            self.w = weights
        else:
            self.w = heuristic_weights_file(weights)
        self._evaluator: tuple[str, Evaluator] | None = None  # (ruleset name, its evaluator)
        self._memo = memo or Memo()  # what earlier choices worked out that this may reuse
        self._last: tuple[World, Any, list[tuple[float, Command]]] | None = None  # scores()
        self._situation: Situation | None = None  # the last choice's, to grow the next from
        self.pushes = _on(pushes)
        self._line = TurnPlan()  # the rest of a push line being played

    def evaluator(self, engine: Engine) -> Evaluator:
        """The engine's ruleset's evaluator, built once per ruleset."""
        name = engine.ruleset.name
        if self._evaluator is None or self._evaluator[0] != name:
            self._evaluator = (name, evaluator_for(engine))
        return self._evaluator[1]

    def scores(self, engine: Engine) -> list[tuple[float, Command]]:
        """Every legal action with its score, in the engine's order (the same list when asked
        again in the same state, as a whole-turn search does: do not mutate it)."""
        world = engine.world
        last = self._last
        if last is not None and last[0] is world and world.same_version(last[1]):
            return last[2]
        token = world.version()
        actions = engine.legal_actions()
        s = self._situation = Situation(engine, self.w, self._memo, self._situation)
        words = bool(world.query(Word))
        by_id, stand, step, width = s.by_id, s._stand, self.w.step, s.width
        solid, held = s.occ.solid, s.occ.units
        scored: list[tuple[float, Command]] = []
        unit = -1  # the hero whose moves are being scored (they come hero by hero)
        append = scored.append
        for command in actions:
            # The common case, inlined (standing): a walk. A move into a solid or held cell is
            # a push (a walk ends on neither), scored apart (`score`); only a push can move a
            # word, so only a push is tried for a rule change.
            if type(command) is Move:
                x, y = cell = (command.x, command.y)
                if cell not in solid and cell not in held:
                    if command.unit != unit:
                        unit = command.unit
                        hero = by_id[unit]
                        attacked = hero.ap <= 0
                        hx, hy = hero.x, hero.y
                        known = s.known(hero, attacked)
                        attacks = s._attacks(hero)
                        was = known.get(hx + hy * width)
                        here = known[hx + hy * width] = stand(hero, hx, hy, attacked, attacks) \
                            if was is None else was
                    there = known.get(x + y * width)
                    if there is None:
                        there = known[x + y * width] = stand(hero, x, y, attacked, attacks)
                    append((there - here - step * ((x - hx if x > hx else hx - x)
                                                   + (y - hy if y > hy else hy - y)), command))
                    continue
            append((self.score(engine, s, command, words), command))
        self._last = (world, token, scored)
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
            if there in s.occ.solid or there in s.occ.units:  # a push: its standing unknown
                value = -w.step * cost
            else:
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
        if self.pushes:
            planned = self._line.next(engine)
            if planned is not None:
                return planned
        scored = self.scores(engine)
        best = max(map(_first, scored))
        if self.pushes:
            line = self.push_line(engine, best)
            if line is not None:
                return self._line.start(engine, line)
        ties = [c for score, c in scored if score >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[rng.randrange(len(ties))]

    def push_line(self, engine: Engine, best: float) -> tuple[Command, ...] | None:
        """The best walk-and-push line that changes something, when its evaluation gain
        (times `rule_change`) beats `best`, the best single action's score."""
        evaluate = self.evaluator(engine)
        lines = push_lines(engine, evaluate, 1)
        if not lines:
            return None
        value, line = lines[0]
        gain = self.w.rule_change * (value - evaluate(engine, engine.side))
        return line if gain > best else None


def _on(value: str | bool) -> bool:
    if isinstance(value, bool):
        return value
    if value.lower() in ("on", "true", "yes", "1"):
        return True
    if value.lower() in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"option pushes must be on or off, not {value!r}")
