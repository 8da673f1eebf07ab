"""Rulefront: a turn-based tactics engine on an entity-component-system."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _shipped_folder(name: str) -> Path:
    """data/ or maps/: the copy a wheel installs as game/assets/NAME, else the checkout's own.

    A checkout, or an editable install of one, has no copy under game/assets/, so the
    top-level folder beside game/ is read where designers edit it.
    """
    shipped = files("game.assets") / name
    if isinstance(shipped, Path) and shipped.is_dir():
        return shipped
    return ROOT / name


DATA = _shipped_folder("data")
MAPS = _shipped_folder("maps")
