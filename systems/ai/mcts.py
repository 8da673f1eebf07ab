"""The MCTS AI: UCT over whole turns, the heuristic's evaluation at the leaves.

Written for this game's shape. A skirmish turn is many actions and each has dozens of choices,
so a tree over single actions spends its simulations inside one turn. Here an edge is a whole
turn (action grouping): the candidate turns of systems/ai/turns.py, the heuristic's greedy
turn first. Progressive widening opens a node's k-th candidate only once the node has been
visited about (k / widen)^2 times, so the first simulations go deep along good turns and the
rest widen where the visits are. A leaf is scored by the ruleset's evaluator, plus the word
goals' potential (systems/ai/goals.py: a push that would change the rules, discounted by the
turns to reach it), squashed into (-1, 1) by its `scale` (a won game is 1). The chosen turn is then played action by action without searching
again (the tree is reused between the actions of one turn), and when the opponent's reply is
one the tree holds, the next search starts from that subtree.

The same seed gives the same game under a `sims` budget: every tie and every heuristic choice
comes from a generator seeded from the seat's rng.
"""

from __future__ import annotations

import gc
import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.commands import Command
from systems.ai import Budget, options_float
from systems.ai.base import OutOfBudget, evaluator_for
from systems.ai.goals import DISCOUNT, Goals
from systems.ai.plan import TurnPlan, turn_length
from systems.ai.turns import Builder, TurnSearch, press_policies

if TYPE_CHECKING:
    from game.engine import Engine, Played
    from systems.ai.heuristic import HeuristicAI

DEFAULT_THINK = 1.0  # seconds per action when neither the seat nor the match gives a budget


@dataclass
class MctsStats:
    nodes: int = 0  # actions applied
    sims: int = 0  # simulations (one leaf evaluated each)
    tree: int = 0  # nodes in the tree
    depth: int = 0  # turns along the most visited line
    value: float = 0.0  # mean result of the chosen turn, in (-1, 1)


@dataclass(eq=False)
class Node:
    """A position at the start of a turn, reached by `turn` (played by `mover`)."""

    turn: tuple[Command, ...]
    mover: str | None
    visits: int = 0
    total: float = 0.0  # summed results from `mover`'s point of view
    children: list[Node] = field(default_factory=list)
    builders: list[Builder] | None = None  # the candidate turns from here, made on first visit
    tried: int = 0  # builders already played
    seen: set[int] = field(default_factory=set)  # position keys of the children
    over: bool = False  # the game ended here
    played: Played | None = None  # `turn` as applied, to apply again by writing what it wrote
    key: int | None = None  # the position's state hash

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class MctsAI:
    name = "mcts"
    NEEDS = ("evaluator",)  # the ruleset's evaluation scores the leaves
    PLANS_TURNS = True  # spends a turn's time on its first action (base.time_limit)
    OPTIONS = ("think", "sims", "c", "widen", "turns", "goals")

    def __init__(self, think: str | float | None = None, sims: str | int | None = None,
                 c: str | float = 1.0, widen: str | float = 1.0, turns: str | int = 5,
                 goals: str | float = DISCOUNT) -> None:
        """`goals`: the share of a word goal's gain a leaf keeps per turn a hero needs to
        push it (systems/ai/goals.py); 0 leaves word goals out of the leaves and the
        candidate turns."""
        self.think = None if think is None else options_float(think, "think")
        self.sims = None if sims is None else int(options_float(sims, "sims"))
        self.c = options_float(c, "c")
        self.widen = options_float(widen, "widen")
        self.turns = int(options_float(turns, "turns"))
        self.goals = options_float(goals, "goals")
        for name, value in (("think", self.think), ("sims", self.sims), ("widen", self.widen),
                            ("turns", self.turns)):
            if value is not None and value <= 0:
                raise ValueError(f"option {name} must be positive")
        if self.c < 0:
            raise ValueError("option c must be 0 or more")
        self.last: MctsStats | None = None
        self.turn_plan = TurnPlan()  # the rest of the chosen turn
        self._tree: Node | None = None  # the chosen turn's node, to reuse after the reply
        self._tree_at: tuple[int, int] | None = None  # (engine id, history length) after it
        # The policies that build candidate turns, kept from one search to the next: what
        # they remember (distance fields, cell values against an enemy line-up) still holds.
        self._policies = press_policies()

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        planned = self.turn_plan.next(engine)
        if planned is not None:
            self.last = MctsStats()
            return planned
        # A search makes many short-lived objects and no cycles: the cyclic collector's
        # passes over the tree and the journal while it runs are waste (refcounts free
        # what it drops), so the collector waits until the tree is let go.
        collecting = gc.isenabled()
        gc.disable()
        try:
            search = Mcts(engine, rng, self.c, self.widen, self.turns, self._policies,
                          self.goals)
            root = self._reused(engine)
            sims, seconds = self._budget(budget, search)
            turn = search.run(root, sims=sims, seconds=seconds)
            self.last = search.stats
            chosen = next((ch for ch in search.root.children if ch.turn == turn), None)
            del search, root
        finally:
            if collecting:
                gc.enable()
        command = self.turn_plan.start(engine, turn)
        self._tree = chosen
        self._tree_at = (id(engine), len(engine.history) + len(turn)) if chosen else None
        return command

    def _budget(self, budget: Budget, search: Mcts) -> tuple[int | None, float | None]:
        """Simulations per turn, or seconds per turn (per-action seconds times its length)."""
        if self.sims is not None:
            return self.sims, None
        seconds = self.think if self.think is not None else budget.seconds
        if seconds is None and budget.nodes is not None:
            return budget.nodes, None
        if seconds is None:
            seconds = DEFAULT_THINK
        return None, seconds * search.turn_length()

    def _reused(self, engine: Engine) -> Node | None:
        """The subtree for the opponent's actual reply, when the tree saw it coming."""
        tree, at = self._tree, self._tree_at
        self._tree = self._tree_at = None
        if tree is None or at is None or at[0] != id(engine) or len(engine.history) < at[1]:
            return None
        reply = tuple(engine.commands()[at[1]:])
        return next((ch for ch in tree.children if ch.turn == reply), None)


class Mcts:
    """One search: simulations from the engine's position, played on the engine and
    retracted (the engine is back where it was when `run` returns)."""

    def __init__(self, engine: Engine, rng: random.Random, c: float, widen: float,
                 turns: int, policies: list[HeuristicAI] | None = None,
                 goals: float = DISCOUNT) -> None:
        self.engine = engine
        self.c = c
        self.widen = widen
        self.evaluate = evaluator_for(engine)
        self.goals = Goals(self.evaluate, goals)
        self.turns = TurnSearch(engine, rng, width=turns, evaluator=self.evaluate,
                                policies=policies, goals=self.goals)
        self.stats = MctsStats()
        self.root = Node((), None)
        self._at: list[Node] = []  # the nodes whose turns are applied now, from the root down

    def turn_length(self) -> int:
        return turn_length(self.engine, self.turns.policies[0])

    def run(self, root: Node | None, sims: int | None, seconds: float | None
            ) -> tuple[Command, ...]:
        if root is not None:
            root.mover = None
            self.root = root
        self.root.over = self.engine.over
        self.root.key = self.turns.hasher.full()
        self._at = []
        deadline = None if seconds is None else time.perf_counter() + seconds
        self.turns.node_limit = None
        self.turns.deadline = deadline
        done = 0
        start = len(self.engine.history)
        try:
            while sims is None or done < sims:
                try:
                    self.simulate()
                except OutOfBudget:
                    break
                done += 1
                if deadline is not None and time.perf_counter() > deadline:
                    break
        finally:
            self._unwind(start)  # simulate leaves the engine where its simulation ended
            self._at = []
        self.stats.sims = done
        self.stats.nodes = self.turns.stats.nodes
        best = self._won(self.root) or self._best(self.root)
        if best is None:  # not one simulation fitted: the heuristic's greedy turn
            turn = self.turns.play(Builder(None, 0, None)) if deadline is None else None
            self._unwind(start)
            if turn is None:
                return (self.turns.policies[0].choose(self.engine, random.Random(0), Budget()),)
            return turn
        self.stats.value = best.mean()
        depth = 0
        line: Node | None = best
        while line is not None:
            depth += 1
            line = self._best(line)
        self.stats.depth = depth
        return best.turn

    def _won(self, node: Node) -> Node | None:
        """A child whose turn won the game for its mover, if the search opened one."""
        return next((ch for ch in node.children
                     if ch.over and ch.visits and ch.mean() >= 1.0), None)

    def _best(self, node: Node) -> Node | None:
        best = None
        for child in node.children:  # most visits; ties to the better mean, then to the earlier
            if best is None or (child.visits, child.mean()) > (best.visits, best.mean()):
                best = child
        return best

    def _unwind(self, to: int) -> None:
        self.engine.retract_to(to)

    def simulate(self) -> None:
        """Select down the tree, open one new turn, score the leaf, and back the score up.

        Selection reads only the tree's statistics, so the engine follows it lazily: it is
        moved to a node (retracting the turns off the new path, applying those on it) only
        where a node's candidate turns must be built or a new turn played, and it stays at
        the leaf afterwards. When consecutive simulations share the top of their paths
        (on the bench position a few percent of the turns), those turns are not retracted
        and played again.
        """
        path = [self.root]
        node = self.root
        while not node.over:
            if node.builders is None:
                self._goto(path)
                node.builders = self.turns.builders(self.turns.width, None)
            allowed = 1 + int(self.widen * math.sqrt(node.visits))
            if len(node.children) < allowed and node.tried < len(node.builders):
                self._goto(path)
                child = self._expand(node)
                if child is not None:
                    path.append(child)
                    self._at.append(child)
                    child.over = self.engine.over
                    break
                continue
            if not node.children:
                break
            node = self._select(node)
            path.append(node)
        self._goto(path)
        results = self._score()
        for n in path:
            n.visits += 1
            if n.mover is not None:
                n.total += results(n.mover)
        self.stats.tree += 1

    def _goto(self, path: list[Node]) -> None:
        """Put the engine at the end of `path` (a line from the root): retract the turns
        played since the two lines parted, then play the rest of `path`'s."""
        at = self._at
        shared = 0
        while shared < len(at) and shared + 1 < len(path) and at[shared] is path[shared + 1]:
            shared += 1
        engine = self.engine
        if len(at) > shared:
            depth = len(engine.history)
            while len(at) > shared:
                depth -= len(at.pop().turn)
            engine.retract_to(depth)
        for node in path[shared + 1:]:
            # A turn is played the same way every time it is reached (the same line from
            # the same root), so what it wrote the first time is written again, unless the
            # tree came from an earlier search whose line the game did not take.
            if node.played is not None and engine.reapply(node.played):
                self.turns.count(len(node.turn))
            else:
                start = len(engine.history)
                for command in node.turn:
                    self.turns.apply(command)
                node.played = engine.recording(start)
            at.append(node)

    def _expand(self, node: Node) -> Node | None:
        """Play the node's next untried candidate turn; its child (left applied), or None."""
        assert node.builders is not None
        engine = self.engine
        side = engine.side
        start = len(engine.history)
        builder = node.builders[node.tried]
        node.tried += 1
        turn = self.turns.play(builder)
        if turn is None:
            return None
        # the hash from the node's own, paying for this turn's writes only
        assert node.key is not None
        key = self.turns.hasher.after(node.key, engine.history[start].mark)
        if key in node.seen:
            self._unwind(start)
            return None
        node.seen.add(key)
        child = Node(turn, side, played=engine.recording(start), key=key)
        node.children.append(child)
        return child

    def _select(self, node: Node) -> Node:
        log_n = math.log(max(1, node.visits))
        best, best_score = node.children[0], -float("inf")
        for child in node.children:
            if child.visits == 0:
                return child
            score = child.mean() + self.c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best

    def _score(self) -> Any:
        """The leaf's result for each side: tanh of the evaluation with the word goals'
        potential (a won game is 1)."""
        engine = self.engine
        side = engine.side
        evaluate = self.evaluate
        value = evaluate(engine, side)
        if abs(value) >= evaluate.win - 10_000:
            r = 1.0 if value > 0 else -1.0
        else:
            value += self.goals.potential(engine, side)
            r = math.tanh(value / evaluate.scale)

        def results(mover: str) -> float:
            return r if mover == side else -r

        return results
