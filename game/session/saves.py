"""Saves: a replay plus the redo stack and each seat's RNG state, written atomically after every
command, so that `--resume` continues a game exactly; and where saves and scores live."""

from __future__ import annotations

import os
from pathlib import Path

from game.engine import Engine
from game.errors import UserError
from game.session.match import Seat
from game.session.replay import Record, record_of, write_record


def data_dir() -> Path:
    """Where Rulefront keeps saves and scores: $XDG_DATA_HOME/rulefront or ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulefront"


def default_save_path() -> Path:
    return data_dir() / "autosave.json"


def game_record(engine: Engine, seats: dict[str, Seat], seed: int) -> Record:
    """A save of the game: the replay plus redo stack and each seat's RNG (what --resume needs)."""
    record = record_of(engine, seed, {s: seat.spec for s, seat in seats.items()})
    record.rng_states = {s: _rng_state(seat) for s, seat in seats.items()}
    return record


def save_game(path: Path, engine: Engine, seats: dict[str, Seat], seed: int) -> None:
    """Write the save atomically (the terminal and the window both autosave through here)."""
    write_record(path, game_record(engine, seats, seed))


def _rng_state(seat: Seat) -> list:
    version, state, gauss = seat.rng.getstate()
    return [version, list(state), gauss]


def restore_rng(seat: Seat, raw: list) -> None:
    try:
        version, state, gauss = raw
        seat.rng.setstate((version, tuple(state), gauss))
    except (TypeError, ValueError):
        raise UserError(f"the save's RNG state for {seat.side} is broken.") from None
