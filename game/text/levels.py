"""Puzzle and descent levels in the terminal: the ruleset's text board and a small read-move
loop with undo. A level is never saved, so q asks first once moves have been played."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from components.match import PLAYER
from game.commands import Step, Wait
from game.engine import Engine, Impossible
from game.session.settings import Settings
from game.text.board import words_line

HELP = "moves: u d l r, s wait, z undo, y redo, q quit"
LETTERS = {"undo": "z", "redo": "y", "quit": "q"}


def play_text(engine: Engine, read: Callable[[str], str], out: TextIO,
              settings: Settings | None = None) -> int:
    """Read moves until the level is won or the player quits; undo works after a loss. A key
    the player's settings bind to undo, redo or quit (one letter) does it here too."""
    typed = (settings or Settings()).typed(LETTERS)
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
            letter = typed.get(letter, letter)
            if letter == "q":
                if leave(engine, read, out):
                    return 0
                break  # kept playing: the rest of the line is not played
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


def leave(engine: Engine, read: Callable[[str], str], out: TextIO) -> bool:
    """Whether q quits: at once when nothing would be lost (no move yet, or the level is
    over), else only when the player says so (the end of input says so too)."""
    moves = len(engine.history)
    if not moves or engine.over:
        return True
    print(f"quit? this level is not saved ({moves} move{'s' if moves > 1 else ''} played): "
          "q or y quits, anything else keeps playing", file=out)
    try:
        answer = read("quit? ").strip().lower()
    except EOFError:
        return True
    return answer in ("q", "y", "yes")
