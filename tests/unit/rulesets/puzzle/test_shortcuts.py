"""The puzzle turn's shortcuts change nothing: the kind index always equals one built afresh,
the rules in force always equal a fresh reading of the words (a word pushed while it stands
apart is not read again), and looking for meetings only in the cells entered this turn gives
the same games as looking everywhere, on levels full of SINK, DEFEAT, HOT/MELT, WEAK,
OPEN/SHUT, MOVE and transforms."""

from __future__ import annotations

import random
from typing import Any

import pytest

import game.rulesets.puzzle.ruleset
from components import Kind
from components.resources import BASE_KEY, KINDS_KEY, RULES_KEY
from game.commands import Step
from game.engine import Engine
from game.events import Destroyed, Transformed
from systems.properties import interact
from systems.rules import alone, read_rules, word_grid
from tests.helpers import keke_level

# name: (rows, moves played before the random ones)
LEVELS = {
    "sink-kill-move": (["b.r.g.k.s", "..r.s..r.", "r.g...s..", "B12R15G10",
                        "S14K17...", "W1G......"], ""),
    "hot-weak-shut": (["b.l.f.v.a", ".a..r.l.f", "..v..a...", "B12L18B19",
                       "F1]V1[A1%", "R1F......"], ""),
    # Baba waits on a skull against the wall while Keke pushes KILL under SKULL IS.
    "rule-under-a-resting-you": (["b.sw..", ".....S", ".....1", "k4....", "B12K12",
                                  "W16..."], "rrr"),
    # Baba pushes TEXT into KEKE IS _: the kekes become KEKE words, pushed about at random.
    "keke-is-text": (["K1.$b.", "......", "k.k.k.", "B12..."], "l"),
    "move-and-melt": (["k..l..k.b", ".l..k..l.", "K17L18K19", "B12.B19..",
                       "K1B......"], ""),
}


def fresh_index(engine: Engine) -> dict[str, tuple[int, ...]]:
    index: dict[str, list[int]] = {}
    for entity, kind in engine.world.query(Kind):
        index.setdefault(kind.name, []).append(entity)
    return {name: tuple(ids) for name, ids in index.items()}


def kept_index(engine: Engine) -> dict[str, tuple[int, ...]]:
    return {name: ids for name, ids in engine.world.resource(KINDS_KEY).items() if ids}


def playout(rows: list[str], moves: str, seed: int,
            length: int = 80) -> tuple[list[Any], int]:
    """`moves`, random moves, then undo them all: the states seen, and how many things were
    destroyed or transformed."""
    engine = keke_level(rows)
    rng = random.Random(seed)
    seen: list[Any] = []
    destroyed = 0
    script = [Step(letter) for letter in moves]
    for _ in range(length):
        if engine.over:
            break
        command = script.pop(0) if script else rng.choice(engine.legal_actions())
        result = engine.submit(command)
        destroyed += sum(isinstance(e, Destroyed | Transformed)
                         for e in getattr(result, "events", []))
        assert kept_index(engine) == fresh_index(engine)
        seen.append((engine.ruleset.report(engine.world), engine.ruleset.state_key(engine.world)))
    while engine.history:
        engine.undo()
        assert kept_index(engine) == fresh_index(engine)
    return seen, destroyed


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_meetings_in_entered_cells_only_play_as_meetings_everywhere(name, monkeypatch):
    rows, moves = LEVELS[name]
    quick = [playout(rows, moves, seed) for seed in range(6)]
    monkeypatch.setattr(game.rulesets.puzzle.ruleset, "interact", lambda board, everywhere=True: interact(board))
    slow = [playout(rows, moves, seed) for seed in range(6)]
    assert quick == slow
    assert sum(destroyed for _seen, destroyed in quick) > 0  # the levels did test something


# Loose words for Baba to push about: apart, beside others, into rules and out of them.
LOOSE = ["..R.b.K..", ".F..1..3.", "...1..2..", "B12.R15.."]


@pytest.mark.parametrize("name", sorted(LEVELS) + ["loose-words"])
def test_a_word_pushed_while_standing_apart_leaves_the_rules_as_a_fresh_reading(name,
                                                                                 monkeypatch):
    rows, moves = LEVELS.get(name, (LOOSE, ""))
    taken = []

    def counted(world, word_moves):
        apart = alone(world, word_moves)
        taken.append(apart)
        return apart

    monkeypatch.setattr(game.rulesets.puzzle.ruleset, "alone", counted)
    for seed in range(6):
        engine = keke_level(rows)
        rng = random.Random(seed)
        script = [Step(letter) for letter in moves]
        for _ in range(80):
            if engine.over:
                break
            engine.submit(script.pop(0) if script else rng.choice(engine.legal_actions()))
            world = engine.world
            fresh = tuple(dict.fromkeys(world.resource(BASE_KEY, ())
                                        + read_rules(word_grid(world))))
            assert world.resource(RULES_KEY) == fresh
    if name == "loose-words":
        assert True in taken and False in taken  # both ways were taken
