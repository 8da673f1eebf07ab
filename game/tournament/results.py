"""A tournament's results file: one finished game per JSON line, so `--resume` can continue.

Each line is a GameOutcome plus the spec it answers (map, seats, seed, budget). Lines are
appended and flushed as games finish, so a crash or Ctrl-C loses at most the line being
written; a torn last line is ignored on resume and cut off before new lines are appended.
Nothing ever empties the file. Errors are recorded too, and played again on
resume.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, fields
from pathlib import Path
from typing import IO, Any

from game.data import parse_json, read_text
from game.errors import UserError
from game.tournament.games import GameOutcome, GameSpec

OUTCOME_FIELDS = {f.name for f in fields(GameOutcome)}
MAX_RESULTS_BYTES = 512 * 2**20  # about a million games
MAX_LINE_BYTES = 2**20  # far more than one game's line


def spec_key(spec: GameSpec) -> dict[str, Any]:
    """What must match for a recorded game to stand for this spec."""
    return {"map": spec.map, "red": spec.red, "blue": spec.blue, "seed": spec.seed,
            "budget": [spec.budget.seconds, spec.budget.nodes]}


def recorded(path: Path, specs: list[GameSpec]) -> list[GameOutcome]:
    """Outcomes in `path` that answer one of `specs` exactly (not errors), first one wins."""
    if not path.exists():
        return []
    wanted = {s.index: spec_key(s) for s in specs}
    found: dict[int, GameOutcome] = {}
    import msgspec

    text = read_text(path, "results file", MAX_RESULTS_BYTES)
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        torn = number == len(lines) and not text.endswith("\n")  # a crash cut it mid-write
        try:
            # The one strict parser (no repeated keys, no endless numbers, no NaN).
            row = parse_json(line, f"{path}: line {number}", "recorded game")
            if not isinstance(row, dict):
                raise TypeError("not an object")
            # The GameOutcome dataclass is the line's schema: msgspec checks every field's type.
            outcome = msgspec.convert({k: v for k, v in row.items() if k in OUTCOME_FIELDS},
                                      GameOutcome, strict=True)
        except UserError as exc:
            if torn:
                continue
            raise UserError(f"{str(exc).rstrip('.')}; was this file written by --results?") \
                from None
        except (TypeError, msgspec.ValidationError) as exc:
            if torn:
                continue
            detail = f" ({exc})" if isinstance(exc, msgspec.ValidationError) else ""
            raise UserError(f"{path}: line {number} is not a recorded game{detail}; "
                            "was this file written by --results?") from None
        if (outcome.error is None and outcome.index not in found
                and wanted.get(outcome.index) == row.get("spec")):
            found[outcome.index] = outcome
    return [found[i] for i in sorted(found)]


class ResultsFile:
    """Appends one JSON line per finished game and flushes it at once. The file is never
    emptied or rewritten: a new tournament adds its lines after the ones it holds (`recorded`
    picks a tournament's own games out by their spec), and only a torn last line, a game a
    crash cut mid-write, is cut off first so the next line starts clean."""

    def __init__(self, path: Path, specs: list[GameSpec]) -> None:
        self.specs = {s.index: s for s in specs}
        try:
            with path.open("ab+") as raw:
                size = raw.seek(0, os.SEEK_END)
                raw.seek(max(0, size - MAX_LINE_BYTES))
                tail = raw.read()
                if tail and not tail.endswith(b"\n"):
                    raw.truncate(size - len(tail) + tail.rfind(b"\n") + 1)
            self.handle: IO[str] = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: cannot append to the results file: "
                            f"{exc.strerror or exc}.") from None

    def line(self, outcome: GameOutcome) -> str:
        return json.dumps(asdict(outcome) | {"spec": spec_key(self.specs[outcome.index])}) + "\n"

    def __call__(self, outcome: GameOutcome) -> None:
        self.handle.write(self.line(outcome))
        self.handle.flush()

    def close(self) -> None:
        self.handle.close()
