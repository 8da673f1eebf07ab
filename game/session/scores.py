"""Per-player best scores (fewest moves per level), kept in one JSON file in the user data
directory. Writes are atomic; a file that cannot be read is set aside with a warning, never
lost or overwritten."""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any

from game.data import parse_json, read_text
from game.errors import UserError
from game.levels.files import atomic_write
from game.session.saves import data_dir


def scores_path() -> Path:
    return data_dir() / "scores.json"


def load_scores(path: Path | None = None) -> dict[str, dict[str, int]]:
    """level -> {player: best moves}, read through the one reader and the strict JSON parser
    (game.data); a corrupt file is renamed aside and an empty table used. A pipe or device
    where the table should be is refused, never read (it would block) nor moved."""
    path = path or scores_path()
    if not os.path.lexists(path):
        return {}
    try:
        info = os.stat(path)
    except OSError:
        info = None  # a dangling link: read_text says so, and it is set aside below
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise UserError(f"{path}: is not a regular file (a folder, pipe or device); move it "
                        "away so Rulefront can keep its score table there.")
    try:
        raw: Any = parse_json(read_text(path, "score table"), path, "score table")
        if not isinstance(raw, dict) or not all(
                isinstance(v, dict) and all(type(n) is int and n >= 0 for n in v.values())
                for v in raw.values()):
            raise UserError(f"{path}: is not a table of level -> {{player: moves}}.")
        return raw
    except UserError as exc:
        aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
        try:
            path.rename(aside)
        except OSError as error:
            raise UserError(f"{str(exc).rstrip('.')}, and it cannot be set aside "
                            f"({error.strerror}); move it away.") from None
        print(f"rulefront: warning: {str(exc).rstrip('.')}; kept it as {aside} and started a "
              "new score table.", file=sys.stderr)
        return {}


def record_score(level: str, player: str, moves: int, path: Path | None = None) -> bool:
    """Keep `moves` if it beats the player's best on `level`; True when it is a new best."""
    path = path or scores_path()
    table = load_scores(path)
    row = dict(table.get(level, {}))
    if player in row and row[player] <= moves:
        return False
    row[player] = moves
    table[level] = row
    atomic_write(path, (json.dumps(table, indent=1, sort_keys=True) + "\n").encode())
    return True
