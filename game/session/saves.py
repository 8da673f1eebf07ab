"""Saves: a replay plus the redo stack and each seat's RNG state, written atomically after every
command, so that `--resume` continues a game exactly; and where saves and scores live."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine import Engine
from game.errors import UserError
from game.levels.files import sweep_temporaries
from game.session.replay import Record, record_of, write_record
from game.session.seat import Forfeited, Seat
from systems.ai.base import plugin_class

if TYPE_CHECKING:
    from game.session.narrate import Told


def data_dir() -> Path:
    """Where Rulefront keeps saves and scores: $XDG_DATA_HOME/rulefront or ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulefront"


def default_save_path() -> Path:
    return data_dir() / "autosave.json"


def game_record(engine: Engine, seats: dict[str, Seat], seed: int,
                forfeit: Forfeited | None = None, log: Sequence[Told] = ()) -> Record:
    """A save of the game: the replay plus redo stack and each seat's RNG (what --resume needs),
    the forfeit that ended it, if a seat gave up, and the log as it was told."""
    specs = {s: seat.spec for s, seat in seats.items()}
    if forfeit is None:
        record = record_of(engine, seed, specs)
    else:
        record = record_of(engine, seed, specs, forfeit.to_json(), forfeit.winner(engine))
    record.rng_states = {s: _rng_state(seat) for s, seat in seats.items()}
    record.log = [told.to_json() for told in log]
    return record


_swept: set[Path] = set()  # saves whose stale temporaries this process has removed


def save_game(path: Path, engine: Engine, seats: dict[str, Seat], seed: int,
              forfeit: Forfeited | None = None, log: Sequence[Told] = ()) -> None:
    """Write the save atomically (the terminal and the window both autosave through here);
    the first save to a path in a run sweeps the temporaries a killed run left beside it."""
    path = Path(path)
    if path not in _swept:
        sweep_temporaries(path)
        _swept.add(path)
    write_record(path, game_record(engine, seats, seed, forfeit, log))


def told_of(record: Record) -> list[Told] | None:
    """The log a save kept (None when it kept none: an older save, or a replay)."""
    from game.session.narrate import Told

    if not record.log:
        return None
    return [Told(entry["round"], entry["side"], tuple(entry["lines"])) for entry in record.log]


def _rng_state(seat: Seat) -> list:
    version, state, gauss = seat.rng.getstate()
    return [version, list(state), gauss]


def check_resumable(record: Record, sides: Sequence[str], source: str | Path) -> None:
    """Refuse a save that lacks what exact resume needs (a seat and its random state for
    every side of the game), or whose game a seat's forfeit ended."""
    forfeit = (record.result or {}).get("forfeit")
    if isinstance(forfeit, dict):
        raise UserError(f"{source}: this game ended when {forfeit.get('side', 'a side')} "
                        f"forfeited ({forfeit.get('reason', 'no reason given')}), so there is "
                        "nothing to resume; replay it with `rulefront replay` or start a new "
                        "game.")
    missing = [side for side in sides
               if side not in record.seats or side not in record.rng_states]
    if missing:
        raise UserError(f"{source}: has no random state for {' and '.join(missing)}, so it "
                        "cannot resume exactly; replay it with `rulefront replay` or start a "
                        "new game.")


def resumed_seats(engine: Engine, record: Record, source: str | Path,
                  trusted: Collection[str] = ()) -> dict[str, Seat]:
    """The seats of a save, each with its random state back, as `play --resume` continues
    them; a save that cannot resume exactly (a side without its state, an AI this Rulefront
    does not know, a broken state) is a UserError naming the save.

    Nothing in a file chooses code to run: a seat naming a plug-in class (`module:Class`) is
    refused before anything is imported, unless the command line names that seat too
    (`trusted`); built-in AIs and those installed packages offer by entry point are fine."""
    from game.session.seat import make_seats

    check_resumable(record, engine.ruleset.sides, source)
    for side, spec in record.seats.items():
        if plugin_class(spec) and spec not in trusted:
            raise UserError(f"{source}: the {side} seat is the plug-in class '{spec}', and a "
                            "file may only seat built-in or installed AIs (so that opening it "
                            "runs no code it names); if you trust that class, resume with "
                            f"--{side} {spec}.")
    try:
        seats = make_seats(engine, record.seats, record.seed)
    except UserError as exc:
        raise UserError(f"{source}: {str(exc).rstrip('.')}.") from None
    for side, raw in record.rng_states.items():
        if side in seats:
            restore_rng(seats[side], raw, source)
    return seats


def restore_rng(seat: Seat, raw: list, source: str | Path = "the save") -> None:
    try:
        version, state, gauss = raw
        seat.rng.setstate((version, tuple(state), gauss))
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{source}: the random state for {seat.side} is broken; start a new "
                        "game or replay it with `rulefront replay`.") from None
