"""`rulefront bench openspiel`: what the OpenSpiel adapter costs (needs the `openspiel` extra).

clone_us: one `state.clone()` of a duel position 300 random actions in (a list copy: no World
is copied); apply_us: the median `apply_action` of one of its legal actions on a clone of it,
which walks the shared Engine back from the previous sibling (one retract) and applies the
command; engine_apply_retract_us: the median apply + retract of the same commands on the
Engine directly (apply_us minus this is what the adapter adds). Medians per action, with the
garbage collector off as timeit does: a full collection of the World's objects (~0.15 s)
would land on whichever action happened to allocate, and an end of turn (minions, towers)
costs far more than a move. sim_test_GAME_s: OpenSpiel's `random_sim_test` with its default
checks (5 random games, each state serialized and read back) on each shipped game's small
level (SMALL: outpost for 4 rounds, first-steps and descent level-01 for 60 moves, 0.137 on
heaps of 3, 4 and 5; the defaults' duel takes minutes of random games). set_from_us: the
median `make_observation(game).set_from(state, 0)` on duel right after each action of a random
game (the planes brought up to date from the journal, then copied out); set_from_again_us: a
second `set_from` of the same state.
"""

from __future__ import annotations

import functools
import gc
import random
import statistics
import time
from typing import Any

from game.bench import median_time

SMALL: dict[str, dict[str, Any]] = {
    "rulefront_skirmish": {"map": "outpost", "turn_limit": 4},
    "rulefront_puzzle": {"level": "first-steps", "max_moves": 60},
    "rulefront_descent": {"level": "level-01", "max_moves": 60},
    "rulefront_octal": {"code": "0.137", "heaps": "3 4 5"},
}


def mid_game_state(seed: int = 1, actions: int = 300) -> Any:
    """A duel state after `actions` seeded random actions (fewer if the game ends first)."""
    import pyspiel

    import game.openspiel  # noqa: F401  (registers the games)

    state = pyspiel.load_game("rulefront_skirmish", {"map": "duel"}).new_initial_state()
    rng = random.Random(seed)
    for _ in range(actions):
        legal = state.legal_actions()
        if state.is_terminal():
            break
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def openspiel(repeat: int = 5, **_options: Any) -> dict[str, float]:
    import pyspiel

    was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: a full collection (~0.15 s here) lands on a random action
    try:
        figures = _clone_and_apply(repeat)
        figures.update(_set_from(repeat))
    finally:
        if was_enabled:
            gc.enable()
    for name, params in SMALL.items():
        figures[f"openspiel.sim_test_{name.removeprefix('rulefront_')}_s"] = median_time(
            functools.partial(_sim_test, pyspiel.load_game(name, params)), repeat)
    return figures


def _clone_and_apply(repeat: int) -> dict[str, float]:
    state = mid_game_state()
    clone_s = median_time(lambda: [state.clone() for _ in range(100)], repeat) / 100
    legal = state.legal_actions()
    engine = state.engine()  # the same position and commands, straight on the Engine
    commands = [state.command(action) for action in legal]
    for command in commands:  # warm the World's query caches (the first end turn costs ms)
        engine.apply(command)
        engine.retract()
    per_apply, per_engine = [], []  # one time per action: the median is the typical action
    clock = time.perf_counter
    for _ in range(repeat):
        children = [state.clone() for _ in legal]
        for child, action in zip(children, legal, strict=True):
            start = clock()
            child.apply_action(action)
            per_apply.append(clock() - start)
    engine = state.engine()
    for _ in range(repeat):
        for command in commands:
            start = clock()
            engine.apply(command)
            engine.retract()
            per_engine.append(clock() - start)
    figures = {"openspiel.clone_us": clone_s * 1e6,
               "openspiel.apply_us": statistics.median(per_apply) * 1e6,
               "openspiel.engine_apply_retract_us": statistics.median(per_engine) * 1e6}
    return figures


def _set_from(repeat: int, actions: int = 2_000) -> dict[str, float]:
    """Median set_from times (us) after each action of `repeat` random games of duel."""
    import pyspiel
    from open_spiel.python.observation import make_observation

    import game.openspiel  # noqa: F401  (registers the games)

    duel = pyspiel.load_game("rulefront_skirmish", {"map": "duel"})
    observation = make_observation(duel)
    clock = time.perf_counter
    after: list[float] = []
    again: list[float] = []
    for seed in range(max(1, repeat)):
        rng = random.Random(seed)
        state = duel.new_initial_state()
        runs_after, runs_again = [], []
        for _ in range(actions):
            if state.is_terminal():
                state = duel.new_initial_state()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            start = clock()
            observation.set_from(state, 0)
            middle = clock()
            observation.set_from(state, 0)
            runs_again.append(clock() - middle)
            runs_after.append(middle - start)
        after.append(statistics.median(runs_after))
        again.append(statistics.median(runs_again))
    return {"openspiel.set_from_us": statistics.median(after) * 1e6,
            "openspiel.set_from_again_us": statistics.median(again) * 1e6}


def _sim_test(game: Any) -> None:
    import pyspiel

    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
