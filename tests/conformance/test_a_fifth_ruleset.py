"""A fifth ruleset is tested by registering it: the counting game in counting.py, registered for
the length of a test (the registry's dict is monkeypatched, so no other test sees it), passes
the very checks test_rulesets.py and test_properties.py run on the shipped rulesets."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import registry
from game.levels.loader import described
from tests.conformance import checks
from tests.conformance.cases import Case, conformance_cases
from tests.conformance.counting import SPEC


def register_counting(patch: pytest.MonkeyPatch) -> None:
    registry.specs()  # the shipped rulesets register themselves first, once
    patch.setitem(registry._SPECS, SPEC.name, SPEC)


def counting_cases() -> list[Case]:
    return [case for case in conformance_cases() if case.spec is SPEC]


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> None:
    register_counting(monkeypatch)


def test_a_registered_ruleset_has_its_examples_in_the_conformance_cases(counting) -> None:
    assert [case.example for case in counting_cases()] == list(SPEC.examples)
    assert described("counting:7") is SPEC
    assert "counting" in registry.names()


def test_the_registration_is_gone_once_the_test_ends() -> None:
    with pytest.MonkeyPatch.context() as patch:
        register_counting(patch)
        assert counting_cases()
    assert "counting" not in registry.names()
    assert counting_cases() == []


@pytest.mark.parametrize("check", checks.PER_EXAMPLE, ids=lambda check: check.__name__)
def test_a_ruleset_registered_by_a_test_passes_every_conformance_check(
        counting, check: checks.Check, tmp_path: Path) -> None:
    cases = counting_cases()
    assert cases
    for case in cases:
        check(case, tmp_path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(choices=st.lists(st.integers(min_value=0, max_value=10_000), max_size=40),
       undo_points=st.lists(st.integers(min_value=0, max_value=5), max_size=40))
def test_a_ruleset_registered_by_a_test_keeps_the_undo_and_illegal_command_properties(
        choices: list[int], undo_points: list[int]) -> None:
    with pytest.MonkeyPatch.context() as patch:
        register_counting(patch)
        for case in counting_cases():
            checks.undo_and_redo_in_any_order_restore_the_world(case, choices, undo_points)
            checks.an_illegal_command_never_changes_the_world(case, choices)
