"""Sides, hit points and what a unit may still do this turn."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Team:
    """The side a unit or building fights for: 'red' or 'blue'."""

    side: str


@dataclass(slots=True)
class Health:
    hp: int
    max_hp: int


@dataclass(slots=True)
class Attack:
    """Damage dealt per hit and the Manhattan range it reaches."""

    damage: int
    range: int


@dataclass(slots=True)
class Moves:
    """Move points left this turn and the number restored at the start of each turn."""

    mp: int
    max_mp: int


@dataclass(slots=True)
class Actions:
    """Attacks left this turn and the number restored at the start of each turn."""

    ap: int
    max_ap: int


@dataclass(slots=True)
class UnitClass:
    """The hero class a unit was built from (data/units.yaml)."""

    name: str
