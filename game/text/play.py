"""Hotseat in the terminal: the board as text, the legal actions numbered, one prompt per action.

Humans type a number, `u` undo, `r` redo, `e` end turn, `s` save, `q` quit, or the keys the
player's settings bind to those actions (game/session/settings.py). AI seats play on their
own. The game is saved atomically after every command, so `--resume` picks it up exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from components.match import DRAW
from game.commands import Command, EndTurn
from game.engine import Engine, Impossible
from game.session.match import Seat
from game.session.narrate import names, sentences
from game.session.replay import Record
from game.session.saves import game_record, save_game
from game.session.seat import Forfeited, step
from game.session.settings import Settings
from game.session.undo import redo_turn, undo_turn
from game.text.board import words_line
from systems.ai import Budget

HELP = "type an action's number, u undo, r redo, e end turn, s save, q quit"
LETTERS = {"undo": "u", "redo": "r", "end_turn": "e", "save": "s", "quit": "q"}


class TextGame:
    """One terminal session: reads lines from `stdin`, writes the view to `out`."""

    def __init__(self, engine: Engine, seats: dict[str, Seat], seed: int, save_path: Path,
                 read: Callable[[str], str], out: TextIO, settings: Settings | None = None) -> None:
        self.engine = engine
        self.typed = (settings or Settings()).typed(LETTERS)  # the player's keys -> letters
        names = {letter: action.replace("_", " ") for action, letter in LETTERS.items()}
        self.help = HELP + "".join(f", {key} {names[letter]}"
                                   for key, letter in self.typed.items())
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
        self.say(engine.ruleset.text_board(engine.world))
        words = words_line(engine.world)
        if words:
            self.say(words)
        for line in engine.ruleset.status_lines(engine.world):
            self.say(line)

    def play(self, command: Command, prefix: str = "  ") -> Impossible | None:
        """Submit one command and tell what it did in sentences ('red ranger hits ...')."""
        before = names(self.engine.world)
        result = self.engine.submit(command)
        if isinstance(result, Impossible):
            return result
        for line in sentences(self.engine.world, self.engine.history[-1].events, before):
            self.say(f"{prefix}{line}")
        return None

    def run(self) -> int:
        engine = self.engine
        while not engine.over:
            seat = self.seats[engine.side]
            if seat.ai is not None:
                outcome = step(seat, engine, Budget())
                if isinstance(outcome, Forfeited):
                    self.say(f"game over: {seat.side} forfeits ({outcome.reason})")
                    save_game(self.save_path, engine, self.seats, self.seed, outcome)
                    return 0
                self.play(outcome.command, f"{seat.side} ({seat.spec}): ")
                self.save()
                continue
            if not self.human_turn():
                self.save()
                self.say(f"saved to {self.save_path}; continue with --resume {self.save_path}")
                return 0
        self.show()
        winner, reason = engine.outcome or (DRAW, "")
        self.say(f"game over: {winner} ({reason})")
        self.save()
        return 0

    def human(self, side: str) -> bool:
        seat = self.seats.get(side)
        return seat is None or seat.ai is None

    def human_turn(self) -> bool:
        """Ask for one action; False when the player quits."""
        engine = self.engine
        self.show()
        actions = engine.legal_actions()
        for index, command in enumerate(actions, 1):
            self.say(f"{index:3}. {engine.ruleset.describe_command(engine.world, command)}")
        while True:
            try:
                line = self.read(f"{engine.side}> ").strip().lower()
            except EOFError:
                return False
            line = self.typed.get(line, line)
            if line == "q":
                return False
            if line == "u":  # back to this player's last action: the AI's replies go too
                if not undo_turn(engine, self.human):
                    self.say("Nothing to undo.")
                    continue
                self.save()
                return True
            if line == "r":  # and the AI's undone replies again, not a new turn of its own
                if not redo_turn(engine, self.human):
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
            if line.isascii() and line.isdigit() and len(line) <= 9 \
                    and 1 <= int(line) <= len(actions):
                result = self.play(actions[int(line) - 1])
                if result is not None:  # never for a listed action, but never hidden
                    self.say(result.reason)
                    continue
                self.save()
                return True
            shown = line if len(line) <= 40 else f"{line[:37]}..."
            self.say(f"'{shown}' is not an action here: {self.help}.")
