"""`rulefront envs MAP [--check] [--json]`: the PettingZoo or Gymnasium environment a map or
level becomes (how to make it, its agents, action count and observation shape), and with
--check the library's own conformance check run on it."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from game.errors import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("envs", help="describe (and check) the PettingZoo/Gymnasium environment "
                                    "of a map or level")
    p.add_argument("map", help="a map or level file, a shipped name, or octal:CODE:HEAPS")
    p.add_argument("--check", action="store_true",
                   help="run pettingzoo.test.api_test or gymnasium's check_env on it")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from game.envs import env_for
    except ModuleNotFoundError as exc:
        raise UserError(f"rulefront envs needs {exc.name}: pip install -e '.[envs]'.") from None
    env, make = env_for(args.map)
    report = describe(env, make, args.map)
    if args.check:
        report["check"], report["check_seconds"] = check(env)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.map}: {report['ruleset']} as a {report['library']} environment: {make}")
    print(f"  agents {', '.join(report['agents'])}; {report['actions']} action numbers "
          f"({report['legal_now']} legal at the start); observation "
          f"{'x'.join(map(str, report['observation']))} float32")
    if args.check:
        print(f"  {report['check']} ({report['check_seconds']:.1f} s)")
    return 0


def describe(env: Any, make: str, source: str) -> dict[str, Any]:
    if hasattr(env, "possible_agents"):  # PettingZoo
        agent = env.possible_agents[0]
        env.reset(seed=0)
        space = env.observation_space(agent)["observation"]
        return {"map": source, "ruleset": env.unwrapped.engine.ruleset.name,
                "library": "PettingZoo",
                "make": make, "agents": list(env.possible_agents),
                "actions": int(env.action_space(agent).n),
                "legal_now": int(env.observe(agent)["action_mask"].sum()),
                "observation": list(space.shape)}
    _, info = env.reset(seed=0)
    return {"map": source, "ruleset": env.engine.ruleset.name, "library": "Gymnasium",
            "make": make, "agents": ["player"], "actions": int(env.action_space.n),
            "legal_now": int(info["action_mask"].sum()),
            "observation": list(env.observation_space.shape)}


def check(env: Any) -> tuple[str, float]:
    """Run the library's own check: its name and 'passed', or a UserError saying what failed."""
    import contextlib
    import io
    import warnings

    from game.render import use_headless

    use_headless()  # check_env opens a window per render mode, "human" too: draw offscreen
    start = time.perf_counter()
    name = "pettingzoo api_test" if hasattr(env, "possible_agents") else "gymnasium check_env"
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("ignore")
            if hasattr(env, "possible_agents"):
                from pettingzoo.test import api_test

                api_test(env, num_cycles=300)
            else:
                from gymnasium.utils.env_checker import check_env

                check_env(env)
    except Exception as exc:  # the checkers assert, and some raise their own errors
        message = str(exc).strip().rstrip(".") or type(exc).__name__
        raise UserError(f"{name} failed: {message}.") from None
    return f"{name} passed", time.perf_counter() - start
