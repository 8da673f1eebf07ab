"""The legal commands and their table, kept from one position to the next (reach fields that
outlive allies' moves, Moves made once, a ruleset's own table), are the ones a ruleset with
nothing kept finds on the same World: the same commands in the same order, the same numbers."""

from __future__ import annotations

import random

import pytest

from game.encoding import encoding_for
from game.levels.loader import load_engine
from game.registry import make_ruleset


@pytest.mark.parametrize("source", ["duel", "outpost", "crossing", "frontier"])
def test_legal_commands_kept_through_play_and_undo_equal_those_found_from_scratch(
        source: str) -> None:
    engine = load_engine(source, seed=1)
    assert engine.map is not None
    overrides = {k: v for k, v in engine.map.sidecar.items()
                 if k not in ("name", "ruleset", "description")}  # as Engine.from_game_map
    encoding = encoding_for(engine)
    rng = random.Random(1)
    for _ in range(400):
        if engine.over:
            break
        legal = engine.legal_actions()
        fresh = make_ruleset(engine.ruleset.name, overrides)  # nothing kept
        assert legal == fresh.legal_actions(engine.world)
        table = encoding.table(engine.world, legal)
        assert table == {encoding.encode(engine.world, c): c for c in legal}
        assert list(table.values()) == legal  # numbered in the order they are listed
        engine.apply(rng.choice(legal))
        if rng.random() < 0.15:
            engine.retract()
