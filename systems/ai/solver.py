"""Puzzle solvers: breadth-first (shortest), uniform-cost and best-first/A*, over hashed states.

Every search works on the one Engine it is given, by apply and retract: no world is copied.
The search tree is kept as parallel arrays (parent, action, depth, cost); going from one node to
the next retracts to their common ancestor and applies the moves down to the target. In
breadth-first order consecutive nodes are close in the tree, so each expansion costs a few
applies. States are told apart by the ruleset's `state_key(world)` (the puzzle's incremental
Zobrist hash), so a repeat is never expanded twice.
"""

from __future__ import annotations

import heapq
import multiprocessing
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from game.errors import UserError
from game.registry import SearchHooks

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


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

    def __init__(self, engine: Engine, actions: Sequence[Command]) -> None:
        self.engine = engine
        self.actions = actions
        self.parent = [-1]
        self.action = [-1]
        self.depth = [0]
        self.at = 0
        self.base = len(engine.history)

    def add(self, parent: int, action: int) -> int:
        self.parent.append(parent)
        self.action.append(action)
        self.depth.append(self.depth[parent] + 1)
        return len(self.parent) - 1

    def goto(self, target: int) -> None:
        """Retract up to the common ancestor of the current node and `target`, then apply down."""
        engine = self.engine
        parent, depth, action, actions = self.parent, self.depth, self.action, self.actions
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
            engine.apply(actions[action[step]])
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


Key = Callable[[Any], Any]
Verdict = Callable[[Any], int]  # 1 won, -1 dead end, 0 going on


def search(engine: Engine, key: Key, verdict: Verdict, actions: Sequence[Command],
           seconds: float | None = 10.0, max_states: int | None = None,
           cost: Callable[[Any], int] | None = None,
           heuristic: Callable[[Any], float] | None = None, weight: float = 1.0) -> Solution:
    """Find a winning command list from the engine's current state.

    Plain breadth-first search when neither `cost` nor `heuristic` is given (shortest in
    moves, goal tested when a state is generated); otherwise `cost(world)` (read just after a
    move) prices each move, and best-first on g + weight * h,
    goal tested when a state is taken from the queue (uniform-cost with no heuristic: cheapest;
    A* with weight 1 and an admissible heuristic). The engine is left exactly as it was found.
    """
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    world = engine.world
    if verdict(world) == 1:
        return Solution(True, [], 1, 0, 0.0)
    tree = Tree(engine, actions)
    root = key(world)
    seen: dict[Any, int] = {root: 0}  # state -> best g so far (BFS: the node id)
    best_first = cost is not None or heuristic is not None
    g = [0]
    keys = [root]
    goal = [False]
    frontier: list[Any] = [(0.0, 0, 0)] if best_first else [0]
    head = 0
    generated = 0
    found = -1
    apply, retract = engine.apply, engine.retract
    try:
        while True:
            if best_first:
                if not frontier:
                    break
                _f, _newest, node = heapq.heappop(frontier)
                if g[node] > seen[keys[node]]:
                    continue  # a cheaper way to this state was queued later
                if goal[node]:
                    found = node
                    break
            else:
                if head >= len(frontier):
                    break
                node = frontier[head]
                head += 1
            if (deadline is not None and time.perf_counter() > deadline) or \
                    (max_states is not None and len(seen) >= max_states):
                return Solution(False, [], len(seen), generated, time.perf_counter() - start)
            tree.goto(node)
            base_g = g[node]
            for index, command in enumerate(actions):
                apply(command)
                generated += 1
                state = key(world)
                if best_first:
                    step_g = base_g + (cost(world) if cost else 1)
                    known = seen.get(state)
                    if known is not None and known <= step_g:
                        retract()
                        continue
                    result = verdict(world)
                    h = heuristic(world) if heuristic is not None and result == 0 else 0
                    retract()
                    seen[state] = step_g
                    child = tree.add(node, index)
                    g.append(step_g)
                    keys.append(state)
                    goal.append(result == 1)
                    if result != -1:
                        # Ties go to the newest node: it lies next to the engine in the
                        # tree, so reaching it costs few applies (and it digs deeper).
                        heapq.heappush(frontier, (step_g + weight * h, -child, child))
                    continue
                if state in seen:
                    retract()
                    continue
                result = verdict(world)
                retract()
                child = tree.add(node, index)
                seen[state] = child
                g.append(base_g + 1)
                if result == 1:
                    found = child
                    break
                if result == 0:
                    frontier.append(child)
            if found >= 0:
                break
    finally:
        tree.home()
    elapsed = time.perf_counter() - start
    if found < 0:
        return Solution(False, [], len(seen), generated, elapsed, exhausted=True)
    return Solution(True, tree.path(found), len(seen), generated, elapsed, cost=g[found])


def solve(engine: Engine, seconds: float | None = 10.0, method: str = "auto",
          max_states: int | None = None, workers: int = 1) -> Solution:
    """Solve the engine's level from its current state with the ruleset's own state key,
    verdict, actions and heuristic.

    method: "bfs" (shortest in moves), "cost" (cheapest by the ruleset's action costs),
    "novelty" (greedy, states showing never-seen facts first),
    "astar" (best-first on g + h), "greedy" (g + 3h), or "auto": breadth-first for 25% of the
    budget, then g + 3h for a third of what is left, novelty-first greedy for 60% of the rest,
    then g + 10h (a proof of unsolvability from BFS ends it early). With `workers` 2 or more
    (and a time budget), auto runs breadth-first and the greedy passes side by side in two
    processes, each for the whole budget: see `portfolio`.
    """
    if method in METHODS:
        return _run(engine, method, seconds, max_states)
    if method != "auto":
        raise UserError(f"unknown solver method '{method}'; use bfs, cost, astar, greedy, "
                        "novelty or auto.")
    if workers > 1 and seconds is not None and "fork" in multiprocessing.get_all_start_methods():
        return portfolio(engine, seconds, max_states)
    first = None if seconds is None else seconds * 0.25
    found = _run(engine, "bfs", first, max_states)
    if found.solved or found.exhausted or seconds is None:
        return found
    return _passes(engine, seconds - found.seconds, max_states, found)


METHODS = ("bfs", "cost", "astar", "greedy", "novelty")  # the named searches; auto mixes them


def hooks_of(engine: Engine) -> SearchHooks:
    """The engine's ruleset as the solver sees it: a UserError when it cannot be searched."""
    rules = engine.ruleset
    if not isinstance(rules, SearchHooks):
        raise UserError(f"a {rules.name} game cannot be solved by search; solve works on "
                        "one-player levels.")
    return rules


def _searches(engine: Engine) -> dict[str, dict[str, Any]]:
    """Each named search's keyword arguments for `search` (keys: METHODS)."""
    rules = hooks_of(engine)
    heuristic = rules.heuristic
    return {
        "bfs": {},
        "cost": {"cost": rules.action_cost},
        "astar": {"heuristic": heuristic},
        "greedy": {"heuristic": heuristic, "weight": 3.0},
        "novelty": {"heuristic": novelty(rules), "weight": 3.0},
    }


def _run(engine: Engine, method: str, seconds: float | None,
         max_states: int | None) -> Solution:
    rules = hooks_of(engine)
    key, verdict, actions = engine.ruleset.state_key, rules.verdict, rules.actions
    found = search(engine, key, verdict, actions, seconds, max_states,
                   **_searches(engine)[method])
    found.method = method
    return found


def _passes(engine: Engine, seconds: float, max_states: int | None,
            found: Solution | None = None) -> Solution:
    """Greedy passes of different kinds, each with a share of `seconds`: a heuristic that
    misleads one pass often suits another, and each is cheap next to a breadth-first search
    that has run out of depth. Novelty (atoms never seen) needs the ruleset's atoms. The
    counts of `found` (an earlier search) are added to the result."""
    rules = hooks_of(engine)
    key, verdict, actions = engine.ruleset.state_key, rules.verdict, rules.actions
    heuristic = rules.heuristic
    plan: list[tuple[str, float, Callable[[Any], float], float]] = [
        ("greedy w=3", 1 / 3, heuristic, 3.0), ("novelty", 0.6, novelty(rules), 3.0),
        ("greedy w=10", 1.0, heuristic, 10.0)]
    found = found or Solution(False)
    used = 0.0
    for name, share, guess, weight in plan:
        rest = max(0.0, (seconds - used) * share)
        more = search(engine, key, verdict, actions, rest, max_states, heuristic=guess,
                      weight=weight)
        used += more.seconds
        more.states += found.states
        more.generated += found.generated
        more.seconds += found.seconds
        more.method = name
        found = more
        if found.solved or found.exhausted:
            break
    return found


def portfolio(engine: Engine, seconds: float, max_states: int | None = None) -> Solution:
    """Breadth-first search and the greedy passes at once, in two forked processes (each
    searches its own copy of the engine, for the whole budget); the first answer wins.

    A greedy answer waits a little (as long again as it took, at least 0.2 s, within the
    budget) for a breadth-first one, which is shortest; a search that sees every state without
    a win ends it all. On a machine with two cores this gives each search four
    times (bfs) or a third more (greedy) of the time it gets in one process. States and
    generated count both searches.
    """
    from multiprocessing.connection import Connection, wait

    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    pipes: dict[Connection, str] = {}
    processes = []
    for plan in ("bfs", "passes"):
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_work, args=(engine, plan, seconds, max_states, sender),
                                  daemon=True)
        process.start()
        sender.close()
        pipes[receiver] = plan
        processes.append(process)
    results: dict[str, Solution] = {}
    deadline = start + seconds + 1.0  # the workers keep their own budget; this is slack
    try:
        while pipes:
            bfs, greedy = results.get("bfs"), results.get("passes")
            if (bfs is not None and (bfs.solved or bfs.exhausted)) or \
                    (greedy is not None and greedy.exhausted):
                break
            now = time.perf_counter()
            if greedy is not None and greedy.solved:
                until = min(deadline, start + max(2 * greedy.seconds, greedy.seconds + 0.2))
            else:
                until = deadline
            if now >= until:
                break
            for ready in wait(list(pipes), timeout=until - now):
                receiver = cast(Connection, ready)
                plan = pipes.pop(receiver)
                try:
                    answer = receiver.recv()
                except EOFError:
                    answer = Solution(False, method=plan)  # the worker died without a word
                if isinstance(answer, BaseException):
                    raise answer
                results[plan] = answer
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()
    bfs, greedy = results.get("bfs"), results.get("passes")
    states = sum(r.states for r in results.values())
    generated = sum(r.generated for r in results.values())
    if bfs is not None and (bfs.solved or bfs.exhausted):
        best = bfs
    elif greedy is not None and (greedy.solved or greedy.exhausted):
        best = greedy
    else:
        best = Solution(False, method="bfs + greedy passes")
    best.states, best.generated = states, generated
    best.seconds = time.perf_counter() - start
    return best


def _work(engine: Engine, plan: str, seconds: float, max_states: int | None,
          sender: Any) -> None:
    """One portfolio worker: search, send the Solution (or the error) back."""
    try:
        if plan == "bfs":
            found = _run(engine, "bfs", seconds, max_states)
        else:
            found = _passes(engine, seconds, max_states)
        sender.send(found)
    except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
        sender.send(exc)
    finally:
        sender.close()


def novelty(rules: SearchHooks, penalty: float = 50.0) -> Callable[[Any], float]:
    """A heuristic that puts states showing a fact never seen before (a thing on a new cell, a
    new rule) ahead of the rest, ordered by the ruleset's own heuristic: a cheap form of
    best-first width search, which copes with puzzles whose goal the distance guess misreads."""
    seen: set[Any] = set()
    base = rules.heuristic

    def guess(world: Any) -> float:
        novel = False
        for atom in rules.atoms(world):
            if atom not in seen:
                seen.add(atom)
                novel = True
        return base(world) + (0.0 if novel else penalty)

    return guess


def moves_text(commands: list[Command]) -> str:
    """Commands as Keke's move letters: u d l r, s for Wait."""
    return "".join(getattr(c, "direction", "s") for c in commands)
