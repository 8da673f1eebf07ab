"""Rulefront for PettingZoo and Gymnasium (the `envs` extra).

`from game.envs import skirmish_env, octal_env` gives PettingZoo AEC environments for the
games of sides; importing this package registers the Gymnasium environments
`rulefront/Puzzle-v0` and `rulefront/Descent-v0` for the one-player levels (keyword `level`).
Action numbers and observation planes are game.encoding's, the same as the OpenSpiel games'
(docs/ecosystem.md).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from game.envs.aec import OctalEnv, SkirmishEnv, octal_env, skirmish_env

__all__ = ["OctalEnv", "SkirmishEnv", "env_for", "octal_env", "skirmish_env"]

for _name in ("Puzzle", "Descent"):
    if f"rulefront/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(f"rulefront/{_name}-v0",
                           entry_point=f"game.envs.levels:{_name}Env")


def env_for(source: str, render_mode: str | None = None) -> tuple[Any, str]:
    """The environment for any map or level (a file, a shipped name, or octal:CODE:HEAPS) and
    the line of Python that makes it."""
    from game.errors import UserError
    from game.levels.loader import load_game_map

    game_map = load_game_map(source)
    if game_map.ruleset == "skirmish":
        return SkirmishEnv(game_map, render_mode), f"skirmish_env(map={source!r})"
    if game_map.ruleset == "octal":
        env = OctalEnv(game_map, render_mode)  # a described position or a map of heaps
        report = env.engine.ruleset.report(env.engine.world)
        heaps = ",".join(map(str, env.start_heaps))
        misere = ", misere=True" if report.get("misere") else ""
        return env, f"octal_env(code={report['code']!r}, heaps={heaps!r}{misere})"
    if game_map.ruleset not in ("puzzle", "descent"):
        raise UserError(f"{source}: is a {game_map.ruleset} map; no environment plays it.")
    env_id = f"rulefront/{game_map.ruleset.title()}-v0"
    made = gymnasium.make(env_id, level=source, render_mode=render_mode)
    return made.unwrapped, f"gymnasium.make({env_id!r}, level={source!r})"
