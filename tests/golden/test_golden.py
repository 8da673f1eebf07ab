"""Golden playthroughs: a seeded game of every registered ruleset (tests/golden/<ruleset>.txt)
and the seeded outpost match as `rulefront match --show` prints it (outpost_seed3.txt) play
exactly as recorded.

After an intended rules or output change, regenerate them all, then read the diff:
    python -m tests.golden.regenerate
"""

from __future__ import annotations

import pytest

from game import registry
from tests.golden.playthrough import (
    CLI_GOLDENS,
    GOLDEN,
    REGENERATE,
    first_difference,
    golden_path,
    playthrough,
)
from tests.helpers import run_cli

HINT = f"if the change is intended, run `{REGENERATE}` and read the diff"


@pytest.mark.parametrize("spec", registry.specs(), ids=lambda spec: spec.name)
def test_a_seeded_game_of_every_ruleset_plays_as_its_golden_playthrough(spec) -> None:
    path = golden_path(spec)
    assert path.exists(), f"{path.name} is missing; {HINT}"
    difference = first_difference(path.read_text(), playthrough(spec))
    assert difference is None, f"{path.name}: {difference}; {HINT}"


def test_the_seeded_outpost_match_plays_exactly_as_recorded(capsys) -> None:
    code, out, _ = run_cli(capsys, *CLI_GOLDENS["outpost_seed3.txt"])
    assert code == 0
    difference = first_difference((GOLDEN / "outpost_seed3.txt").read_text(), out)
    assert difference is None, f"outpost_seed3.txt: {difference}; {HINT}"


def test_every_golden_file_belongs_to_a_ruleset_or_a_command() -> None:
    expected = {golden_path(spec).name for spec in registry.specs()} | set(CLI_GOLDENS)
    assert {path.name for path in GOLDEN.glob("*.txt")} == expected
