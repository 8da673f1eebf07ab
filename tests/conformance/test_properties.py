"""Properties every ruleset keeps, whatever hypothesis plays: undo and redo are exact in any
order, and an illegal command never changes the world. Run on each registered ruleset's first
example (for skirmish, the small outpost map)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance import checks
from tests.conformance.cases import Case, first_cases

FIRST = [pytest.param(case, id=case.id) for case in first_cases()]
CHOICES = st.lists(st.integers(min_value=0, max_value=10_000), max_size=120)
UNDO_POINTS = st.lists(st.integers(min_value=0, max_value=5), max_size=120)


@pytest.mark.parametrize("case", FIRST)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=CHOICES, undo_points=UNDO_POINTS)
def test_any_legal_commands_undone_and_redone_in_any_order_restore_the_world(
        case: Case, choices: list[int], undo_points: list[int]) -> None:
    checks.undo_and_redo_in_any_order_restore_the_world(case, choices, undo_points)


@pytest.mark.parametrize("case", FIRST)
@settings(max_examples=25, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_an_illegal_command_never_changes_the_world(case: Case, choices: list[int]) -> None:
    checks.an_illegal_command_never_changes_the_world(case, choices)
