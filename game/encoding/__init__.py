"""The one encoding of Rulefront's games for other people's tools: a fixed integer per command
(actions.py) and planes per cell (planes.py), per ruleset.

OpenSpiel (game.openspiel) and PettingZoo/Gymnasium (game.envs) both use it, so an action
number, its text and an observation mean the same thing in every adapter. It sits below both
in the layers (pyproject.toml) and imports none of their libraries; docs/ecosystem.md
describes it once.
"""

from __future__ import annotations

from game.encoding.actions import Encoding, encoding_for
from game.encoding.planes import HIGH, Kept, Planes, plane_names

__all__ = ["HIGH", "Encoding", "Kept", "Planes", "encoding_for", "plane_names"]
