"""The World: the journal makes every write undoable, and iteration order is by entity id."""

from __future__ import annotations

import random

import pytest

from components import Health, Kind, Position, Team
from game.commands import Move
from game.journal import full_hash
from game.levels.loader import load_engine
from game.world import World


@pytest.fixture
def world():
    w = World(seed=42)
    yield w
    w.close()


def test_update_changes_a_field_in_place_and_rollback_restores_it(world):
    e = world.spawn(Health(10, 10))
    comp = world.get(e, Health)
    mark = world.mark()
    world.update(e, Health, hp=3)
    assert world.get(e, Health) is comp and comp.hp == 3
    world.rollback(mark)
    assert comp.hp == 10


def test_moving_keeps_the_cell_index_in_step_and_rollback_puts_it_back(world):
    e = world.spawn(Position(1, 1), Kind("rock"))
    mark = world.mark()
    world.update(e, Position, x=2, y=3)
    assert world.at(1, 1) == [] and world.at(2, 3) == [e]
    world.rollback(mark)
    assert world.at(1, 1) == [e] and world.at(2, 3) == []


def test_destroy_then_rollback_brings_the_same_entity_back(world):
    e = world.spawn(Position(0, 0), Health(5, 5))
    before = world.snapshot()
    mark = world.mark()
    world.destroy(e)
    assert not world.alive(e) and world.at(0, 0) == []
    world.rollback(mark)
    assert world.alive(e) and world.snapshot() == before


def test_a_spawn_rolled_back_hands_out_the_same_id_again(world):
    mark = world.mark()
    first = world.spawn(Kind("minion"))
    world.rollback(mark)
    assert not world.alive(first)
    assert world.spawn(Kind("minion")) == first


def test_add_and_remove_are_undone(world):
    e = world.spawn(Kind("hero"))
    mark = world.mark()
    world.add(e, Position(4, 4))
    world.remove(e, Kind)
    world.rollback(mark)
    assert world.try_get(e, Position) is None and world.get(e, Kind).name == "hero"
    assert world.at(4, 4) == []


def test_adding_a_component_the_entity_already_has_raises(world):
    e = world.spawn(Kind("hero"))
    with pytest.raises(ValueError):
        world.add(e, Kind("minion"))


def test_queries_come_back_in_entity_id_order(world):
    ids = [world.spawn(Kind(str(i)), Position(i, 0)) for i in range(20)]
    assert [e for e, _ in world.query(Kind)] == ids
    assert [e for e, _ in world.query(Position, Kind)] == ids


def test_the_rng_is_seeded_and_its_draws_are_undone(world):
    mark = world.mark()
    draws = [world.rng.below(1000) for _ in range(5)]
    world.rollback(mark)
    assert [world.rng.below(1000) for _ in range(5)] == draws
    other = World(seed=42)
    assert [other.rng.below(1000) for _ in range(5)] == draws
    other.close()


def test_resources_are_journaled(world):
    world.set_resource("rules", ("ROCK IS STOP",))
    mark = world.mark()
    world.set_resource("rules", ())
    world.set_resource("new", 1)
    world.rollback(mark)
    assert world.resource("rules") == ("ROCK IS STOP",) and world.resource("new") is None


def test_two_worlds_do_not_see_each_others_entities(world):
    other = World()
    a = world.spawn(Kind("a"))
    b = other.spawn(Kind("b"))
    assert world.get(a, Kind).name == "a" and other.get(b, Kind).name == "b"
    assert len(world.query(Kind)) == 1 and len(other.query(Kind)) == 1
    other.close()


def test_rolling_back_to_a_future_mark_is_refused(world):
    with pytest.raises(ValueError):
        world.rollback(world.mark() + 1)


def test_touched_since_names_what_was_written_with_the_values_from_before(world):
    world.set_resource("rules", ("ROCK IS STOP",))
    hero = world.spawn(Position(1, 1), Health(10, 10))
    rock = world.spawn(Position(5, 5), Kind("rock"))
    mark = world.mark()
    world.update(hero, Health, hp=7)
    world.update(hero, Health, hp=3)  # the value before the mark is what counts
    world.move(hero, 2, 1)
    world.destroy(rock)
    world.set_resource("rules", ())
    world.rng.below(6)
    done = world.touched_since(mark)
    assert done.entities() == {hero, rock} and done.moved == {hero} and not done.born
    before = {(entity, type(comp).__name__, f): old
              for (_cid, f), (entity, comp, old) in done.fields.items()}
    assert before == {(hero, "Health", "hp"): 10, (hero, "Position", "x"): 1,
                      (hero, "Position", "y"): 1}
    assert done.wrote(Health) and not done.wrote(Kind)
    assert [(e, type(c).__name__) for e, c in done.removed if c is not None] == \
        [(rock, "Position"), (rock, "Kind")]
    assert done.resources == {"rules": ("ROCK IS STOP",)} and done.rng is not None
    assert world.touched_since(world.mark()).entities() == set()


def test_a_recorded_stretch_is_written_again_exactly_and_only_where_it_was_recorded(world):
    world.set_resource("rules", ("ROCK IS STOP",))
    hero = world.spawn(Position(1, 1), Health(10, 10))
    rock = world.spawn(Position(5, 5), Kind("rock"))
    before = world.snapshot()
    mark = world.mark()
    world.update(hero, Health, hp=7)
    world.move(hero, 2, 1)
    world.update(hero, Health, hp=3)
    world.move(hero, 2, 2)
    minion = world.spawn(Position(3, 3), Kind("minion"), Health(4, 4))
    world.update(minion, Health, hp=1)
    world.move(minion, 4, 3)
    world.destroy(rock)
    world.add(hero, Team("red"))
    world.remove(hero, Team)
    world.add(hero, Team("blue"))
    world.set_resource("rules", ())
    world.set_resource("new", 1)
    world.rng.below(6)
    world.rng.below(6)
    after, journal, key = world.snapshot(), world.changes_since(0), world.state_key()
    recording = world.recording(mark)
    world.rollback(mark)
    assert world.snapshot() == before
    assert world.reapply(recording)
    assert world.snapshot() == after and world.state_key() == key
    assert all(a is b for a, b in zip(world.changes_since(0), journal, strict=True))
    assert world.at(4, 3) == [minion] and world.at(5, 5) == [] and world.at(2, 2) == [hero]
    world.rollback(mark)
    assert world.snapshot() == before
    world.rng.below(6)  # another state: the recording does not belong here
    elsewhere = world.snapshot()
    assert not world.reapply(recording) and world.snapshot() == elsewhere


def test_queries_follow_spawns_deaths_and_their_undo(world):
    """Query lists are kept across structural writes (a destroy drops the entity from them, an
    undo finds the lists from before): they always say what the entities hold."""
    types = [(Position,), (Kind,), (Position, Kind), (Kind, Health), (Health, Team, Position)]

    def asked() -> list[list[tuple[int, list]]]:
        return [[(e, list(c) if isinstance(c, (list, tuple)) else [c]) for e, c in
                 world.query(*t)] for t in types]

    def fresh() -> list[list[tuple[int, list]]]:
        found = []
        for t in types:
            rows = []
            for e in world.entities():
                comps = [world.try_get(e, c) for c in t]
                if all(c is not None for c in comps):
                    rows.append((e, comps))
            found.append(rows)
        return found

    rng = random.Random(5)
    ids = [world.spawn(Position(i, 0), Kind("rock"), Health(3, 3), Team("red"))
           for i in range(6)]
    marks = []
    for step in range(60):
        asked()
        roll = rng.random()
        living = [e for e in ids if world.alive(e)]
        if roll < 0.3 and living:
            marks.append(world.mark())
            world.destroy(rng.choice(living))
        elif roll < 0.5:
            marks.append(world.mark())
            ids.append(world.spawn(Position(step, 1), Kind("minion"), Health(1, 1)))
        elif roll < 0.6 and living:
            marks.append(world.mark())
            entity = rng.choice(living)
            if world.try_get(entity, Team) is not None:
                world.remove(entity, Team)
            else:
                world.add(entity, Team("blue"))
        elif marks:
            world.rollback(marks.pop())
        assert asked() == fresh(), f"step {step}"


@pytest.mark.parametrize("level", ["duel.png", "crossing.png", "puzzles/rule-maker.keke",
                                   "descent/level-03.txt", "octal/kayles.png"])
def test_the_state_key_is_the_incremental_hash_through_a_game_and_its_undo(level):
    engine = load_engine(f"maps/{level}", seed=5)
    world, rng = engine.world, random.Random(5)
    keys, snapshots = [world.state_key()], [world.snapshot()]
    for _ in range(120):
        if engine.over:
            break
        engine.apply(rng.choice(engine.legal_actions()))
        keys.append(world.state_key())
        snapshots.append(world.snapshot())
        assert keys[-1] == full_hash(world)
    assert len(set(keys)) == len({repr(s) for s in snapshots})  # equal keys for equal states
    while engine.history:
        engine.retract()
        keys.pop()
        snapshots.pop()
        assert world.state_key() == keys[-1] == full_hash(world)
        assert world.snapshot() == snapshots[-1]


@pytest.mark.parametrize("level", ["duel.png", "outpost.png", "crossing.png", "frontier.png"])
def test_the_state_key_after_whole_turns_counts_spawns_and_kills_without_rehashing(level):
    """A search asks for the key after a whole turn or more: units spawned, and units hit
    and then killed, in between are counted from the journal and still give the full hash."""
    engine = load_engine(f"maps/{level}", seed=7)
    world, rng = engine.world, random.Random(7)
    spawned = killed_after_a_hit = 0
    mark = world.mark()
    world.state_key()
    for step in range(600):
        if engine.over:
            break
        actions = engine.legal_actions()
        engine.apply(actions[-1] if rng.random() < 0.25 else rng.choice(actions))
        if step % 7 == 6:
            done = world.touched_since(mark)
            spawned += bool(done.spawned)
            killed_after_a_hit += any((id(comp), "hp") in done.fields
                                      for _e, comp in done.removed if comp is not None)
            assert world.state_key() == full_hash(world)
            mark = world.mark()
    assert spawned and killed_after_a_hit


def test_equal_positions_reached_in_another_order_have_equal_keys_and_others_do_not():
    engine = load_engine("maps/duel.png", seed=1)
    world = engine.world
    side = engine.side
    heroes = [e for e, (kind, team) in world.query(Kind, Team)
              if kind.name == "hero" and team.side == side][:2]
    first, second = ([c for c in engine.legal_actions() if isinstance(c, Move) and c.unit == h]
                     for h in heroes)
    a, b = first[0], next(m for m in second if (m.x, m.y) != (first[0].x, first[0].y))
    start = world.state_key()
    engine.apply(a)
    engine.apply(b)
    one_way, snapshot = world.state_key(), world.snapshot()
    engine.retract()
    engine.retract()
    assert world.state_key() == start
    engine.apply(b)
    assert world.state_key() not in (start, one_way)
    engine.apply(a)
    assert world.snapshot() == snapshot and world.state_key() == one_way
