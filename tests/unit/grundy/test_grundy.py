"""Grundy values: the fast solver agrees with the plain reference, and known answers hold."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.errors import UserError
from game.grundy.codes import parse_code
from game.grundy.periodicity import find_period, prove_period, solve
from game.grundy.solver import Solver, grundy_reference
from game.progress import Progress

G137 = "0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0 1 1 2 0 3"


def test_first_values_of_0137_match_the_literature() -> None:
    assert solve(parse_code("0.137"), 40).values.tolist() == [int(x) for x in G137.split()]


@pytest.mark.parametrize(
    ("code", "preperiod", "period"),
    [("0.07", 53, 34), ("0.137", 52, 34), ("0.77", 71, 12), ("0.51", 1, 1), ("0.52", 4, 4), ("0.53", 11, 9)],
)
def test_known_periods_are_proven_with_preperiod_counting_heap_0(code: str, preperiod: int, period: int) -> None:
    found = prove_period(parse_code(code), 100_000).period
    assert found is not None
    assert (found.preperiod, found.period) == (preperiod, period)


@settings(max_examples=150, deadline=None)
@given(digits=st.lists(st.integers(0, 7), min_size=1, max_size=4), n=st.integers(0, 200))
def test_fast_solver_matches_reference_on_random_codes(digits: list[int], n: int) -> None:
    game = parse_code("0." + "".join(map(str, digits)))
    assert solve(game, n + 1).values.tolist() == grundy_reference(game, n)


@pytest.mark.parametrize("code", ["0.6", "0.16", "0.376", "0.127", "0.4", "0.74"])
def test_rare_common_values_match_dense_reference_past_the_mask_choice(code: str) -> None:
    game = parse_code(code)
    assert Solver(game).extend_to(3001).tolist() == grundy_reference(game, 3000)


def test_officers_switches_to_rare_common_once_a_mask_is_found() -> None:
    solver = Solver(parse_code("0.6"))
    solver.extend_to(20000)
    assert solver.method == "rare/common"


def test_values_past_a_proven_period_are_read_off_the_period() -> None:
    game = parse_code("0.137")
    solution = solve(game, 2000)
    assert solution.extended_by_period
    assert solution.values.tolist() == grundy_reference(game, 1999)


def test_a_constant_sequence_has_period_1_from_heap_0() -> None:
    found = find_period(solve(parse_code("0.0"), 10).values, 0)
    assert found is not None and (found.preperiod, found.period) == (0, 1)


def test_nim_values_are_the_heap_sizes_and_never_proven_periodic() -> None:
    assert solve(parse_code("nim"), 5).values.tolist() == [0, 1, 2, 3, 4]
    assert prove_period(parse_code("nim"), 1000).period is None


@pytest.mark.parametrize("text", ["0.8", "abc", "1.2", "0.", ""])
def test_bad_codes_are_user_errors_naming_the_code(text: str) -> None:
    with pytest.raises(UserError, match="expected 0.d1d2"):
        parse_code(text)


def test_short_and_trailing_zero_forms_name_the_same_game() -> None:
    assert parse_code(".60") == parse_code("0.6")


class Recorder(Progress):
    """A progress line that keeps every update instead of drawing it."""

    def __init__(self) -> None:
        super().__init__("test", True)
        self.updates: list[tuple[int, int, str]] = []

    def update(self, done: int, total: int, detail: str = "") -> None:
        self.updates.append((done, total, detail))


def test_progress_shows_values_done_the_rare_common_split_and_the_period_candidate() -> None:
    progress = Recorder()
    proof = prove_period(parse_code("0.16"), 300_000, progress)
    assert proof.period is None and proof.candidate is not None  # 0.16 needs 509 622 heaps
    details = [d for _, _, d in progress.updates]
    assert any(d.startswith("dense ") for d in details)
    last_done, last_total, last = progress.updates[-1]
    assert last_done == last_total == proof.computed
    rare, common = (int(w) for w in last.split(",")[0].split()[1::2])
    assert rare + common == proof.computed and 0 < rare < common
    assert last.endswith(f"period candidate {proof.candidate}")
