"""Rulefront for PettingZoo and Gymnasium (the `envs` extra): one factory for every
registered ruleset, `env(ruleset, **params)` / `raw_env(ruleset, **params)`
(game.envs.rulefront_v0).

Games of two or more sides are PettingZoo AEC environments; one-player rulesets are
Gymnasium environments, each registered as `rulefront/<Ruleset>-v0` when this package is
imported (`gymnasium.make("rulefront/Descent-v0")` plays the default level). Action numbers
and observation planes are game.encoding's, the same as the OpenSpiel games'
(docs/ecosystem.md). `<ruleset>_env(**params)` is `env("<ruleset>", **params)` for any
registered ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from game import registry
from game.envs.aec import SidesEnv
from game.envs.levels import LevelEnv
from game.envs.rulefront_v0 import env, gym_id, raw_env, register_gym

__all__ = ["LevelEnv", "SidesEnv", "env", "env_for", "gym_id", "raw_env", "register_gym"]

for _spec in registry.specs():
    if _spec.capabilities.players < 2:
        register_gym(_spec)


def __getattr__(name: str) -> Callable[..., Any]:
    """`<ruleset>_env`: the factory of one registered ruleset."""
    ruleset = name.removesuffix("_env")
    if name.endswith("_env") and ruleset in registry.names():
        return partial(env, ruleset)
    raise AttributeError(f"module 'game.envs' has no attribute '{name}'")


def env_for(source: str, render_mode: str | None = None) -> tuple[Any, str]:
    """The environment of any map or level (a file, a shipped name, or a described position
    such as octal:CODE:HEAPS) and the line of Python that makes it."""
    from game.levels.loader import load_game_map

    ruleset = load_game_map(source).ruleset
    made = env(ruleset, render_mode=render_mode, source=source)
    if registry.spec(ruleset).capabilities.players < 2:
        return made.unwrapped, f"gymnasium.make({gym_id(ruleset)!r}, source={source!r})"
    return made, f"game.envs.env({ruleset!r}, source={source!r})"
