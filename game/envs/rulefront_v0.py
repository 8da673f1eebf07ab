"""Version 0 of Rulefront's environments, PettingZoo-style: `env(ruleset, **params)` and
`raw_env(ruleset, **params)` serve every registered ruleset from its spec.

A ruleset of two or more sides (its spec's `capabilities.players`) becomes a PettingZoo AEC
environment: `raw_env` is game.envs.aec.SidesEnv, and `env` wraps it in PettingZoo's
standard wrappers (AssertOutOfBoundsWrapper, OrderEnforcingWrapper, and with
`end_on_illegal=True` TerminateIllegalWrapper, which ends the episode on an illegal action with
-1 for the side that took it), as game.envs.wrappers subclasses them to read the state a loop
reads every step in one step. A one-player ruleset becomes a Gymnasium environment: `env` is
`gymnasium.make("rulefront/<Ruleset>-v0", ...)` (with its time limit and checks), `raw_env`
the bare game.envs.levels.LevelEnv.

Keywords are the ruleset's parameters (its `params` edge, typed by their defaults: e.g.
`map`, `heaps`, `level`), or `source` (any level file, shipped name or described position),
with `render_mode`, `max_steps` and `end_on_illegal`; games of sides take `copy` too
(copy=False: each observation a read-only array kept and updated in place,
game.envs.game.RulefrontGame; Gymnasium's check_env refuses that, so one-player games
always hand out new arrays).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from game import registry
from game.envs.aec import SidesEnv
from game.envs.levels import LevelEnv
from game.envs.wrappers import wrap

VERSION = 0


def gym_id(ruleset: str) -> str:
    """The Gymnasium id of a one-player ruleset: rulefront/<Ruleset>-v0."""
    return f"rulefront/{ruleset.title()}-v{VERSION}"


def register_gym(spec: registry.RulesetSpec) -> str:
    """Register a one-player ruleset with Gymnasium (once): its id, its default level and
    `max_episode_steps`, the ruleset's `max_length` at its default parameters."""
    env_id = gym_id(spec.name)
    if env_id not in gymnasium.registry:
        from game.engine import Engine
        from game.levels.loader import load_game_map

        defaults = spec.typed({})
        engine = Engine.from_game_map(spec.build_map(defaults, load_game_map))
        most = int(spec.edge("max_length")(engine, defaults))
        engine.world.close()
        gymnasium.register(env_id, entry_point="game.envs.levels:LevelEnv",
                           max_episode_steps=most, kwargs={"ruleset": spec.name})
    return env_id


def raw_env(ruleset: str, render_mode: str | None = None, **params: Any) -> Any:
    """The bare environment of a ruleset: SidesEnv (PettingZoo AEC) or LevelEnv (Gymnasium)."""
    spec = registry.spec(ruleset)
    if spec.capabilities.players >= 2:
        params.pop("end_on_illegal", None)  # env() ends on an illegal action by a wrapper
        return SidesEnv(spec.name, render_mode=render_mode, **params)
    return LevelEnv(spec.name, render_mode=render_mode, **params)


def env(ruleset: str, render_mode: str | None = None, end_on_illegal: bool = False,
        **params: Any) -> Any:
    """The environment of a ruleset as its library hands it out: a wrapped PettingZoo AEC
    env for sides, `gymnasium.make(...)` for one player."""
    spec = registry.spec(ruleset)
    if spec.capabilities.players < 2:
        return gymnasium.make(register_gym(spec), render_mode=render_mode,
                              end_on_illegal=end_on_illegal, **params)
    return wrap(SidesEnv(spec.name, render_mode=render_mode, **params), end_on_illegal)
