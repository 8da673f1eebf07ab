"""Puzzle solvers: breadth-first (shortest), uniform-cost and best-first/A*, over hashed states.

Every search works on the one Engine it is given, by apply and retract: no world is copied.
The search tree (tree.py) is kept as parallel arrays (parent, action, depth); going from one
node to the next retracts to their common ancestor and applies the moves down to the target. In
breadth-first order consecutive nodes are close in the tree, so each expansion costs a few
applies. States are told apart by the ruleset's `state_key(world)` (the puzzle's incremental
Zobrist hash), so a repeat is never expanded twice. Searches over macro moves are in macro.py;
`solve` chooses a search, or runs several as stages (`auto`), in one process or two.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from game.errors import UserError
from game.registry import SearchHooks
from systems.ai.macro import walk_search
from systems.ai.tree import Frontier, Solution, Tree

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine


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
    best_first = cost is not None or heuristic is not None
    tree = Tree(engine, actions, replay=best_first)
    root = key(world)
    seen: dict[Any, int] = {root: 0}  # state -> best g so far (BFS: the node id)
    g = [0]
    keys = [root]
    goal = [False]
    frontier = Frontier(best_first)
    generated = 0
    found = -1
    apply, retract, record = engine.apply, engine.retract, tree.record
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
                    played = record()
                    retract()
                    seen[state] = step_g
                    child = tree.add(node, index, played)
                    g.append(step_g)
                    keys.append(state)
                    goal.append(result == 1)
                    if result != -1:
                        frontier.push(child, step_g + weight * h)
                    continue
                if state in seen:
                    retract()
                    continue
                result = verdict(world)
                played = record()
                retract()
                child = tree.add(node, index, played)
                seen[state] = child
                g.append(base_g + 1)
                if result == 1:
                    found = child
                    break
                if result == 0:
                    frontier.push(child)
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
    "novelty" (greedy, states showing never-seen facts first), "astar" (best-first on g + h),
    "greedy" (g + 3h), the macro searches of rulesets that offer walks (`walk_search`):
    "macro" (breadth-first in macro moves), "macro-fill" and "macro-spell" (greedy on the
    ruleset's fill and spell heuristics), "macro-novelty" (novelty-first greedy),
    "macro-novelty2" and "macro-spell-novelty2" (width-2 novelty first, then the ruleset's
    own or spell heuristic: see `novelty`), "macro-chain-novelty2" (macro-novelty2 on
    the chain guess), a stage of the plans below ("greedy w=N", a novelty search with
    " p=N"), or "auto":
    the stages of SOLO, each with its share of the time left (a proof of unsolvability ends it
    early). With `workers` 2 or more (and a time budget), auto runs the stages of PAIR side by
    side in two processes: see `portfolio`.
    """
    if staged(method):
        return _run(engine, method, seconds, max_states)
    if method != "auto":
        raise UserError(f"unknown solver method '{method}'; use {', '.join(METHODS)}, "
                        "greedy w=N, a novelty search with p=N (macro-novelty2 p=5) or auto.")
    if workers > 1 and seconds is not None and "fork" in multiprocessing.get_all_start_methods():
        return portfolio(engine, seconds, max_states)
    if seconds is None:
        return _run(engine, "bfs", None, max_states)
    return _stages(engine, SOLO, seconds, max_states)


METHODS = ("bfs", "cost", "astar", "greedy", "novelty", "macro", "macro-fill", "macro-spell",
           "macro-novelty", "macro-novelty2", "macro-spell-novelty2", "macro-chain-novelty2")
# Macro searches: the ruleset heuristic each is greedy on (None: breadth-first), the width of
# the novelty put before it (0: none) and whether its pairs of facts are told apart by regime.
MACRO: dict[str, tuple[str | None, int, bool]] = {
    "macro": (None, 0, False), "macro-fill": ("fill_heuristic", 0, False),
    "macro-spell": ("spell_heuristic", 0, False), "macro-novelty": ("heuristic", 1, False),
    "macro-novelty2": ("heuristic", 2, False),
    "macro-spell-novelty2": ("spell_heuristic", 2, True),
    "macro-chain-novelty2": ("chain_heuristic", 2, False)}
# A method (or greedy w=N, or a novelty search with p=N: its penalty for a state with nothing
# new, 50 by default) and its share of the time left.
Stage = tuple[str, float]
# The plans are fitted to solve times measured on the Keke set (issue 17; docs/rules.md,
# "Solvers"): every method run alone on the 60 levels breadth-first misses or finds slowly,
# then the time of each worker split among methods to cover the most levels with time to
# spare (a method must solve a level in 1/1.3 of its share, 1/1.1 for one worker). Width-2
# novelty over macro moves covers most of what the older passes did, and more: of the
# searches once staged, only breadth-first (shortest answers, and quickest on small levels)
# and g + 3h (levels 186, 188, 189, whose first pushes the guesses misread) still add levels.
# A small novelty penalty (p=5: a state with nothing new is put back five steps, not fifty,
# so the distance guess keeps more say) solves level 120 in 2 s where p=50 needs 28.
# Refitted (issue 28) on CPU seconds measured per level and method: breadth-first's share
# shrank to 20% (what it alone solves, it solves in under 1.5 s; the guided searches solve
# the rest sooner), p=5 came before spell-guided novelty in the first of two workers (it
# solved 120 and 77, which came last or not at all; now p=3 on the chain guess, below), and
# g + 3h, whose three levels (186, 188, 189) spell-guided novelty also solves ten times
# slower, opens the second worker's plan: a second of it answers them at once (half a CPU
# second; 0.6 s was too little at load 5).
# One worker (issue 28, part 4): p=5 left to run on solves 53 (26,161 states) and 107
# (22,391) besides 120, so it runs last, for the rest of the time (6.5 s); spell-guided
# novelty before it needs at most 2.7 CPU s on each level only it solves (81, 83, 86, 87,
# 186-189), and solves at once every level breadth-first needs more than 0.2 s for, so bfs
# keeps 0.2 s, for the shortest answers to the easy levels. 136 needs 5 s of macro-novelty2
# (p below 15 does not solve it), which does not fit beside them. The last stage steers by
# the chain guess (guess.py's chain_win): where a WIN thing stands it is the distance guess
# (53, 120, 57, 77: the same states), and where a WIN kind has no things it prices the
# transformation, which brings 161 in (6,699 states, 2.9 s, where p=5 on the distance
# guess needs 74,376).
# Spell-guided novelty's 34% (3.3 s) holds 83 (2.5 s alone), which 32% lost once in a
# quiet run. Since the spell guess leaves out slots no push can fill (guess.py's `_slots`,
# issue 28 part 6) it also solves 107 (9,206 states, 2.2 s; it came last, near 8.5 s, by
# the p=5 stage) and 59 (18,420 states, 2.6 s; not solved before).
SOLO: tuple[Stage, ...] = (
    ("bfs", 0.02), ("macro-spell-novelty2", 0.34), ("macro-chain-novelty2 p=5", 1.0))
# Two workers: bfs, spell- then chain-guided novelty at p=3 briefly, then spell-guided
# novelty in one; g + 3h briefly, then distance-guided novelty in the other, whose guess
# also prices the transformation that a WIN kind with no things needs (guess.py; level 161):
# elsewhere it searches the states macro-novelty2 does. The first worker's middle stage was
# p=5 on the distance guess (for 120); the chain guess at p=3 solves 120 in 6,750 states
# (p=5: 7,291) and 162 in 7,638 (p=5 on the chain guess: 41,330; p=2 40,128, p=4 19,369: a
# sharp minimum, fitted to this set like every share here), in 2 CPU s each; 77, which p=3
# needs 27,052 states for, the second worker solves in about 2 s. Before it, spell-guided
# novelty at p=3 for 12% (1 s) answers 59 (3,338 states, 0.5 s) and 81 (700, 0.2 s), which
# the last stage solved near 7.5 s and 7.1 s (p=3 misses 87, which the last stage keeps).
# Both short stages were sized for a loaded machine (one more busy process beside the two
# workers): at 8% and 35% the loaded run lost 162 and found 59 at 9.5 s; at 12% and 45% it
# solved all 178, none past 8.7 s, at the cost of 87 and 83 about 0.9 s later when quiet.
PAIR: dict[str, tuple[Stage, ...]] = {
    "bfs": (("bfs", 0.2), ("macro-spell-novelty2 p=3", 0.12),
            ("macro-chain-novelty2 p=3", 0.45), ("macro-spell-novelty2", 1.0)),
    "passes": (("greedy w=3", 0.1), ("macro-chain-novelty2", 1.0)),
}


def staged(method: str) -> bool:
    """Whether a plan can stage `method`: one of METHODS, greedy w=N, or a macro novelty
    search with p=N (its penalty for a state with nothing new)."""
    if method.startswith("greedy w="):
        option = method.removeprefix("greedy w=")
    else:
        name, sep, option = method.partition(" p=")
        if not sep:
            return method in METHODS
        if name not in MACRO or not MACRO[name][1]:
            return False
    try:
        return float(option) >= 0
    except ValueError:
        return False


def hooks_of(engine: Engine) -> SearchHooks:
    """The engine's ruleset as the solver sees it: a UserError when it cannot be searched."""
    rules = engine.ruleset
    if not isinstance(rules, SearchHooks):
        raise UserError(f"a {rules.name} game cannot be solved by search; solve works on "
                        "one-player levels.")
    return rules


def has_walks(engine: Engine) -> bool:
    """Whether the ruleset offers macro moves (walk_region, walk_moves, walk_steps)."""
    return callable(getattr(engine.ruleset, "walk_region", None))


def _run(engine: Engine, method: str, seconds: float | None,
         max_states: int | None) -> Solution:
    rules = hooks_of(engine)
    key, verdict, actions = engine.ruleset.state_key, rules.verdict, rules.actions
    macro, _sep, option = method.partition(" p=")
    if macro in MACRO:
        if not has_walks(engine):
            raise UserError(f"method {method} needs macro moves, which {engine.ruleset.name} "
                            "levels do not offer; use bfs, cost, astar, greedy or novelty.")
        name, width, by_regime = MACRO[macro]
        guess = None if name is None else getattr(engine.ruleset, name)
        if guess is not None and width:
            guess = novelty(rules, float(option or 50.0), width, guess, by_regime)
        found = walk_search(engine, seconds, max_states, heuristic=guess, weight=3.0)
    elif method.startswith("greedy w="):
        found = search(engine, key, verdict, actions, seconds, max_states,
                       heuristic=rules.heuristic, weight=float(method.split("=")[1]))
    else:
        plans: dict[str, dict[str, Any]] = {
            "bfs": {}, "cost": {"cost": rules.action_cost},
            "astar": {"heuristic": rules.heuristic},
            "greedy": {"heuristic": rules.heuristic, "weight": 3.0},
            "novelty": {"heuristic": novelty(rules), "weight": 3.0}}
        found = search(engine, key, verdict, actions, seconds, max_states, **plans[method])
    found.method = method
    return found


def _stages(engine: Engine, plan: Sequence[Stage], seconds: float,
            max_states: int | None) -> Solution:
    """Run the searches of `plan` one after another, each for its share of the time left,
    until one solves the level or proves it cannot be solved. Macro stages are skipped where
    the ruleset has no walks. The counts of all stages are added up."""
    walks = has_walks(engine)
    found = Solution(False)
    used = 0.0
    for method, share in plan:
        if method in MACRO and not walks:
            continue
        rest = max(0.0, (seconds - used) * share)
        more = _run(engine, method, rest, max_states)
        used += more.seconds
        more.states += found.states
        more.generated += found.generated
        more.seconds += found.seconds
        found = more
        if found.solved or found.exhausted:
            break
    return found


def portfolio(engine: Engine, seconds: float, max_states: int | None = None) -> Solution:
    """The two plans of PAIR at once, in two forked processes (each searches its own copy of
    the engine, for the whole budget); the first answer wins.

    An answer of the second worker waits a little (as long again as it took, at least 0.2 s,
    but not past the end of breadth-first's share) for one from the first, which opens with
    breadth-first search (the shortest: after its share the first worker's answers are no
    shorter than the second's); a search that sees every state without a win ends it all.
    States and generated count both searches.
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
                until = min(deadline, start + hold(seconds, greedy.seconds))
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


def hold(seconds: float, answered: float) -> float:
    """How long into a budget of `seconds` an answer the second worker found at `answered`
    waits for the first worker's: as long again (at least 0.2 s), but not past the end of
    the first worker's breadth-first stage, the only one whose answer is shorter for sure."""
    first, share = PAIR["bfs"][0]
    shortest = seconds * share if first == "bfs" else 0.0
    return max(min(2 * answered, shortest), answered + 0.2)


def _work(engine: Engine, plan: str, seconds: float, max_states: int | None,
          sender: Any) -> None:
    """One portfolio worker: search, send the Solution (or the error) back."""
    try:
        found = _stages(engine, PAIR[plan], seconds, max_states)
        sender.send(found)
    except Exception as exc:  # noqa: BLE001 - handed to the parent, which raises it
        sender.send(exc)
    finally:
        sender.close()


def novelty(rules: SearchHooks, penalty: float = 50.0, width: int = 1,
            base: Callable[[Any], float] | None = None,
            pairs_by_regime: bool = False) -> Callable[[Any], float]:
    """A heuristic that puts states showing a fact never seen before (a thing on a new cell, a
    new rule) ahead of the rest, ordered by `base` (the ruleset's own heuristic by default): a
    cheap form of best-first width search, which copes with puzzles whose goal the distance
    guess misreads.

    Width 2 goes further, as best-first width search does. A fact counts as new when it was
    never seen under the ruleset's `regime` now in force (the puzzle's rules: a level whose
    rules must be remade in order gets each new rule set explored afresh). Among the states
    with no new fact, those showing a new pair of facts come next, and the rest last. A pair
    holds at least one fact that changed since the first state guessed (the other pairs were all
    there at once), so a state costs (facts changed) x (facts), not (facts) squared. With
    `pairs_by_regime`, pairs too are new under each regime."""
    seen: set[Any] = set()
    first: set[Any] = set()
    # Width 2 as sets: the facts seen under each regime, and for each changed fact (per
    # regime with `pairs_by_regime`) the facts seen beside it, kept as the first state's facts
    # never seen beside it (`absent`: few, since most of the first state stands still) and the
    # changed facts seen beside it (`beside`). A state shows a new pair when one of its changed
    # facts meets a fact of either kind for the first time; each test is over the few facts
    # that changed or went, not over every fact of the state, and runs in C.
    seen_under: dict[Any, set[Any]] = {}
    absent: dict[Any, set[Any]] = {}
    beside: dict[Any, set[Any]] = {}
    guide = rules.heuristic if base is None else base

    def guess(world: Any) -> float:
        facts = rules.atoms(world)
        novel = False
        for atom in facts:
            if atom not in seen:
                seen.add(atom)
                novel = True
        return guide(world) + (0.0 if novel else penalty)

    def guess_pairs(world: Any) -> float:
        facts = set(rules.atoms(world))
        regime = rules.regime(world)
        if not first:
            first.update(facts)
        known = seen_under.get(regime)
        if known is None:
            seen_under[regime] = facts.copy()
            return guide(world)
        if not facts <= known:
            known |= facts
            return guide(world)
        novel = False
        changed = facts - first
        gone = first - facts
        for fact in changed:
            key = (regime, fact) if pairs_by_regime else fact
            missing = absent.get(key)
            if missing is None:
                absent[key] = gone.copy()
                beside[key] = changed.copy()
                novel = True
                continue
            if not missing <= gone:  # a first-state fact seen beside it at last
                missing &= gone
                novel = True
            others = beside[key]
            if not changed <= others:
                others |= changed
                novel = True
        return guide(world) + (penalty if novel else 2 * penalty)

    return guess if width == 1 else guess_pairs


def moves_text(commands: list[Command]) -> str:
    """Commands as Keke's move letters: u d l r, s for Wait."""
    return "".join(getattr(c, "direction", "s") for c in commands)
