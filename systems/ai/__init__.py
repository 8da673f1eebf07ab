"""AI players: one protocol, `choose(engine, rng, budget) -> Command`, and one way to name them.

A seat is written `NAME` or `NAME:key=value,key=value` (e.g. `minimax:think=0.5`), where NAME
is a built-in AI or one an installed package offers through the entry-point group
`rulefront.ais`; or `module.path:Class[:key=value,...]` for a class outside the project (a
plug-in, see `systems.ai.plugins`). `make_ai` turns a seat into a player, or says in one
sentence which names and options exist.
"""

from __future__ import annotations

import importlib

from systems.ai.base import (
    AI,
    AIS,
    Budget,
    Forfeit,
    build,
    option_names,
    options_float,
    parse_spec,
)
from systems.ai.plugins import make_plugin

__all__ = ["AI", "AIS", "Budget", "Forfeit", "build", "make_ai", "option_names",
           "options_float", "parse_spec"]


def make_ai(spec: str) -> AI:
    """Build the AI a seat names, e.g. 'random', 'minimax:nodes=5000' or 'mypkg.bots:Greedy'."""
    name, options = parse_spec(spec)
    if name not in AIS:
        return make_plugin(spec, name, options)
    module_name, factory_name = AIS[name].split(":")
    factory = getattr(importlib.import_module(module_name), factory_name)
    return build(factory, name, spec, options)
