"""Whole turns as the unit of search: candidate turns for the side to play, and a minimax over them.

A skirmish turn is several actions (move each hero, attack, end), so a search that counts one
action as one ply sees, at small budgets, only its own half-turn and every line looks alike.
Here a node is a position at the start of a turn and its children are whole turns, built by
the heuristic: its own greedy turn, the same with the danger weights off (a turn that presses),
turns that open with each of the heuristic's next-best actions and continue greedily, and
ending the turn at once. Minimax then looks at the opponent's best reply turn, and the next,
with iterative deepening, a transposition table keyed by the journal-driven state hash, and the
last iteration's best turn searched first. Ties go to progress: damage dealt, then steps closed
toward the enemy headquarters; two turns tie when their values differ by less than the
evaluator's `tie` (skirmish: one hero hit point's worth): the evaluation's pull toward the enemy (a point per
step) is too weak to overcome the risk it sees in walking into reach, and a search that only
holds its ground never wins.

Nothing copies the world: a turn is applied action by action and retracted.
"""

from __future__ import annotations

import random
import time
from collections.abc import Generator
from contextlib import closing
from dataclasses import dataclass, replace
from heapq import nlargest
from operator import itemgetter
from typing import TYPE_CHECKING

from components import Health, Kind, Position, Team
from game.commands import Command, EndTurn, Move
from game.events import Damaged
from systems.ai import Budget
from systems.ai.base import Evaluator, NodeCounter, OutOfBudget, evaluator_for
from systems.ai.evaluate import HeuristicWeights, StateHash, heuristic_weights
from systems.ai.goals import Goals
from systems.ai.heuristic import HeuristicAI, Memo
from systems.ai.plan import MAX_TURN
from systems.ai.pushes import push_lines
from systems.board import distance_field, occupancy

if TYPE_CHECKING:
    from game.engine import Engine


PUSH_LINES = 2  # candidate turns per position that open with a push changing something
NO_BUDGET = Budget()  # a greedy policy's choice: it does not search
_first = itemgetter(0)  # a (score, command) pair's score


@dataclass
class TurnStats:
    nodes: int = 0  # actions applied, plan generation included
    depth: int = 0  # turns searched in the deepest finished iteration
    value: float = 0.0
    turns: int = 0  # candidate turns looked at
    tt_hits: int = 0


def press_weights(w: HeuristicWeights) -> HeuristicWeights:
    """The heuristic with its caution off: it walks into danger to get at the enemy."""
    return replace(w, danger_attacking=0.0, danger_after=0.5, kill_risk=0.0, approach=w.approach * 2)


def press_policies(hw: HeuristicWeights | None = None) -> list[HeuristicAI]:
    """The two policies candidate turns are built with: the heuristic (with `hw`, else
    data/ai.yaml's weights) and the same with its caution off (press_weights), sharing what
    they remember."""
    base = hw or heuristic_weights()
    memo = Memo()  # one memory: distance fields, danger and attack values do not differ
    return [HeuristicAI(base, memo, pushes=False),
            HeuristicAI(press_weights(base), memo, pushes=False)]


@dataclass(frozen=True)
class Builder:
    """How to make one candidate turn: a fixed list of actions, or a policy (0 the heuristic,
    1 the pressing heuristic) played greedily after an optional first action, or after a
    line of actions (`prefix`: a walk and a push that change something, systems/ai/pushes.py),
    or after the walk of the hero nearest `toward` (a word goal's cell, systems/ai/goals.py)
    as near it as the hero can get."""

    fixed: tuple[Command, ...] | None
    policy: int
    opening: Command | None
    prefix: tuple[Command, ...] = ()
    toward: tuple[int, int] | None = None


@dataclass(frozen=True)
class Progress:
    """What a turn achieved beyond its evaluation: the tie-break toward pressing the game."""

    damage: int = 0
    closed: int = 0  # Manhattan steps own heroes came nearer the enemy HQ

    def key(self) -> tuple[int, int]:
        return (self.damage, self.closed)


def _hero_distance(engine: Engine, side: str) -> int:
    world = engine.world
    hqs = [(p.x, p.y) for _e, (p, t, k, h) in world.query(Position, Team, Kind, Health)
           if k.name == "hq" and t.side != side and h.hp > 0]
    if not hqs:
        return 0
    total = 0
    for _e, (p, t, k, h) in world.query(Position, Team, Kind, Health):
        if k.name == "hero" and t.side == side and h.hp > 0:
            total += min(abs(p.x - x) + abs(p.y - y) for x, y in hqs)
    return total


class TurnSearch(NodeCounter):
    """Minimax over whole turns from the engine's position (the side to play starts a turn)."""

    check_every = 16

    def __init__(self, engine: Engine, rng: random.Random, *, nodes: int | None = None,
                 seconds: float | None = None, width: int = 4, replies: int = 3,
                 evaluator: Evaluator | None = None, hw: HeuristicWeights | None = None,
                 policies: list[HeuristicAI] | None = None, pushes: int = PUSH_LINES,
                 goals: Goals | None = None) -> None:
        """`policies`: the heuristic and the pressing heuristic (as `press_policies` makes
        them) to build turns with, when a caller keeps them, and what they remember, from one
        search to the next; else new ones from `hw`. `pushes`: how many turns opening with a
        push that changes something (systems/ai/pushes.py) each position offers. `goals`: the
        word goals (systems/ai/goals.py) whose best gives a turn walking toward it; new ones
        with the default discount unless given."""
        self.engine = engine
        self.seed = rng.getrandbits(32)
        self.node_limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.width = width
        self.replies = replies
        self.pushes = pushes
        self.evaluate = evaluator or evaluator_for(engine)
        self.tie = self.evaluate.tie  # values this close count as equal: progress decides
        self.policies = policies or press_policies(hw)
        self.goals = goals or Goals(self.evaluate)
        self.stats = TurnStats()
        self.hasher = StateHash(engine.world)
        self.tt: dict[int, tuple[int, float, tuple[Command, ...] | None]] = {}
        self.root_depth = len(engine.history)

    # -- budget ------------------------------------------------------------------------------

    def apply(self, command: Command) -> list:
        self._count()
        return self.engine.apply(command)

    def _unwind(self, to: int) -> None:
        self.engine.retract_to(to)

    # -- candidate turns ---------------------------------------------------------------------

    def _finish(self, policy: HeuristicAI, side: str, rng: random.Random,
                done: list[Command]) -> None:
        """Play `policy` greedily until the side's turn ends (appending to `done`)."""
        engine = self.engine
        while not engine.over and engine.side == side and len(done) < MAX_TURN:
            command = policy.choose(engine, rng, NO_BUDGET)
            self.apply(command)
            done.append(command)
        if not engine.over and engine.side == side:
            self.apply(EndTurn())
            done.append(EndTurn())

    def builders(self, count: int, first: tuple[Command, ...] | None) -> list[Builder]:
        """The recipes of the candidate turns here, most promising first.

        A push that wins the game comes first; then `first` (a turn remembered from an
        earlier search), the heuristic's greedy turn, the pressing turn, a turn walking a hero
        toward the side's best word goal (systems/ai/goals.py), turns opening with the best
        other pushes that change something (up to `pushes` pushes in all,
        systems/ai/pushes.py), turns opening with the heuristic's next-best actions (up to
        `count` openings in all), and ending the turn at once.
        """
        base = self.policies[0]
        # the best `count` actions but ending the turn, best first (ties in the engine's
        # order: nlargest is sorted(..., reverse=True)[:n], which keeps ties in order)
        openings = [command for _score, command in nlargest(count + 1, base.scores(self.engine),
                                                             key=_first)
                    if not isinstance(command, EndTurn)][:count]
        lines = push_lines(self.engine, self.evaluate, self.pushes, self.apply)
        decisive = self.evaluate.win - 10_000
        found: list[Builder] = [Builder(None, 0, None, line) for v, line in lines
                                if v >= decisive]  # a push that wins: look at it first
        if first is not None:
            found.append(Builder(first, 0, None))
        found.append(Builder(None, 0, None))
        found.append(Builder(None, 1, None))
        _worth, goal = self.goals.best(self.engine, self.engine.side)
        if goal is not None:
            found.append(Builder(None, 0, None, toward=goal.spot))
        found += [Builder(None, 0, None, line) for v, line in lines if v < decisive]
        found += [Builder(None, 0, c) for c in openings[1:]]
        found.append(Builder((EndTurn(),), 0, None))
        return found

    def play(self, builder: Builder) -> tuple[Command, ...] | None:
        """Apply the turn `builder` makes (None, with nothing applied, when it is not legal)."""
        engine = self.engine
        side = engine.side
        start = len(engine.history)
        rng = random.Random(self.seed ^ start)
        done: list[Command] = []
        try:
            if builder.fixed is not None:
                for command in builder.fixed:
                    if engine.over or engine.side != side or \
                            engine.why_illegal(command) is not None:
                        self._unwind(start)
                        return None
                    self.apply(command)
                    done.append(command)
                if not engine.over and engine.side == side:
                    self._unwind(start)
                    return None
            else:
                for command in builder.prefix:
                    self.apply(command)
                    done.append(command)
                if builder.toward is not None:
                    walk = self._toward(builder.toward)
                    if walk is None:
                        self._unwind(start)
                        return None
                    self.apply(walk)
                    done.append(walk)
                if builder.opening is not None:
                    self.apply(builder.opening)
                    done.append(builder.opening)
                self._finish(self.policies[builder.policy], side, rng, done)
        except BaseException:
            self._unwind(start)
            raise
        self.stats.turns += 1
        return tuple(done)

    def _toward(self, spot: tuple[int, int]) -> Move | None:
        """The legal walk that brings a hero nearest `spot` (by steps round what blocks), when
        one brings a hero nearer than any stands now; the first such walk on a tie."""
        engine = self.engine
        world = engine.world
        occ = occupancy(world)
        steps = distance_field(occ, [spot])
        far = len(steps) + 1
        best: Move | None = None
        best_steps = far
        stands: dict[int, int] = {}
        for command in engine.legal_actions():
            if type(command) is not Move or (command.x, command.y) in occ.solid:
                continue
            unit = command.unit
            if unit not in stands:
                pos = world.get(unit, Position)
                stands[unit] = steps.get((pos.x, pos.y), far)
            after = steps.get((command.x, command.y), far)
            if after < stands[unit] and after < best_steps:
                best, best_steps = command, after
        return best

    def turns(self, count: int, first: tuple[Command, ...] | None
              ) -> Generator[tuple[Command, ...], None, None]:
        """Candidate turns, each left applied while the caller looks at it (then retracted).
        Two candidates that reach the same position are one."""
        engine = self.engine
        start = len(engine.history)
        seen: set[int] = set()
        for builder in self.builders(count, first):
            try:
                turn = self.play(builder)
                if turn is None:
                    continue
                key = self.hasher.full()
                if key in seen:
                    continue
                seen.add(key)
                yield turn
            finally:
                self._unwind(start)

    # -- search ------------------------------------------------------------------------------

    def value(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Negamax value, for the side to play, of looking `depth` turns ahead."""
        engine = self.engine
        if depth <= 0 or engine.over:
            return self.evaluate(engine, engine.side, ply)
        key = self.hasher.full()
        entry = self.tt.get(key)
        first = None
        if entry is not None:
            e_depth, e_value, first = entry
            if e_depth == depth:
                self.stats.tt_hits += 1
                return e_value
        side = engine.side
        alpha0 = alpha
        best, best_turn = -float("inf"), None
        count = self.width if ply == 0 else self.replies
        with closing(self.turns(count, first)) as turns:
            for turn in turns:
                v = self._child(side, depth, alpha, beta, ply + 1)
                if v > best:
                    best, best_turn = v, turn
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        if best_turn is None:
            return self.evaluate(engine, side, ply)
        # Only an exact value may answer a later visit; a bound still orders the turns.
        exact = alpha0 < best < beta
        self.tt[key] = (depth if exact else -1, best, best_turn)
        return best

    def _child(self, side: str, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value, for `side`, of the position a turn of `side`'s led to. A turn that ends
        the game is scored for `side` at once: the side to play does not change when a game
        ends inside a turn, so negating the next side's value would read a win as a loss."""
        engine = self.engine
        if engine.over:
            return self.evaluate(engine, side, ply)
        if engine.side == side:
            return self.value(depth - 1, alpha, beta, ply)
        return -self.value(depth - 1, -beta, -alpha, ply)

    def progress(self, turn: tuple[Command, ...]) -> Progress:
        """Damage the turn deals to the other side and steps its heroes close on the enemy HQ."""
        engine = self.engine
        world = engine.world
        side = engine.side
        start = len(engine.history)
        before = _hero_distance(engine, side)
        damage = 0
        try:
            for command in turn:
                for event in engine.apply(command):
                    if isinstance(event, Damaged):
                        team = world.try_get(event.entity, Team)
                        if team is not None and team.side != side:
                            damage += event.amount
            after = _hero_distance(engine, side)
        finally:
            self._unwind(start)
        return Progress(damage, before - after)

    def root(self, depth: int, first: tuple[Command, ...] | None
             ) -> tuple[tuple[Command, ...] | None, float, bool]:
        """Every candidate turn searched `depth` turns deep: (best, value, finished)."""
        engine = self.engine
        side = engine.side
        found: list[tuple[float, tuple[Command, ...]]] = []
        alpha = -float("inf")
        try:
            with closing(self.turns(self.width, first)) as turns:
                for turn in turns:
                    v = self._child(side, depth, alpha - self.tie, float("inf"), 1)
                    found.append((v, turn))
                    alpha = max(alpha, v)
        except OutOfBudget:
            self._unwind(self.root_depth)
            best = self._pick(found)
            return best, (max(v for v, _ in found) if found else -float("inf")), False
        return self._pick(found), max(v for v, _ in found), True

    def _pick(self, found: list[tuple[float, tuple[Command, ...]]]
              ) -> tuple[Command, ...] | None:
        if not found:
            return None
        top = max(v for v, _ in found)
        near = [turn for v, turn in found if v >= top - self.tie]
        if len(near) == 1:
            return near[0]
        return max(near, key=lambda t: self.progress(t).key())

    def run(self, max_depth: int | None = None) -> tuple[Command, ...]:
        """Iterative deepening over turns until the budget runs out: the best turn found."""
        best: tuple[Command, ...] | None = None
        depth = 0
        while max_depth is None or depth < max_depth:
            depth += 1
            try:
                turn, value, finished = self.root(depth, best)
            except OutOfBudget:  # raised while breaking a tie: keep what we had
                self._unwind(self.root_depth)
                break
            if turn is not None and (finished or best is None):
                best = turn
            if not finished:
                break
            self.stats.depth, self.stats.value = depth, value
            if abs(value) >= self.evaluate.win - 1000 or depth >= 8:
                break
        if best is None:  # not even one turn fitted the budget: the heuristic's next action
            self._unwind(self.root_depth)
            return (self.policies[0].choose(self.engine, random.Random(self.seed), Budget()),)
        return best
