"""Rules in force: NOUN IS PROPERTY as a per-kind bit mask, kept as a world resource.

Base rules come from the ruleset (ROCK IS STOP...); word tiles on the map add to them. The
mask is derived data: it is recomputed when words move and stored with `set_resource`, so undo
restores it with everything else.
"""

from __future__ import annotations

from enum import IntFlag

from game.world import World


class Prop(IntFlag):
    NONE = 0
    YOU = 1
    WIN = 2
    STOP = 4
    PUSH = 8
    DEFEAT = 16
    SINK = 32
    HOT = 64
    MELT = 128
    MOVE = 256
    OPEN = 512
    SHUT = 1024
    WEAK = 2048


PROPERTY_NAMES = {p.name: p for p in Prop if p.name and p is not Prop.NONE}

RULES_KEY = "rules"  # resource: tuple of rule strings in force, e.g. ("ROCK IS STOP",)
PROPS_KEY = "props"  # resource: dict kind -> Prop


def parse_rule(text: str) -> tuple[str, str]:
    """'ROCK IS STOP' -> ('rock', 'STOP'); raises ValueError on anything else."""
    parts = text.split()
    if len(parts) != 3 or parts[1] != "IS":
        raise ValueError(f"rule {text!r} is not of the form 'NOUN IS PROPERTY'")
    return parts[0].lower(), parts[2]


def masks_for(rules: tuple[str, ...]) -> dict[str, Prop]:
    """Fold 'NOUN IS PROPERTY' rules into kind -> Prop masks (other rules are ignored here)."""
    masks: dict[str, Prop] = {}
    for rule in rules:
        noun, prop = parse_rule(rule)
        flag = PROPERTY_NAMES.get(prop)
        if flag is not None:
            masks[noun] = masks.get(noun, Prop.NONE) | flag
    return masks


def set_rules(world: World, rules: tuple[str, ...]) -> None:
    world.set_resource(RULES_KEY, rules)
    world.set_resource(PROPS_KEY, masks_for(rules))


def props_of(world: World, kind: str) -> Prop:
    return world.resource(PROPS_KEY, {}).get(kind, Prop.NONE)
