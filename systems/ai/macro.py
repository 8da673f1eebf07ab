"""Search over macro moves: a walk through free cells and one move that does something.

A ruleset that offers walks (`walk_region`, `walk_moves`, `walk_steps`; the puzzle's are in
game/rulesets/puzzle/walks.py) says where YOU can walk without changing anything else; that
whole region is one search state, and only the moves out of it are branched on, as Sokoban
solvers search pushes rather than steps. Everything else is as in `solver.search`: apply and
retract on the one engine, repeats spotted by key.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from systems.ai.tree import Frontier, Solution, Tree

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


PLAIN = 0x9E3779B97F4A7C15  # tells the keys of plain-searched states from region keys


def walk_search(engine: Engine, seconds: float | None = 10.0, max_states: int | None = None,
                heuristic: Callable[[Any], float] | None = None, weight: float = 1.0,
                by_steps: bool = False) -> Solution:
    """Search over macro moves: where the ruleset says YOU can walk without changing anything
    else (`walk_region`), the region is one state and its children are the moves that leave
    it (`walk_moves`); elsewhere the ruleset's plain actions. Breadth-first in macro moves
    (fewest pushes, goal tested when generated) without a heuristic; otherwise best-first on
    g + weight * h, g counting macro moves, or steps with `by_steps` (uniform-cost with
    neither: shortest in steps). The solution is spelled out in plain steps (`walk_steps`),
    and the engine is left as it was found.
    """
    ruleset: Any = engine.ruleset
    rules = ruleset
    region_of = ruleset.walk_region
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    world = engine.world
    state_key, verdict = ruleset.state_key, rules.verdict
    if verdict(world) == 1:
        return Solution(True, [], 1, 0, 0.0)
    commands: list[Command] = []
    numbers: dict[Command, int] = {}
    tree = Tree(engine, commands)

    def key_of(area: Any) -> Any:
        # A state searched by plain moves must not share a key with the region it lies in:
        # the region's macro moves were not tried from it.
        return state_key(world) ^ PLAIN if area is None else area.key

    root_area = region_of(world)
    root = key_of(root_area)
    seen: dict[Any, int] = {root: 0}
    best_first = heuristic is not None or by_steps
    g = [0]
    keys = [root]
    goal = [False]
    # Each node's region, found when it was generated, kept until it is expanded (its
    # state is the same then): a region costs a pass over every thing on the board.
    areas: list[Any] = [root_area]
    frontier = Frontier(best_first)
    generated = 0
    found = -1
    apply, retract, record = engine.apply, engine.retract, tree.record
    plain = [(command, 1) for command in rules.actions]
    try:
        while True:
            node = frontier.pop(g, seen, keys)
            if node < 0:
                break
            if best_first and goal[node]:
                found = node
                break
            if (deadline is not None and time.perf_counter() > deadline) or \
                    (max_states is not None and len(seen) >= max_states):
                return Solution(False, [], len(seen), generated, time.perf_counter() - start)
            tree.goto(node)
            area = areas[node]
            areas[node] = None
            moves = plain if area is None else ruleset.walk_moves(world, area)
            base_g = g[node]
            for command, steps in moves:
                number = numbers.get(command)
                if number is None:
                    number = numbers[command] = len(commands)
                    commands.append(command)
                apply(command)
                generated += 1
                result = verdict(world)
                if result == -1:
                    retract()
                    continue
                child_area = region_of(world) if result == 0 else None
                state = key_of(child_area) if result == 0 else state_key(world)
                step_g = base_g + (steps if by_steps else 1)
                known = seen.get(state)
                if known is not None and (not best_first or known <= step_g):
                    retract()
                    continue
                h = heuristic(world) if heuristic is not None and result == 0 else 0.0
                played = record()
                retract()
                seen[state] = step_g
                child = tree.add(node, number, played)
                g.append(step_g)
                keys.append(state)
                goal.append(result == 1)
                areas.append(child_area)
                if best_first:
                    frontier.push(child, step_g + weight * h)
                elif result == 1:
                    found = child
                    break
                else:
                    frontier.push(child)
            if found >= 0:
                break
        elapsed = time.perf_counter() - start
        if found < 0:
            return Solution(False, [], len(seen), generated, elapsed, exhausted=True)
        moves_found = _spell(engine, tree, found)
    finally:
        tree.home()
    return Solution(True, moves_found, len(seen), generated, time.perf_counter() - start,
                    cost=len(moves_found))


def _spell(engine: Engine, tree: Tree, node: int) -> list[Command]:
    """The path to `node` in plain commands: each macro move replayed as the steps it stands
    for (read from the state it starts in)."""
    ruleset: Any = engine.ruleset
    tree.home()
    spelled: list[Command] = []
    for command in tree.path(node):
        if command in ruleset.actions:
            steps = [command]
        else:
            steps = ruleset.walk_steps(engine.world, ruleset.walk_region(engine.world), command)
        for step in steps:
            engine.apply(step)
        spelled.extend(steps)
    for _ in spelled:
        engine.retract()
    return spelled
