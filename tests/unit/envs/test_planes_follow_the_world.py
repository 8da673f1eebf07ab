"""Planes.fill keeps the planes of things and words from one call to the next and brings them
up to date from the World's journal; what it writes must stay exactly what a fill from scratch
writes, through play, undo, redo, two Worlds sharing one Planes, and each observing side. So
must Planes.refresh, which writes into a Kept array only the cells changed since its last
refresh (OpenSpiel's observer)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from components import Actions, Health, Kind, Moves, Position, Team, UnitClass, Word
from components.resources import EXIT_KEY, PROPS_KEY
from game.encoding import Kept, Planes
from game.encoding import planes as planes_module
from game.levels.loader import load_engine
from systems.rules import property_bits
from tests.conformance.cases import conformance_cases
from tests.conformance.test_a_fifth_ruleset import register_counting

CASES = conformance_cases()  # every registered ruleset's example levels


def from_scratch(planes: Planes, engine, me: str) -> np.ndarray:
    """Every plane written anew from the World (the fill before the board was kept)."""
    out = np.zeros(planes.shape, dtype=np.float32)
    world, index = engine.world, planes.index
    _, height, width = planes.shape
    cells = {e: (p.y, p.x) for e, p in world.query(Position)
             if 0 <= p.x < width and 0 <= p.y < height}
    other, stacks = index.get("kind:other"), index.get("height")
    for entity, kind in world.query(Kind):
        if entity in cells:
            if stacks is not None and kind.name == "block":
                out[(stacks, *cells[entity])] += 1.0
            plane = planes.kinds.get(kind.name, other)
            if plane is not None:
                out[(plane, *cells[entity])] = 1.0
    for entity, word in world.query(Word):
        plane = planes.words.get(word.text)
        if entity in cells and plane is not None:
            out[(plane, *cells[entity])] = 1.0
    if "side:own" in index:
        for entity, team in world.query(Team):
            if entity in cells:
                out[(index["side:own" if team.side == me else "side:other"],
                     *cells[entity])] = 1.0
        for entity, health in world.query(Health):
            if entity in cells and health.max_hp > 0:
                out[(index["hp"], *cells[entity])] = max(0.0, min(1.0, health.hp / health.max_hp))
        for entity, moves in world.query(Moves):
            if entity in cells and moves.max_mp > 0:
                out[(index["moves"], *cells[entity])] = max(0.0, min(1.0, moves.mp / moves.max_mp))
        for entity, actions in world.query(Actions):
            if entity in cells and actions.ap > 0:
                out[(index["ready"], *cells[entity])] = 1.0
    if "exit" in index:
        ex, ey = world.resource(EXIT_KEY)
        out[index["exit"], ey, ex] = 1.0
    if "to_play" in index and not engine.over and engine.side == me:
        out[index["to_play"]] = 1.0
    masks = world.resource(PROPS_KEY) or {}
    for entity, kind in world.query(Kind):  # prop:P under each thing that holds P
        held = masks.get(kind.name, 0)
        team, cls = world.try_get(entity, Team), world.try_get(entity, UnitClass)
        held |= masks.get(team.side, 0) if team is not None else 0
        held |= masks.get(cls.name, 0) if cls is not None else 0
        for name, flag in property_bits().items():
            plane = index.get(f"prop:{name}")
            if entity in cells and plane is not None and held & int(flag):
                out[(plane, *cells[entity])] = 1.0
    return out


def wander(source: str, seed: int, moves: int = 60) -> None:
    """Play, undo and redo at random on two engines of one level sharing one Planes, checking
    every fill, for each side, against a fill from scratch."""
    rng = random.Random(seed)
    engines = [load_engine(source, seed=0), load_engine(source, seed=0)]
    planes = Planes(engines[0])
    out = np.full(planes.shape, 7.0, dtype=np.float32)  # a fill writes every value
    sides = engines[0].ruleset.sides
    # one Kept per side, and one that every side and both Worlds are refreshed into
    kept, roaming = {me: Kept(planes.shape) for me in sides}, Kept(planes.shape)
    for _ in range(moves):
        engine = rng.choice(engines)
        roll = rng.random()
        if roll < 0.25 and engine.history:
            engine.undo()
        elif roll < 0.35 and engine.redo_stack:
            engine.redo()
        elif engine.legal_actions():
            engine.submit(rng.choice(engine.legal_actions()))
        for me in sides:
            planes.fill(engine, me, out)
            expected = from_scratch(planes, engine, me)
            assert np.array_equal(out, expected), (source, me)
            for into in (kept[me], roaming):
                planes.refresh(engine, me, into)
                assert np.array_equal(into.observation, expected), (source, me)


@pytest.mark.parametrize("source", [str(case.source) for case in CASES],
                         ids=[case.example for case in CASES])
def test_a_kept_fill_equals_a_fill_from_scratch_through_play_and_undo(source: str) -> None:
    for seed in range(3):
        wander(source, seed)


def test_a_ruleset_registered_by_a_test_is_filled_alike(monkeypatch) -> None:
    register_counting(monkeypatch)
    wander("counting:9", 0, moves=20)


def test_a_fill_after_the_journal_is_dropped_starts_again() -> None:
    engine = load_engine("outpost")
    planes = Planes(engine)
    before = planes.observe(engine, "red")
    engine.submit(engine.legal_actions()[1])
    engine.world.forget_history()
    assert not np.array_equal(planes.observe(engine, "red"), before)
    assert np.array_equal(planes.observe(engine, "red"), from_scratch(planes, engine, "red"))


def test_a_refresh_after_a_long_log_copies_everything_again(monkeypatch) -> None:
    """A board forgets its log of written cells past LOG entries (a new epoch): a Kept array
    that had read part of it is then written whole, still equal to a fill from scratch."""
    monkeypatch.setattr(planes_module.Board, "LOG", 8)
    wander("outpost", 4, moves=40)


def test_a_kept_array_is_read_only_to_everyone_else() -> None:
    engine = load_engine("outpost")
    planes = Planes(engine)
    kept = Kept(planes.shape)
    planes.refresh(engine, "red", kept)
    for view in (kept.observation, kept.tensor):
        with pytest.raises(ValueError, match="read-only"):
            view[0] = 1.0
    assert np.array_equal(np.array(kept.tensor).reshape(planes.shape),
                          from_scratch(planes, engine, "red"))


def test_a_fill_into_an_array_of_another_dtype_or_layout_writes_the_same_planes() -> None:
    """fill writes the side and to_play planes through a flat float32 view of `out`; an
    array that has none (float64, or laid out in another order) gets the same values."""
    engine = load_engine("outpost")
    planes = Planes(engine)
    expected = from_scratch(planes, engine, "red")
    channels, height, width = planes.shape
    for out in (np.zeros(planes.shape, dtype=np.float32), np.zeros(planes.shape),
                np.zeros((width, height, channels), dtype=np.float32).transpose(2, 1, 0)):
        planes.fill(engine, "red", out)
        assert np.array_equal(out, expected)


def test_marks_patched_in_place_equal_a_fill_from_scratch_through_whole_turns(monkeypatch) -> None:
    """A unit only moved (a minion marching) or with hit, move or action points set (a
    turn's end, a strike) has its marks patched, not read again from its components: the
    planes still equal a fill from scratch through turns ended often, strikes, deaths and
    whole turns undone, for each side's Kept array; and the patch is the path taken."""
    taken: list[bool] = []
    patched = planes_module.Board._patched

    def spy(self, *args):
        done = patched(self, *args)
        taken.append(done)
        return done

    monkeypatch.setattr(planes_module.Board, "_patched", spy)
    engine = load_engine("duel", seed=0)
    planes = Planes(engine)
    sides = engine.ruleset.sides
    kept = {me: Kept(planes.shape) for me in sides}
    rng = random.Random(5)
    for _ in range(400):
        legal = engine.legal_actions()
        if not legal:
            break
        roll = rng.random()
        if roll < 0.05 and len(engine.history) > 8:
            for _undo in range(8):
                engine.undo()
        elif roll < 0.35:
            engine.submit(next(c for c in legal if type(c).__name__ == "EndTurn"))
        else:
            engine.submit(rng.choice(legal))
        for me in sides:
            planes.refresh(engine, me, kept[me])
            assert np.array_equal(kept[me].observation, from_scratch(planes, engine, me)), me
    assert taken.count(True) > 100
