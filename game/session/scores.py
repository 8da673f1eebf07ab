"""Per-player best scores (fewest moves per level), kept in one JSON file in the user data
directory. Writes are atomic; a file that cannot be read is set aside with a warning, never
lost or overwritten."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from game.levels.maps import atomic_write
from game.session.saves import data_dir


def scores_path() -> Path:
    return data_dir() / "scores.json"


def load_scores(path: Path | None = None) -> dict[str, dict[str, int]]:
    """level -> {player: best moves}; a corrupt file is renamed aside and an empty table used."""
    path = path or scores_path()
    if not path.exists():
        return {}
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(raw, dict) or not all(
                isinstance(v, dict) and all(isinstance(n, int) for n in v.values())
                for v in raw.values()):
            raise ValueError("not a table of level -> {player: moves}")
        return raw
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        aside = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
        path.rename(aside)
        print(f"rulefront: warning: {path} could not be read ({exc}); kept it as {aside} and "
              "started a new score table.", file=sys.stderr)
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
