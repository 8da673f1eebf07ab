"""Plain data for the ECS: slotted dataclasses that only the World mutates.

Components refer to other entities by id, never by reference, and hold no behaviour.
"""

from __future__ import annotations

from components.combat import Actions, Attack, Health, Moves, Team, UnitClass
from components.identity import Kind, Word
from components.match import Turn
from components.spatial import Facing, Height, Position
from components.spawning import Spawner, SpawnPoint

__all__ = [
    "Actions",
    "Attack",
    "Facing",
    "Health",
    "Height",
    "Kind",
    "Moves",
    "Position",
    "SpawnPoint",
    "Spawner",
    "Team",
    "Turn",
    "UnitClass",
    "Word",
]
