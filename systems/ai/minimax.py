"""The minimax AI: alpha-beta on the engine's apply/retract, iterative deepening, a time or node
budget, move ordering (transposition-table move, kills, captures, killer moves, history) and a
transposition table keyed by the journal-driven state hash.

A ply is one action. A turn of several actions is several plies by the same side, so the value
only changes sign where the side to play changes. Nothing copies the world: every child is
apply -> look -> retract. "Nodes" counts apply calls, the honest unit of work. Leaves are
scored by the ruleset's evaluator (its spec's `evaluator` edge, systems.ai.base.Evaluator).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from components import Attack as AttackStats
from components import Health, Kind
from game.commands import Attack, Command, EndTurn
from systems.ai import Budget, options_float
from systems.ai.base import Evaluator, NodeCounter, OutOfBudget, evaluator_for
from systems.ai.evaluate import StateHash
from systems.ai.plan import TurnPlan, turn_length

if TYPE_CHECKING:
    from game.engine import Engine

EXACT, LOWER, UPPER = 0, 1, 2
TT_LIMIT = 1_000_000  # entries; the table is cleared when it grows past this
DEFAULT_THINK = 1.0  # seconds per action when no budget is given


@dataclass
class SearchStats:
    nodes: int = 0
    depth: int = 0  # the deepest fully searched iteration
    value: float = 0.0
    tt_hits: int = 0


class Search(NodeCounter):
    """One alpha-beta search from the engine's current position."""

    def __init__(self, engine: Engine, evaluator: Evaluator | None = None, *,
                 nodes: int | None = None, seconds: float | None = None, tt: bool = True,
                 ordering: bool = True, width: int = 0) -> None:
        self.engine = engine
        self.evaluator = evaluator or evaluator_for(engine)
        self.win = self.evaluator.win
        self.node_limit = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.use_tt = tt
        self.ordering = ordering
        self.width = width
        self.stats = SearchStats()
        self.tt: dict[int, tuple[int, float, int, Command | None]] = {}
        self.killers: dict[int, list[Command]] = {}
        self.history: dict[Command, int] = {}
        self.hasher = StateHash(engine.world) if tt else None
        self.root_depth = len(engine.history)

    # -- ordering ----------------------------------------------------------------------------

    def order(self, actions: list[Command], ply: int, tt_move: Command | None) -> list[Command]:
        """Best-first: the table's move, kills, other attacks, killer moves, then by history."""
        if not self.ordering:
            return actions
        world = self.engine.world
        killers = self.killers.get(ply, ())
        history = self.history

        def key(command: Command) -> tuple[int, float]:
            if tt_move is not None and command == tt_move:
                return (0, 0.0)
            if type(command) is Attack:
                hp = world.get(command.target, Health).hp
                damage = world.get(command.unit, AttackStats).damage
                kind = world.get(command.target, Kind).name
                bonus = 10 if kind in ("hero", "hq") else 0
                return (1, -bonus - 100 + hp) if hp <= damage else (2, hp - bonus)
            if killers and command in killers:
                return (3, 0.0)
            return (4, -history.get(command, 0)) if history else (4, 0)

        ordered = sorted(actions, key=key)
        if self.width and len(ordered) > self.width:
            ordered = self._widen(ordered[: self.width], actions)
        return ordered

    def _widen(self, chosen: list[Command], actions: list[Command]) -> list[Command]:
        """Keep attacks and ending the turn even when the width cuts the list."""
        seen = set(chosen)
        extra = [c for c in actions if (isinstance(c, Attack | EndTurn)) and c not in seen]
        return chosen + extra

    def remember(self, command: Command, ply: int, depth: int) -> None:
        """A move that caused a cutoff: a killer at this ply, and history credit."""
        if isinstance(command, Attack):
            return
        slot = self.killers.setdefault(ply, [])
        if command not in slot:
            slot.insert(0, command)
            del slot[2:]
        self.history[command] = self.history.get(command, 0) + depth * depth

    # -- search ------------------------------------------------------------------------------

    def value(self, depth: int, alpha: float, beta: float, ply: int, key: int) -> float:
        """Negamax value of the position for the side to play, searched `depth` plies deep."""
        engine = self.engine
        side = engine.side
        if depth <= 0 or engine.over:
            return self.evaluator(engine, side, ply)
        if alpha >= self.win - ply - 1:
            return alpha  # nothing here can beat a win already found nearer the root
        tt_move = None
        if self.use_tt:
            entry = self.tt.get(key)
            if entry is not None:
                e_depth, e_value, e_flag, tt_move = entry
                # Only an entry searched exactly as deep may cut: a deeper one would make the
                # result depend on move order, and the tests hold the value to plain minimax.
                if e_depth == depth:
                    e_value = self._from_table(e_value, ply)
                    self.stats.tt_hits += 1
                    if e_flag == EXACT:
                        return e_value
                    if e_flag == LOWER and e_value >= beta:
                        return e_value
                    if e_flag == UPPER and e_value <= alpha:
                        return e_value
        actions = self.order(engine.legal_actions(), ply, tt_move)
        alpha0 = alpha
        best = -float("inf")
        best_move = None
        world = engine.world
        hasher = self.hasher
        for command in actions:
            self._count()
            mark = world.mark()
            engine.apply(command)
            try:
                # Leaves are evaluated, never looked up: only inner children need a key.
                child_key = hasher.after(key, mark) if hasher is not None and depth > 1 else 0
                if engine.side == side:
                    v = self.value(depth - 1, alpha, beta, ply + 1, child_key)
                else:
                    v = -self.value(depth - 1, -beta, -alpha, ply + 1, child_key)
            finally:
                engine.retract()
            if v > best:
                best, best_move = v, command
            if v > alpha:
                alpha = v
            if alpha >= beta:
                self.remember(command, ply, depth)
                break
        if self.use_tt:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if len(self.tt) > TT_LIMIT:
                self.tt.clear()
            self.tt[key] = (depth, self._to_table(best, ply), flag, best_move)
        return best

    def _to_table(self, value: float, ply: int) -> float:
        """Store won/lost values as plies from this node, not from the root."""
        near = self.win - 10_000
        return value + ply if value > near else value - ply if value < -near else value

    def _from_table(self, value: float, ply: int) -> float:
        near = self.win - 10_000
        return value - ply if value > near else value + ply if value < -near else value

    def root(self, depth: int, actions: list[Command]) -> tuple[Command, float, bool]:
        """Search every root action `depth` plies deep; (best, value, finished)."""
        engine = self.engine
        side = engine.side
        world = engine.world
        key = self.hasher.value if self.hasher is not None else 0
        alpha, beta = -float("inf"), float("inf")
        best, best_value = actions[0], -float("inf")
        for command in actions:
            try:
                self._count()
                mark = world.mark()
                engine.apply(command)
                try:
                    child_key = (self.hasher.after(key, mark)
                                 if self.hasher is not None and depth > 1 else 0)
                    if engine.side == side:
                        v = self.value(depth - 1, alpha, beta, 1, child_key)
                    else:
                        v = -self.value(depth - 1, -beta, -alpha, 1, child_key)
                finally:
                    engine.retract()
            except OutOfBudget:
                self._unwind()
                return best, best_value, False
            if v > best_value:
                best, best_value = command, v
            alpha = max(alpha, v)
        return best, best_value, True

    def _unwind(self) -> None:
        while len(self.engine.history) > self.root_depth:
            self.engine.retract()

    def run(self, max_depth: int | None = None) -> Command:
        """Iterative deepening until the budget or `max_depth` runs out; the best action."""
        actions = self.engine.legal_actions()
        if len(actions) == 1:
            return actions[0]
        ordered = self.order(actions, 0, None)
        best = ordered[0]
        depth = 0
        while max_depth is None or depth < max_depth:
            depth += 1
            move, value, finished = self.root(depth, ordered)
            if not finished:
                # The previous best was searched first, so a move that beat it is better still.
                if value > -float("inf"):
                    best = move
                break
            best = move
            self.stats.value, self.stats.depth = value, depth
            ordered = [best] + [c for c in ordered if c != best]
            if abs(value) >= self.win - 1000:  # a forced result: deeper will not change it
                break
        return best


class MinimaxAI:
    """Minimax over whole turns (`plan=turn`, the default, on rulesets of turns of several
    actions) or over single actions (`plan=action`, and on every other ruleset).

    A whole-turn choice first runs the per-action search with a quarter of the budget and plays
    a forced win it finds; otherwise it searches whole turns (systems/ai/turns.py) and then plays
    the chosen turn action by action without searching again, as long as the game follows it.
    Budgets: `nodes=N` is N actions applied for the whole turn's decision (building candidate
    turns included); `think=S` is S seconds per action, so a turn gets S times the number of
    actions the heuristic's turn takes, and the time per action a match measures stays S.
    """

    name = "minimax"
    NEEDS = ("evaluator",)  # the ruleset's evaluation scores the leaves
    PLANS_TURNS = True  # spends a turn's time on its first action (base.time_limit)
    OPTIONS = ("think", "nodes", "depth", "width", "tt", "ordering", "plan", "turns")

    def __init__(self, think: str | float | None = None, nodes: str | int | None = None,
                 depth: str | int | None = None, width: str | int = 12,
                 tt: str | bool = True, ordering: str | bool = True,
                 plan: str = "turn", turns: str | int = 5) -> None:
        self.think = None if think is None else options_float(think, "think")
        self.nodes = None if nodes is None else int(options_float(nodes, "nodes"))
        self.depth = None if depth is None else int(options_float(depth, "depth"))
        self.width = int(options_float(width, "width"))
        self.turns = int(options_float(turns, "turns"))
        self.tt = _flag(tt, "tt")
        self.ordering = _flag(ordering, "ordering")
        if plan not in ("turn", "action"):
            raise ValueError(f"option plan must be turn or action, not {plan!r}")
        self.plan = plan
        for name, value in (("think", self.think), ("nodes", self.nodes), ("depth", self.depth),
                            ("turns", self.turns)):
            if value is not None and value <= 0:
                raise ValueError(f"option {name} must be positive")
        if self.width < 0:
            raise ValueError("option width must be 0 (no limit) or positive")
        self.last: SearchStats | None = None
        self.turn_plan = TurnPlan()  # the rest of a whole turn chosen by its first action

    def _budget(self, budget: Budget | None) -> tuple[int | None, float | None]:
        budget = budget or Budget()
        nodes = self.nodes if self.nodes is not None else budget.nodes
        seconds = self.think if self.think is not None else budget.seconds
        if nodes is None and seconds is None and self.depth is None:
            seconds = DEFAULT_THINK
        return nodes, seconds

    def search(self, engine: Engine, budget: Budget | None = None) -> Search:
        nodes, seconds = self._budget(budget)
        return Search(engine, nodes=nodes, seconds=seconds, tt=self.tt,
                      ordering=self.ordering, width=self.width)

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        if self.plan == "turn" and self.depth is None and _plays_turns(engine):
            return self._choose_turn(engine, rng, budget)
        search = self.search(engine, budget)
        command = search.run(self.depth)
        self.last = search.stats
        return command

    def _choose_turn(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        from systems.ai.heuristic import HeuristicAI
        from systems.ai.turns import TurnSearch

        planned = self.turn_plan.next(engine)
        if planned is not None:
            self.last = SearchStats()
            return planned
        nodes, seconds = self._budget(budget)
        if seconds is not None:  # seconds per action: the turn gets its length's worth
            seconds *= turn_length(engine, HeuristicAI(pushes=False))
        tactics = Search(engine, nodes=None if nodes is None else max(1, nodes // 4),
                         seconds=None if seconds is None else seconds / 4,
                         tt=self.tt, ordering=self.ordering, width=self.width)
        move = tactics.run(None)
        stats = tactics.stats
        if abs(stats.value) >= tactics.win - 1000 and stats.value > 0:
            self.last = stats
            return move  # a forced win: no plan needed, the next action searches again
        spent = stats.nodes
        turn_search = TurnSearch(
            engine, rng, nodes=None if nodes is None else max(1, nodes - spent),
            seconds=None if seconds is None else seconds * 3 / 4, width=self.turns,
            evaluator=tactics.evaluator)
        turn = turn_search.run()
        self.last = SearchStats(spent + turn_search.stats.nodes, turn_search.stats.depth,
                                turn_search.stats.value, stats.tt_hits + turn_search.stats.tt_hits)
        return self.turn_plan.start(engine, turn)


def _plays_turns(engine: Engine) -> bool:
    """Whether the side to play ends its turn itself (a skirmish turn of several actions)."""
    return any(isinstance(c, EndTurn) for c in engine.legal_actions())


def _flag(value: str | bool, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"option {name} must be on or off, not {value!r}")

