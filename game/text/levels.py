"""Puzzle and descent levels in the terminal: the ruleset's text board and a small read-move
loop with undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from components.match import PLAYER
from game.commands import Step, Wait
from game.engine import Engine, Impossible
from game.text.board import words_line

HELP = "moves: u d l r, s wait, z undo, y redo, q quit"


def play_text(engine: Engine, read: Callable[[str], str], out: TextIO) -> int:
    """Read moves until the level is won or the player quits; undo works after a loss."""
    while True:
        print(engine.ruleset.text_board(engine.world), file=out)
        if words_line(engine.world):
            print(words_line(engine.world), file=out)
        print(f"== {engine.ruleset.describe(engine.world)}; moves {len(engine.history)}",
              file=out)
        if engine.outcome:
            print(f"game over: {engine.outcome[0]} ({engine.outcome[1]}); z undoes", file=out)
        try:
            line = read("> ").strip().lower()
        except EOFError:
            return 0
        for letter in line:
            if letter == "q":
                return 0
            if letter == "z":
                engine.undo()
            elif letter == "y":
                engine.redo()
            elif letter in "udlrs":
                result = engine.submit(Wait() if letter == "s" else Step(letter))
                if isinstance(result, Impossible):
                    print(result.reason, file=out)
            else:
                print(HELP, file=out)
        if engine.outcome and engine.outcome.winner == PLAYER:
            print(engine.ruleset.text_board(engine.world), file=out)
            print(f"won in {len(engine.history)} moves", file=out)
            return 0
