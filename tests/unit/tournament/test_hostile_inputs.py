"""A tournament refuses, before any game, what would fail every game or hang it: a map its
ruleset cannot set up (a PNG with no headquarters), a sidecar that is a named pipe; and a
results file is read by the strict parser, line by line (a repeated key or an endless number
is one sentence; only a torn last line is skipped)."""

from __future__ import annotations

import os
import shutil

import pytest

from game import MAPS
from tests.helpers import OUTPOST, draw_cells, run_cli


@pytest.mark.parametrize("cells,reason", [({}, "no red headquarters"),
                                          ({(0, 0): "red hq"}, "no red hero")])
def test_a_map_no_game_can_start_on_is_refused_before_any_game(tmp_path, capsys, cells, reason):
    bad = draw_cells(tmp_path / "junk.png", 6, 6, cells)
    results = tmp_path / "games.jsonl"
    code, out, err = run_cli(capsys, "tournament", "--maps", f"{OUTPOST},{bad}", "--ais",
                             "random,heuristic", "--games", "2", "--results", str(results))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "junk.png" in err and reason in err
    assert not results.exists() or results.read_text() == ""


def test_a_sidecar_that_is_a_pipe_is_refused_not_read(tmp_path, capsys):
    shutil.copy(MAPS / "outpost.png", tmp_path / "piped.png")
    os.mkfifo(tmp_path / "piped.yaml")
    code, _, err = run_cli(capsys, "tournament", "--maps", str(tmp_path / "piped.png"),
                           "--ais", "random,heuristic", "--games", "2")
    assert code == 2 and "piped.yaml: is not a regular file" in err


@pytest.mark.parametrize("line,says", [
    ('{"index": 0, "index": 1}', "given twice"),
    ('{"index": 1' + "0" * 40 + "}", "over 18 digits"),
    ('{"index": NaN}', "not a number Rulefront reads"),
])
def test_a_results_line_the_strict_parser_refuses_is_one_sentence(tmp_path, capsys, line, says):
    results = tmp_path / "games.jsonl"
    results.write_text(line + "\n")
    code, _, err = run_cli(capsys, "tournament", "--maps", OUTPOST, "--ais", "random,heuristic",
                           "--games", "2", "--results", str(results), "--resume")
    assert code == 2 and err.count("\n") == 1
    assert "line 1" in err and says in err and "--results" in err
    assert results.read_text() == line + "\n"  # never emptied


def test_a_results_file_that_is_a_pipe_is_refused(tmp_path, capsys):
    results = tmp_path / "games.jsonl"
    os.mkfifo(results)
    code, _, err = run_cli(capsys, "tournament", "--maps", OUTPOST, "--ais", "random,heuristic",
                           "--games", "2", "--results", str(results), "--resume")
    assert code == 2 and "not a regular file" in err
