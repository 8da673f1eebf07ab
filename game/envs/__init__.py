"""Rulefront for PettingZoo and Gymnasium (the `envs` extra).

`from game.envs import skirmish_env, octal_env` gives PettingZoo AEC environments for the
games of sides; importing this package registers the Gymnasium environments
`rulefront/Puzzle-v0` and `rulefront/Descent-v0` for the one-player levels (keyword `level`).
Action numbers and observation planes are in `game.envs.encoding` and docs/ecosystem.md.
"""

from __future__ import annotations

import gymnasium

from game.envs.aec import OctalEnv, SkirmishEnv, octal_env, skirmish_env

__all__ = ["OctalEnv", "SkirmishEnv", "octal_env", "skirmish_env"]

for _name in ("Puzzle", "Descent"):
    if f"rulefront/{_name}-v0" not in gymnasium.registry:
        gymnasium.register(f"rulefront/{_name}-v0",
                           entry_point=f"game.envs.levels:{_name}Env")
