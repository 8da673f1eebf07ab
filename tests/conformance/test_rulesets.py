"""One conformance suite for every registered ruleset, OpenSpiel style.

The cases are read from the registry when the tests are collected: every check in
`checks.PER_EXAMPLE` on every example level of every ruleset in `registry.specs()`. A new
ruleset is tested here by registering a spec with examples; nothing in this file names a
ruleset's rules. Test ids read as sentences: test_every_registered_ruleset[<check>-<example>].
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game import registry
from tests.conformance import checks
from tests.conformance.cases import Case, conformance_cases

# Checks an example is known to fail, (check, case id) -> why. Each is marked
# xfail(strict=True): the suite passes while the failure is there, and fails, asking for the
# mark to go, once the ruleset is fixed.
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def every_check_on_every_example() -> list[object]:
    params = []
    for check in checks.PER_EXAMPLE:
        for case in conformance_cases():
            reason = KNOWN_FAILURES.get((check.__name__, case.id))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            params.append(pytest.param(check, case, id=f"{check.__name__}-{case.id}",
                                       marks=marks))
    return params


@pytest.mark.parametrize("check, case", every_check_on_every_example())
def test_every_registered_ruleset(check: checks.Check, case: Case, tmp_path: Path) -> None:
    check(case, tmp_path)


def test_the_four_shipped_rulesets_are_registered_with_examples_to_play() -> None:
    assert {"skirmish", "puzzle", "descent", "octal"} <= set(registry.names())
    for spec in registry.specs():
        assert spec.examples, f"{spec.name} registers no examples for the conformance suite"
