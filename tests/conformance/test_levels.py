"""Every level shipped in maps/ (whatever ruleset reads it), and the Keke benchmark levels in
../shared when they are there: random legal commands, undone in full, restore the exact
starting world. The examples in test_rulesets.py get the thorough checks; this covers the rest
of what ships."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from game import MAPS, ROOT
from game.errors import UserError
from game.levels.loader import FileKind, load_engine, recognise
from tests.helpers import random_playout, undo_all

KEKE = ROOT.parent / "shared" / "benchmarks" / "keke"


def is_level(path: Path) -> bool:
    try:
        return recognise(path) is FileKind.LEVEL
    except UserError:  # sidecars and anything else no ruleset reads
        return False


SHIPPED = [(path, None) for path in sorted(MAPS.rglob("*")) if path.is_file() and is_level(path)]
LEVELS = SHIPPED + ([(KEKE / "demo_LEVELS.json", "8"), (KEKE / "full_biy_LEVELS.json", "39")]
                    if (KEKE / "demo_LEVELS.json").exists() else [])


def test_every_ruleset_ships_levels_the_loader_finds() -> None:
    found = {load_engine(path).ruleset.name for path, _level in SHIPPED}
    assert {"skirmish", "puzzle", "descent", "octal"} <= found


@pytest.mark.parametrize("path, level", LEVELS, ids=[
    f"{path.relative_to(MAPS) if path.is_relative_to(MAPS) else path.name}"
    f"{'#' + level if level else ''}" for path, level in LEVELS])
def test_random_commands_undone_restore_the_start(path: Path, level: str | None) -> None:
    for seed in range(5):
        engine = load_engine(path, level=level)
        start = engine.world.snapshot()
        random_playout(engine, random.Random(seed), 60)
        undo_all(engine)
        assert engine.world.snapshot() == start, f"seed {seed}"
