"""Walking: reach fields and the board's steps they are found through."""

from __future__ import annotations

import gc

from systems.board import Occupancy
from systems.movement import Steps, reach


def _open_board() -> Occupancy:
    return Occupancy(5, 4, frozenset({(2, 1)}), {(0, 0): "red", (4, 3): "blue"}, frozenset())


def test_a_field_is_the_same_with_or_without_kept_steps():
    occ = _open_board()
    kept = Steps(occ)
    for start, mp in (((0, 0), 3), ((1, 1), 2), ((3, 2), 4)):
        fresh = reach(occ, start, mp, "red")
        reused = reach(occ, start, mp, "red", kept)
        assert list(fresh.items()) == list(reused.items())


def test_the_steps_hold_one_tuple_per_cell_and_a_field_keys_on_them():
    occ = _open_board()
    steps = Steps(occ)
    field = reach(occ, (1, 2), 3, "red", steps)
    assert steps.cell((1, 2)) is steps.cell((1, 2))
    for cell in field:
        assert cell is steps.cell(cell)


def test_a_field_found_once_the_collector_has_seen_the_cells_is_not_tracked():
    occ = _open_board()
    steps = Steps(occ)
    reach(occ, (1, 2), 6, "red", steps)  # every cell's steps made
    gc.collect()  # the collector stops tracking tuples of ints it has seen
    for x, y, mp in ((1, 2, 6), (3, 0, 2)):
        start = (x, y)  # a new tuple, as a unit's cell is read from its Position
        assert gc.is_tracked(start)
        assert not gc.is_tracked(reach(occ, start, mp, "red", steps))
