"""`rulefront bench envs`: what a learner's loop costs on duel (needs the `envs` extra; it
lives here, not in game.bench, which sits below the adapters).

envs.pettingzoo_steps_per_s: PettingZoo's own random loop, as its documentation writes it, on
the duel map's environment (`game.envs.env("skirmish", source="duel")`, the game of
`map="duel"`; the standard wrappers on): `for agent in env.agent_iter(): obs, rew, term,
trunc, info = env.last(); action = None if term or trunc else
env.action_space(agent).sample(obs["action_mask"]); env.step(action)`, a new game when
one ends (`env.reset()`: the same engine rewound), STEPS steps a run; `_per_cpu_s` counts this
process's CPU time instead of the wall clock (what the code does on a shared machine).
envs.pettingzoo_kept_steps_per_s: the same loop with `copy=False` (each side's observation
one read-only array brought up to date in place, not a new one). envs.raw_steps_per_s: the
same loop on `raw_env` (no wrappers). envs.engine_steps_per_s: the
game alone, what every step of those loops does below the environment: the legal table (the
encoding's numbers of the legal commands), a random one of them, apply; no observation, no
mask, no environment (the ceiling of the loops above). envs.observe_us: the median
`observe` (a new observation array and its action mask) after each action of a random game;
envs.fill_us the median `Planes.fill` into a kept array after each action, envs.fill_again_us
a second fill of the same position. Medians over `repeat` runs.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import numpy as np

STEPS = 5_000
MAP = "duel"  # the shipped map; its ruleset is read from it (no ruleset is named here)


def make(raw: bool = False, copy: bool = True) -> Any:
    """The environment of MAP, as `env(<its ruleset>, map=MAP)` makes it (or `raw_env`;
    `copy`, the environments' keyword)."""
    from game.envs import env, raw_env
    from game.levels.loader import load_game_map

    return (raw_env if raw else env)(load_game_map(MAP).ruleset, source=MAP, copy=copy)


def random_loop(env: Any, steps: int, seed: int) -> tuple[float, float]:
    """Steps per wall second and per CPU second of PettingZoo's random loop on `env`."""
    env.reset(seed=seed)
    for number, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(seed + number)
    done = 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        for agent in env.agent_iter():
            obs, _rew, term, trunc, _info = env.last()
            action = None if term or trunc else env.action_space(agent).sample(obs["action_mask"])
            env.step(action)
            done += 1
            if done >= steps:
                break
        else:
            env.reset()
    wall, cpu_spent = time.perf_counter() - start, time.process_time() - cpu
    return steps / wall, steps / max(cpu_spent, 1e-9)


def engine_loop(env: Any, steps: int, seed: int) -> tuple[float, float]:
    """Steps per wall second and per CPU second of the game under `env` (a raw_env) alone:
    the legal table, a random legal command, apply; a new game when one ends."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    encoding = env.encoding
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        engine = env.engine
        if engine.over:
            env.reset()
            engine = env.engine
        legal = encoding.legal(engine)
        numbers = list(legal)
        engine.apply(legal[numbers[rng.randrange(len(numbers))]])
    wall, cpu_spent = time.perf_counter() - start, time.process_time() - cpu
    return steps / wall, steps / max(cpu_spent, 1e-9)


def per_action(steps: int, seed: int) -> dict[str, float]:
    """Median observe, fill and fill-again times (us) after each action of random play."""
    env = make(raw=True)
    env.reset(seed=seed)
    rng = random.Random(seed)
    out = np.empty(env.planes.shape, dtype=np.float32)
    clock = time.perf_counter
    times: dict[str, list[float]] = {"observe": [], "fill": [], "fill_again": []}
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        legal = list(env.encoding.legal(env.engine))
        env.step(legal[rng.randrange(len(legal))])
        engine, me = env.engine, env.agent_selection
        start = clock()
        env.planes.fill(engine, me, out)
        middle = clock()
        env.planes.fill(engine, me, out)
        end = clock()
        env.observe(me)
        times["observe"].append(clock() - end)
        times["fill"].append(middle - start)
        times["fill_again"].append(end - middle)
    env.close()
    return {name: statistics.median(values) * 1e6 for name, values in times.items()}


def envs(repeat: int = 3, **_options: Any) -> dict[str, float]:
    runs = max(1, repeat)
    wrapped, kept, bare = make(), make(copy=False), make(raw=True)
    for made in (wrapped, kept, bare):
        random_loop(made, 500, 0)  # warm the caches and the World's queries
    loops = [random_loop(wrapped, STEPS, seed) for seed in range(runs)]
    in_place = [random_loop(kept, STEPS, seed) for seed in range(runs)]
    raw = [random_loop(bare, STEPS, seed) for seed in range(runs)]
    alone = [engine_loop(bare, STEPS, seed) for seed in range(runs)]
    for made in (wrapped, kept, bare):
        made.close()
    parts = [per_action(2_000, seed) for seed in range(runs)]
    return {
        "envs.pettingzoo_steps_per_s": statistics.median(r[0] for r in loops),
        "envs.pettingzoo_steps_per_cpu_s": statistics.median(r[1] for r in loops),
        "envs.pettingzoo_kept_steps_per_s": statistics.median(r[0] for r in in_place),
        "envs.pettingzoo_kept_steps_per_cpu_s": statistics.median(r[1] for r in in_place),
        "envs.raw_steps_per_s": statistics.median(r[0] for r in raw),
        "envs.raw_steps_per_cpu_s": statistics.median(r[1] for r in raw),
        "envs.engine_steps_per_s": statistics.median(r[0] for r in alone),
        "envs.engine_steps_per_cpu_s": statistics.median(r[1] for r in alone),
        "envs.observe_us": statistics.median(p["observe"] for p in parts),
        "envs.fill_us": statistics.median(p["fill"] for p in parts),
        "envs.fill_again_us": statistics.median(p["fill_again"] for p in parts),
    }
