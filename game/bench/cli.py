"""`rulefront bench cli`: how long a command takes to start, as a user's shell sees it."""

from __future__ import annotations

from typing import Any

from game.bench import process_wall_s


def cli(repeat: int = 5, **_: Any) -> dict[str, float]:
    """Medians in milliseconds: Python alone, then `rulefront --help` and two light commands
    (`match --json` includes playing its game, ~0.2 s)."""
    def ms(*argv: str) -> float:
        return 1000 * process_wall_s(list(argv), repeat)

    return {
        "cli.python_ms": ms("-c", "pass"),
        "cli.startup_ms": ms("-m", "game", "--help"),
        "cli.map_legend_ms": ms("-m", "game", "map", "legend"),
        "cli.match_json_ms": ms("-m", "game", "match", "--json"),
    }
