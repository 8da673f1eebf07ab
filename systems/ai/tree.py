"""The solvers' search tree: nodes as parallel arrays over one engine, and what a search found.

The tree is kept as parallel arrays (parent, action, depth); going from one node to the next
retracts to their common ancestor and goes down to the target, so no world is ever copied.
Going down writes again what each move wrote when its node was made (`Engine.reapply`), which
skips working the move's rules out a second time.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine, Played


@dataclass
class Solution:
    """What a search found: the moves (as a command list), and what it cost to find them."""

    solved: bool
    commands: list[Command] = field(default_factory=list)
    states: int = 0
    generated: int = 0
    seconds: float = 0.0
    exhausted: bool = False  # True when every reachable state was seen: no solution exists
    cost: int = 0
    method: str = ""  # the search that found it: bfs and cost are optimal, the rest are not

    @property
    def length(self) -> int:
        return len(self.commands)


class Tree:
    """Search nodes as parallel arrays, and the engine's position in that tree."""

    def __init__(self, engine: Engine, actions: Sequence[Command], replay: bool = True) -> None:
        self.engine = engine
        # Breadth-first search goes from a node to the next few: recording every node it
        # makes costs more than the moves it would save.
        self.replay = replay
        self.actions = actions
        self.parent = [-1]
        self.action = [-1]
        self.depth = [0]
        self.played: list[Played | None] = [None]
        self.at = 0
        self.base = len(engine.history)

    def record(self) -> Played | None:
        """What the move just applied wrote, for `add` (before the move is retracted); None
        when the tree does not replay."""
        if not self.replay:
            return None
        return self.engine.recording(len(self.engine.history) - 1)

    def add(self, parent: int, action: int, played: Played | None = None) -> int:
        """A new node: `action` from `parent`, with what it wrote (`record`) if known."""
        self.parent.append(parent)
        self.action.append(action)
        self.depth.append(self.depth[parent] + 1)
        self.played.append(played)
        return len(self.parent) - 1

    def goto(self, target: int) -> None:
        """Retract up to the common ancestor of the current node and `target`, then go down:
        each move written again as recorded, or applied (and recorded) where it cannot be."""
        engine = self.engine
        parent, depth, action, actions = self.parent, self.depth, self.action, self.actions
        played = self.played
        here = self.at
        down: list[int] = []
        while depth[here] > depth[target]:
            engine.retract()
            here = parent[here]
        node = target
        while depth[node] > depth[here]:
            down.append(node)
            node = parent[node]
        while here != node:
            engine.retract()
            here = parent[here]
            down.append(node)
            node = parent[node]
        for step in reversed(down):
            known = played[step]
            if known is None or not engine.reapply(known):
                engine.apply(actions[action[step]])
                if self.replay:
                    played[step] = engine.recording(len(engine.history) - 1)
        self.at = target

    def path(self, node: int) -> list[Command]:
        moves = []
        while node > 0:
            moves.append(self.actions[self.action[node]])
            node = self.parent[node]
        return moves[::-1]

    def home(self) -> None:
        """Back to where the search started."""
        while len(self.engine.history) > self.base:
            self.engine.retract()
        self.at = 0


class Frontier:
    """The nodes a search has still to expand, from the root (node 0): first in, first out
    (breadth-first), or a heap on f (best-first), ties going to the newest node: it lies next
    to the engine in the tree, so reaching it costs few applies (and it digs deeper)."""

    def __init__(self, best_first: bool) -> None:
        self.best_first = best_first
        self.items: list[Any] = [(0.0, 0, 0)] if best_first else [0]
        self.head = 0

    def push(self, node: int, f: float = 0.0) -> None:
        if self.best_first:
            heapq.heappush(self.items, (f, -node, node))
        else:
            self.items.append(node)

    def pop(self, g: list[int], seen: dict[Any, int], keys: list[Any]) -> int:
        """The next node to expand, or -1 when none is left. Best-first passes over a node
        whose state was since reached more cheaply (g[node] above seen[keys[node]])."""
        if not self.best_first:
            if self.head >= len(self.items):
                return -1
            self.head += 1
            return int(self.items[self.head - 1])
        while self.items:
            _f, _newest, node = heapq.heappop(self.items)
            if g[node] <= seen[keys[node]]:
                return int(node)
        return -1
