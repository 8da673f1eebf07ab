"""Rulefront: a turn-based tactics engine on an entity-component-system."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
MAPS = ROOT / "maps"
