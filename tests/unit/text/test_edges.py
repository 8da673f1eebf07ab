"""The terminal asks each ruleset's spec how it is played and drawn: `input_mode` picks the keys
(never guessed from the commands), `text_cell` draws the cells a ruleset draws its own way
(descent's ball and exit), and the grid's drawing knows none of them."""

from __future__ import annotations

import dataclasses

import pytest

from game import registry
from game.errors import UserError
from game.levels.loader import load_engine
from game.text.board import cell_reader, cells
from game.text.cursor import MODES, Cursor, mode_of
from tests.helpers import MAPS, descent_board, octal_engine


@pytest.mark.parametrize("spec", registry.specs(), ids=lambda spec: spec.name)
def test_every_ruleset_names_an_input_mode_the_terminal_knows(spec) -> None:
    assert spec.input_mode in MODES


@pytest.mark.parametrize(("engine", "mode"), [
    (lambda: load_engine(MAPS / "duel.png"), "grid"),
    (lambda: load_engine(MAPS / "puzzles" / "first-steps.keke"), "steps"),
    (lambda: descent_board(["2 1", "1 0"]), "steps"),
    (lambda: octal_engine("0.137", [3, 5]), "heaps"),
], ids=["skirmish", "puzzle", "descent", "octal"])
def test_the_cursor_takes_its_mode_from_the_spec(engine, mode: str) -> None:
    made = engine()
    assert mode_of(made) == mode and Cursor(made).mode == mode


def test_a_mode_the_terminal_does_not_know_is_one_sentence(monkeypatch) -> None:
    engine = octal_engine("0.137", [3, 5])
    spec = registry.spec("octal")
    monkeypatch.setitem(registry._SPECS, "octal", dataclasses.replace(spec, input_mode="dial"))
    with pytest.raises(UserError, match=r"^the octal ruleset's input mode 'dial' is not one "
                                        r"the terminal knows \(grid, steps, heaps\)\.$"):
        mode_of(engine)


def test_descents_ball_and_exit_come_from_its_text_cell_edge_not_the_grid() -> None:
    engine = descent_board(["2 1 0", "1 1 0", "0 0 0"])
    descent = engine.ruleset
    ball = descent.ball(engine.world)  # type: ignore[attr-defined]
    grid = cells(engine.world)  # the grid's drawing alone
    own = cells(engine.world, cell_reader(engine))
    roles = {cell.role for row in grid for cell in row}
    assert "ball" not in roles and "exit" not in roles
    assert own[ball[1]][ball[0]].text == "o" and own[ball[1]][ball[0]].role == "ball"
    assert [cell.role for row in own for cell in row].count("exit") == 1
    # every other cell is the grid's
    assert sum(a != b for ra, rb in zip(grid, own, strict=True)
               for a, b in zip(ra, rb, strict=True)) == 2


def test_a_ruleset_without_a_text_cell_edge_is_drawn_by_the_grid() -> None:
    engine = load_engine(MAPS / "duel.png")
    assert cells(engine.world, cell_reader(engine)) == cells(engine.world)
