"""Hotseat in the terminal: the board as text, the legal actions numbered, one prompt per action.

Humans type a number, `u` undo, `r` redo, `e` end turn, `s` save, `q` quit. AI seats play on
their own. The game is saved atomically after every command, so `--resume` picks it up exactly.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from game.commands import EndTurn
from game.engine import Engine
from game.errors import UserError
from game.rulesets.skirmish.board import board, describe_command
from game.session.match import Seat
from game.session.replay import Record, record_of, write_record
from systems.ai import Budget

HELP = "type an action's number, u undo, r redo, e end turn, s save, q quit"


def data_dir() -> Path:
    """Where Rulefront keeps saves and scores: $XDG_DATA_HOME/rulefront or ~/.local/share."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulefront"


def default_save_path() -> Path:
    return data_dir() / "autosave.json"


class TextGame:
    """One terminal session: reads lines from `stdin`, writes the view to `out`."""

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int, save_path: Path,
                 read: Callable[[str], str], out: TextIO) -> None:
        self.engine = engine
        self.seats = seats
        self.seed = seed
        self.save_path = save_path
        self.read = read
        self.out = out

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def record(self) -> Record:
        return game_record(self.engine, self.seats, self.seed)

    def save(self, path: Path | None = None) -> None:
        save_game(path or self.save_path, self.engine, self.seats, self.seed)

    def show(self) -> None:
        engine = self.engine
        self.say("")
        self.say(f"== {engine.ruleset.describe(engine.world)}")
        self.say(board(engine.world))
        for line in engine.ruleset.status_lines(engine.world):
            self.say(line)

    def run(self) -> int:
        engine = self.engine
        while not engine.over:
            seat = self.seats[engine.side]
            if seat.ai is not None:
                command = seat.ai.choose(engine, seat.rng, Budget())
                self.say(f"{seat.side} ({seat.spec}): {describe_command(engine, command)}")
                engine.submit(command)
                self.save()
                continue
            if not self.human_turn():
                self.save()
                self.say(f"saved to {self.save_path}; continue with --resume {self.save_path}")
                return 0
        self.show()
        winner, reason = engine.outcome or ("draw", "")
        self.say(f"game over: {winner} ({reason})")
        self.save()
        return 0

    def human_turn(self) -> bool:
        """Ask for one action; False when the player quits."""
        engine = self.engine
        self.show()
        actions = engine.legal_actions()
        for index, command in enumerate(actions, 1):
            self.say(f"{index:3}. {describe_command(engine, command)}")
        while True:
            try:
                line = self.read(f"{engine.side}> ").strip().lower()
            except EOFError:
                return False
            if line == "q":
                return False
            if line == "u":
                if engine.undo() is None:
                    self.say("Nothing to undo.")
                    continue
                self.save()
                return True
            if line == "r":
                if engine.redo() is None:
                    self.say("Nothing to redo.")
                    continue
                self.save()
                return True
            if line == "s":
                self.save()
                self.say(f"saved to {self.save_path}")
                continue
            if line == "e":
                line = str(actions.index(EndTurn()) + 1)
            if line.isdigit() and 1 <= int(line) <= len(actions):
                result = engine.submit(actions[int(line) - 1])
                if not result.ok:  # cannot happen for a listed action, but never hide it
                    self.say(result.reason)  # type: ignore[union-attr]
                    continue
                self.save()
                return True
            self.say(f"'{line}' is not an action here: {HELP}.")


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
