"""The golden picture of every view, drawn by `rulefront render` itself.

When the look changes on purpose, regenerate them all from the repository root and review the
pictures by eye before committing:

    python -m tests.integration.regenerate_views
"""

from __future__ import annotations

from pathlib import Path

GOLDEN = Path(__file__).parent / "golden"
SIZE = "640x480"
# view -> the `rulefront render` arguments that draw it (a mid-game skirmish shows hp bars,
# minions and facings; the levels and the octal heaps are drawn at their start).
VIEWS = {
    "skirmish": ["maps/outpost.png", "--moves", "30", "--seed", "1"],
    "puzzle": ["maps/puzzles/first-steps.keke"],
    "descent": ["maps/descent/level-05.txt"],
    "octal": ["maps/octal/sticks.png"],
}


def render_args(view: str, out: Path) -> list[str]:
    return ["render", *VIEWS[view], "-o", str(out), "--size", SIZE]


def main() -> int:
    from game.cli import main as cli

    for view in VIEWS:
        code = cli(render_args(view, GOLDEN / f"{view}.png"))
        if code:
            return code
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
