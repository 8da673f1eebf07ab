"""Board geometry shared by the systems: the cells a line of sight crosses."""

from __future__ import annotations

from systems.board import line_cells


def test_line_cells_excludes_the_endpoints_and_is_symmetric_in_length():
    assert line_cells((0, 0), (3, 0)) == [(1, 0), (2, 0)]
    assert len(line_cells((0, 0), (3, 2))) == len(line_cells((3, 2), (0, 0)))
    assert line_cells((0, 0), (1, 1)) == []
