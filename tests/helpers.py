"""What many tests share: maps drawn as text, tiny puzzle and descent levels, seeded random play,
the command line run in-process, and tournament games to compare.

One copy of each harness lives here; a test module that needs one imports it rather than
writing its own.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import pytest

from game import MAPS
from game.cli import main
from game.cli.play import level_state
from game.cli.solve import apply_moves
from game.commands import Command
from game.data import palette
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import GameMap, write_map
from game.rulesets.descent.level import parse_heights
from game.rulesets.octal.ruleset import spec_map
from game.rulesets.puzzle.keke import parse_ascii
from game.tournament.games import swapped_pairs
from systems.ai import Budget

OUTPOST = str(MAPS / "outpost.png")  # the small skirmish map most tests play on

# -- skirmish maps drawn as text ----------------------------------------------------------------

# Characters of test maps -> palette entry names.
CHARS = {
    ".": "floor", "#": "rock", "~": "water", "%": "wall", "=": "block",
    "Q": "red hq", "q": "blue hq", "T": "red tower", "t": "blue tower",
    "H": "red hero", "h": "blue hero", "B": "red bulwark", "b": "blue bulwark",
    "D": "red duelist", "d": "blue duelist", "R": "red ranger", "r": "blue ranger",
    "S": "red sage", "s": "blue sage", "P": "red pathfinder", "p": "blue pathfinder",
    "X": "red spawn", "x": "blue spawn",
}


def color_of(name: str) -> tuple[int, int, int]:
    """The colour of a palette entry, by its name ("red hq", "word IS", "lava")."""
    for color, entry in palette().items():
        if entry.name == name:
            return color
    raise KeyError(name)


def draw_cells(path: Path, width: int, height: int, cells: dict[tuple[int, int], str],
               sidecar: dict[str, Any] | None = None) -> Path:
    """Write a PNG map of palette entries by name ({(x, y): "red hq"}), floor elsewhere."""
    write_map(path, width, height, {cell: color_of(name) for cell, name in cells.items()},
              sidecar)
    return path


def draw_map(path: Path, rows: list[str], sidecar: dict[str, Any] | None = None) -> Path:
    """Write `rows` (one string per row, characters from CHARS) as a PNG map, with an optional
    sidecar."""
    cells = {(x, y): CHARS[char] for y, row in enumerate(rows)
             for x, char in enumerate(row) if char != "."}
    return draw_cells(path, len(rows[0]), len(rows), cells, sidecar)


def engine_for(tmp_path: Path, rows: list[str], sidecar: dict[str, Any] | None = None,
               seed: int = 0) -> Engine:
    """An Engine on a map drawn from `rows`."""
    return load_engine(draw_map(tmp_path / "test.png", rows, sidecar), seed=seed)


# -- puzzle levels from rows of Keke characters -------------------------------------------------

def keke_text(rows: list[str]) -> str:
    """The .keke text of `rows`, padded and walled with the border the format wants."""
    width = max(len(r) for r in rows)
    border = "_" * (width + 2)
    return "\n".join([border, *("_" + r.ljust(width, ".") + "_" for r in rows), border])


def keke_level(rows: list[str]) -> Engine:
    """An Engine on a puzzle level written as rows of Keke characters."""
    return Engine.from_game_map(parse_ascii(keke_text(rows), Path("test.keke")))


def play_keke(rows: list[str], moves: str) -> dict[str, Any]:
    """Play a move string ("rrdl s") on a Keke level; the state `play --json` would print."""
    engine = keke_level(rows)
    apply_moves(engine, moves)
    return level_state(engine)


def where(state: dict[str, Any], kind: str) -> list[tuple[int, int]]:
    """The cells of every object of `kind` in a `play --json` state."""
    return [(o["x"], o["y"]) for o in state["objects"] if o["kind"] == kind]


# -- descent boards from rows of heights --------------------------------------------------------

def descent_board(rows: list[str], **options: Any) -> Engine:
    """An Engine on a square descent heightmap ("2 1 0" per row), sidecar options added."""
    heights = parse_heights("\n".join(rows), "test")
    size = len(heights)
    return Engine.from_game_map(GameMap(Path("t.txt"), size, size, [],
                                        {"ruleset": "descent", "heights": heights, **options}))


def descent_heights(engine: Engine) -> list[list[int]]:
    """The height of every cell, row by row."""
    descent: Any = engine.ruleset
    return list(descent.heights(engine.world))


# -- octal games on heaps ------------------------------------------------------------------------

def octal_engine(code: str, heaps: list[int], misere: bool = False, seed: int = 0) -> Engine:
    """An Engine on the octal game `code` played on `heaps`."""
    return Engine.from_game_map(spec_map(code, heaps, misere), seed=seed)


# -- seeded random play -------------------------------------------------------------------------

def random_playout(engine: Engine, rng: random.Random, limit: int) -> list[Command]:
    """Submit up to `limit` legal commands chosen by `rng`, stopping when none is left; every
    one must be accepted. The commands played, in order."""
    played = []
    for _ in range(limit):
        actions = engine.legal_actions()
        if not actions:
            break
        command = rng.choice(actions)
        assert engine.submit(command).ok, command
        played.append(command)
    return played


def undo_all(engine: Engine) -> int:
    """Undo every command in the history; how many there were."""
    count = 0
    while engine.undo() is not None:
        count += 1
    assert not engine.history
    return count


# -- the command line, in-process ---------------------------------------------------------------

def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run `rulefront ARGS`: (exit code, stdout, stderr); argparse's refusals exit 2 too."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """Run `rulefront ARGS` that must succeed, and read what it printed as JSON."""
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    return json.loads(out)


# -- tournament games ---------------------------------------------------------------------------

def outpost_games(games: int = 4, replay_dir: str | None = None) -> list[Any]:
    """Heuristic against random on outpost, sides swapped in pairs, from seed 3."""
    return swapped_pairs(OUTPOST, "heuristic", "random", games, seed=3, budget=Budget(),
                         replay_dir=replay_dir)


def comparable(outcome: Any) -> dict[str, Any]:
    """A game outcome without what depends on the machine (timings) or the run (replay path)."""
    row = asdict(outcome)
    row.pop("think")
    row.pop("replay")
    return row


# -- waiting on a process outside the test ------------------------------------------------------

T = TypeVar("T")


def until(check: Callable[[], T], what: str = "the condition", seconds: float = 60.0) -> T:
    """Poll `check` until it gives something true, and return that (a screen, a picture...).

    The one way tests wait on a window, a terminal or a server they started: on an event, with
    a generous limit (a loaded CI machine is slow, and a check that holds returns at once),
    never a fixed sleep before an assertion."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if _given(found):
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting {seconds:g} s for {what}")
        time.sleep(0.05)


def _given(found: Any) -> bool:
    size = getattr(found, "size", None)  # a numpy picture is given when it has pixels
    return bool(size) if size is not None and not isinstance(found, (str, bytes)) else bool(found)
