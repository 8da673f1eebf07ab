"""Puzzle and descent levels in the terminal, and as text: the board drawn with Keke's legend
(puzzle) or as heights with the ball (descent), and a small read-move loop with undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from components import Kind, Position, Word
from game.commands import Step, Wait
from game.engine import Engine
from game.rulesets.puzzle.keke import THINGS, WORDS

THING_CHARS = {kind: char for char, kind in THINGS.items()}
WORD_CHARS = {text: char for char, text in WORDS.items()}
HELP = "moves: u d l r, s wait, z undo, y redo, q quit"


def puzzle_text(engine: Engine) -> str:
    """The board in Keke's ASCII legend, framed by the '_' border (kinds outside the legend
    show their first letter; the highest id shows where things share a cell)."""
    world = engine.world
    width, height = world.resource("size")
    rows = [["."] * width for _ in range(height)]
    for entity, (kind, pos) in world.query(Kind, Position):
        if kind.name == "text":
            text = world.get(entity, Word).text
            char = WORD_CHARS.get(text, text[:1].upper())
        else:
            char = THING_CHARS.get(kind.name, kind.name[:1])
        rows[pos.y][pos.x] = char
    border = "_" * (width + 2)
    return "\n".join([border, *("_" + "".join(r) + "_" for r in rows), border])


def descent_text(engine: Engine) -> str:
    """Heights row by row; the ball's cell is marked with '*', the exit with '>'."""
    rules: Any = engine.ruleset
    world = engine.world
    heights = rules.heights(world)
    ball = rules.ball(world)
    exit_cell = tuple(world.resource("exit"))
    lines = []
    for y, row in enumerate(heights):
        cells = []
        for x, h in enumerate(row):
            mark = "*" if (x, y) == ball else ">" if (x, y) == exit_cell else " "
            cells.append(f"{h:>2}{mark}")
        lines.append(" ".join(cells))
    return "\n".join(lines)


def level_text(engine: Engine) -> str:
    if engine.ruleset.name == "descent":
        return descent_text(engine)
    return puzzle_text(engine)


def play_text(engine: Engine, read: Callable[[str], str], out: TextIO) -> int:
    """Read moves until the level is won or the player quits; undo works after a loss."""
    while True:
        print(level_text(engine), file=out)
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
                if not result.ok:
                    print(result.reason, file=out)  # type: ignore[union-attr]
            else:
                print(HELP, file=out)
        if engine.outcome and engine.outcome[0] == "player":
            print(level_text(engine), file=out)
            print(f"won in {len(engine.history)} moves", file=out)
            return 0
