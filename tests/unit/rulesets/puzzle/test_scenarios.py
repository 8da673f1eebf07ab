"""Rule scenarios: a tiny .keke grid, a move string, and what must be true afterwards."""

from __future__ import annotations

import pytest

from game.commands import Step
from tests.helpers import keke_level, play_keke, where

# (name, rows, moves, status, {kind: cells} expected after the moves)
SCENARIOS = [
    ("you moves one cell per step", ["b...", "B12."], "rr", "playing", {"baba": [(2, 0)]}),
    ("the map edge blocks you", ["b...", "B12."], "ll", "playing", {"baba": [(0, 0)]}),
    ("a you on a win cell wins", ["b.f.", "B12.", "F13."], "rr", "won", {}),
    ("a you that is also win wins at once", ["b...", "B12.", "B13."], "s", "won", {}),
    ("stop blocks", ["bw..", "B12.", "W16."], "r", "playing", {"baba": [(0, 0)]}),
    ("push moves the thing ahead", ["br..", "B12.", "R15."], "r", "playing",
     {"baba": [(1, 0)], "rock": [(2, 0)]}),
    ("a push chain moves whole", ["brr.", "B12.", "R15."], "r", "playing",
     {"baba": [(1, 0)], "rock": [(2, 0), (3, 0)]}),
    ("a push chain against the edge blocks", ["brrr", "B12.", "R15."], "r", "playing",
     {"baba": [(0, 0)]}),
    ("a push chain against stop blocks", ["brw.", "B12.", "R15.", "W16."], "r", "playing",
     {"baba": [(0, 0)], "rock": [(1, 0)]}),
    ("push and stop together is pushed", ["br..", "B12.", "R15.", "R16."], "r", "playing",
     {"baba": [(1, 0)], "rock": [(2, 0)]}),
    ("text is always push", [".bW.", "....", "B12."], "r", "playing", {"baba": [(2, 0)]}),
    ("defeat destroys the you, not itself", ["bs..", "B12.", "S14."], "r", "lost",
     {"baba": [], "skull": [(1, 0)]}),
    ("sink destroys both", ["bg..", "B12.", "G10."], "r", "lost", {"baba": [], "goop": []}),
    ("a pushed rock sinks with the goop", ["brg.", "B12.", "G10.", "R15."], "r", "playing",
     {"baba": [(1, 0)], "rock": [], "goop": []}),
    ("hot destroys melt, not itself", ["bl..", "B12.", "L18.", "B19."], "r", "lost",
     {"baba": [], "lava": [(1, 0)]}),
    ("hot without melt does nothing", ["bl..", "B12.", "L18."], "r", "playing",
     {"baba": [(1, 0)], "lava": [(1, 0)]}),
    ("weak breaks when shared", ["br..", "B12.", "R1%."], "r", "playing",
     {"baba": [(1, 0)], "rock": []}),
    ("open and shut destroy each other", ["brw.", "B12.", "R15.", "R1[.", "W16.", "W1]."],
     "r", "playing", {"baba": [(1, 0)], "rock": [], "wall": []}),
    ("move walks every turn", ["k...", "K17.", "B12.", "b..."], "s", "playing",
     {"keke": [(1, 0)]}),
    ("a blocked mover turns round the same turn", [".k.", "K17", "B12", "b.."], "ss",
     "playing", {"keke": [(1, 0)]}),
    ("you and move moves twice", ["b...", "B12.", "B17."], "r", "playing", {"baba": [(2, 0)]}),
    ("all yous move at once", ["bb..", "B12."], "r", "playing", {"baba": [(1, 0), (2, 0)]}),
    ("yous may share a cell", ["bkw.", "B12.", "K12.", "W16."], "r", "playing",
     {"baba": [(1, 0)], "keke": [(1, 0)]}),
    ("and joins nouns", ["b.k.", "B&K12"], "r", "playing", {"baba": [(1, 0)], "keke": [(3, 0)]}),
    ("rules read top to bottom", ["b.B", "..1", "..2"], "r", "playing", {"baba": [(1, 0)]}),
    ("x is y transforms at the end of the turn", ["br..", "B12.", "R1F.", "F13."], "", "playing",
     {"rock": [], "flag": [(1, 0)]}),
    ("a rule formed this turn transforms this turn",
     ["....", "R.F.", ".1..", ".b..", "B12.", "r..."], "u", "playing",
     {"rock": [], "flag": [(0, 5)]}),
    ("x is text turns a thing into the word that names it", ["b.r.", "B12.", "R1$."], "",
     "playing", {"rock": []}),
    ("text is x turns every word tile into a thing", ["b...", "B12.", "$1R."], "s", "lost",
     {"rock": [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)], "baba": [(0, 0)]}),
    ("x is x protects x", ["br..", "B12.", "R1F.", "R1R."], "", "playing",
     {"rock": [(1, 0)], "flag": []}),
    ("transformation happens before the win check", ["br..", "B12.", "R1F.", "F13."], "r",
     "won", {}),
    ("pushing you off its rule loses", ["...", "B12", "..b"], "u", "lost", {}),
    # Baba waits on a skull against the wall while Keke pushes KILL under SKULL IS.
    ("a rule formed under a resting you acts at once",
     ["b.sw..", ".....S", ".....1", "k4....", "B12K12", "W16..."], "rrrr", "playing",
     {"baba": [], "skull": [(2, 0)], "keke": [(4, 3)]}),
]


@pytest.mark.parametrize("name, rows, moves, status, expected", SCENARIOS,
                         ids=[s[0] for s in SCENARIOS])
def test_rule_scenario(name, rows, moves, status, expected):
    state = play_keke(rows, moves)
    assert state["status"] == status, state
    for kind, cells in expected.items():
        assert sorted(where(state, kind)) == sorted(cells), (kind, state)


def test_defeat_on_a_win_cell_loses_before_the_win_check():
    state = play_keke(["bf..", "B12.", "F13.", "F14."], "r")
    assert state["status"] == "lost"


def test_a_lost_level_can_still_be_undone():
    engine = keke_level(["bs..", "B12.", "S14."])
    engine.submit(Step("r"))
    assert engine.outcome == ("lost", "nothing IS YOU any more")
    assert engine.legal_actions() == []
    engine.undo()
    assert engine.outcome is None


def test_rules_list_in_reading_order():
    state = play_keke(["F13.", "B12.", "b..."], "")
    assert state["rules"] == ["FLAG IS WIN", "BABA IS YOU"]


def test_x_is_text_makes_a_word_that_can_spell_rules():
    rows = ["b...", "r...", ".12.", "B12.", "R1$."]  # ROCK IS TEXT: the rock is a word at once
    assert {"text": "ROCK", "x": 0, "y": 1} in play_keke(rows, "")["words"]
    assert "ROCK IS YOU" in play_keke(rows, "d")["rules"]  # pushed down in front of IS YOU
