"""The look of each ruleset's screen in an 80x24 terminal, pinned as SVG snapshots
(pytest-textual-snapshot). After a deliberate change of the look, rewrite them with
`python -m pytest tests/unit/text/test_snapshots.py --snapshot-update` and read the diff."""

from __future__ import annotations

from pathlib import Path

from game.engine import Engine
from game.levels.loader import load_engine
from game.session.match import make_seats
from game.text.app import RulefrontApp
from tests.helpers import MAPS, octal_engine


def app_for(engine: Engine, blue: str = "heuristic") -> RulefrontApp:
    seats = make_seats(engine, {"red": "human", "blue": blue}, 0)
    return RulefrontApp(engine, seats, 0, None, ai_delay=3600.0)


def test_skirmish_with_a_unit_selected(snap_compare) -> None:
    app = app_for(load_engine(MAPS / "crossing.png", seed=0))
    assert snap_compare(app, press=["enter"], terminal_size=(80, 24))


def test_puzzle(snap_compare) -> None:
    app = app_for(load_engine(MAPS / "puzzles" / "first-steps.keke", seed=0))
    assert snap_compare(app, press=["right"], terminal_size=(80, 24))


def test_descent(snap_compare) -> None:
    app = app_for(load_engine(MAPS / "descent" / "level-03.txt", seed=0))
    assert snap_compare(app, press=["right"], terminal_size=(80, 24))


def test_octal_heaps(snap_compare) -> None:
    app = app_for(octal_engine("0.137", [7, 9, 12]), blue="perfect")
    assert snap_compare(app, press=["down", "right"], terminal_size=(80, 24))


def test_a_narrow_terminal_folds_the_panel(snap_compare, tmp_path: Path) -> None:
    app = app_for(load_engine(MAPS / "crossing.png", seed=0))
    assert snap_compare(app, terminal_size=(60, 20))
