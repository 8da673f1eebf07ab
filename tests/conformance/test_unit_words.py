"""Undo stays exact where words act on units: hypothesis plays a small skirmish map whose
words make units PUSH, SINK, WEAK, FAST, STRONG, FAR, TOUGH, HEAL and WIN, name sides and
classes, and can be pushed apart or together by the heroes standing next to them."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import Engine
from game.levels.loader import load_engine
from tests.conformance import checks
from tests.helpers import draw_cells

RULES = ["BLUE IS PUSH", "RED IS PUSH", "TOWER IS SINK", "HERO IS FAST", "SAGE IS STRONG",
         "RANGER IS FAR", "BULWARK IS TOUGH", "RED IS HEAL", "BLOCK IS WEAK", "MINION IS WIN"]


def _map(folder: Path) -> Path:
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (2, 1): "red sage", (3, 2): "blue ranger",
             (5, 1): "red bulwark", (6, 2): "blue bulwark", (4, 4): "red tower",
             (6, 6): "blue tower", (5, 4): "block", (1, 3): "red spawn", (8, 7): "blue spawn"}
    for row, rule in enumerate(RULES):
        y = row // 2 + 1
        x0 = 0 if row % 2 == 0 else 6
        if y >= 9:
            continue
        for i, word in enumerate(rule.split()):
            if x0 + i < 10 and (x0 + i, y + 3) not in cells:
                cells[(x0 + i, y + 3)] = f"word {word}"
    return draw_cells(folder / "unit_words.png", 10, 10, cells,
                      {"name": "unit_words", "base_rules": ["ROCK IS STOP", "TEXT IS PUSH",
                                                           "BLOCK IS PUSH"]})


_FOLDER = Path(tempfile.mkdtemp(prefix="unit_words_"))
MAP = _map(_FOLDER)


@dataclass(frozen=True)
class WordsCase:
    id: str = "skirmish-unit-words"

    def load(self, seed: int = 3) -> Engine:
        return load_engine(MAP, seed=seed)


def test_the_map_puts_unit_rules_in_force():
    from components.resources import RULES_KEY

    rules = WordsCase().load().world.resource(RULES_KEY)
    assert {"BLUE IS PUSH", "TOWER IS SINK", "SAGE IS STRONG"} <= set(rules)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=120),
       undo_points=st.lists(st.integers(min_value=0, max_value=5), max_size=120))
def test_legal_commands_undone_and_redone_in_any_order_restore_the_world(
        choices: list[int], undo_points: list[int]) -> None:
    checks.undo_and_redo_in_any_order_restore_the_world(WordsCase(), choices,  # type: ignore[arg-type]
                                                        undo_points)


@settings(max_examples=20, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_an_illegal_command_never_changes_the_world(choices: list[int]) -> None:
    checks.an_illegal_command_never_changes_the_world(WordsCase(), choices)  # type: ignore[arg-type]
