"""Engines shared by many OpenSpiel states: a state is the list of actions from a base.

OpenSpiel clones states all the time (MCTS clones the root once per simulation, a rollout
clones the leaf). Copying a World would cost a copy of every entity; instead the states of one
game share a few `Cursor`s (an Engine and the action path it stands on), and a state is only
its own path from the common base. Before a state reads or acts, `Pool.goto` walks the
cheapest Engine there: it retracts (the World's journal rolls back) to the longest common
prefix and applies the rest. A clone copies a list of ints; moving between two branches costs
the undo of one and the replay of the other, as search on apply/undo always has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


class Cursor:
    """An Engine, the number of history entries that are its base, and the path beyond it.

    `path` holds the action ids of the history entries after the base; `owner` is the state
    the Engine last moved to, kept in step by that state's own actions, so a state that acts
    twice in a row pays nothing to find its place again.
    """

    __slots__ = ("base", "engine", "owner", "path")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.base = len(engine.history)
        self.path: list[int] = []
        self.owner: object | None = None

    def walk(self, path: list[int], commands: list[Command], common: int) -> Engine:
        """Retract to the first `common` actions of the path, then apply the rest of `path`."""
        mine, engine = self.path, self.engine
        while len(mine) > common:
            engine.retract()
            mine.pop()
        for index in range(common, len(path)):
            engine.apply(commands[index])
            mine.append(path[index])
        return engine

    def reset(self) -> None:
        """Walk the Engine back to its base (what a seat does before handing the Engine back)."""
        while self.path:
            self.engine.retract()
            self.path.pop()
        self.owner = None


def common_prefix(a: list[int], b: list[int]) -> int:
    """The length of the longest common prefix (list slices compare at C speed)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class Pool:
    """Up to `size` Engines on the same start; `fresh` builds another at the base (None: the
    pool keeps the one Engine it was given, as a seat must)."""

    def __init__(self, engine: Engine, fresh: Callable[[], Engine] | None, size: int = 3) -> None:
        self.cursors = [Cursor(engine)]
        self.fresh = fresh
        self.size = size if fresh is not None else 1

    def goto(self, path: list[int], commands: list[Command], owner: object,
             hint: Cursor | None) -> Cursor:
        """The Cursor whose Engine now stands on `path`, chosen to walk the fewest steps."""
        if hint is not None and hint.owner is owner:
            return hint
        best, best_cost, best_common = self.cursors[0], -1, 0
        for cursor in self.cursors:
            common = common_prefix(cursor.path, path)
            cost = len(cursor.path) + len(path) - 2 * common
            if best_cost < 0 or cost < best_cost:
                best, best_cost, best_common = cursor, cost, common
        if best_cost > len(path) + 16 and len(self.cursors) < self.size and self.fresh:
            best, best_common = Cursor(self.fresh()), 0
            self.cursors.append(best)
        best.walk(path, commands, best_common)
        best.owner = owner
        return best

    def reset(self) -> None:
        for cursor in self.cursors:
            cursor.reset()
