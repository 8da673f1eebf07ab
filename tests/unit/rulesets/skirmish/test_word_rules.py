"""Word rules on skirmish maps: heroes push blocks and words, and rules act on units."""

from __future__ import annotations

from pathlib import Path

from components import Health, Moves, Position
from components.match import DRAW
from components.resources import RULES_KEY
from game import MAPS
from game.commands import EndTurn, Move
from game.engine import Engine
from game.levels.loader import load_engine
from game.session.match import make_seats, play_match
from tests.helpers import draw_cells


def skirmish(tmp_path: Path, extra: dict[tuple[int, int], str]) -> Engine:
    """Both HQs in the corners and a bulwark each, plus `extra` cells by palette name."""
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (3, 1): "red bulwark", (8, 8): "blue bulwark",
             **extra}
    return load_engine(draw_cells(tmp_path / "t.png", 10, 10, cells, {"name": "t"}))


def hero_at(engine: Engine, x: int, y: int) -> int:
    return next(e for e in engine.world.at(x, y) if engine.world.try_get(e, Moves))


def test_words_on_the_map_add_to_the_base_rules(tmp_path):
    engine = skirmish(tmp_path, {(3, 2): "word WATER", (4, 2): "word IS", (5, 2): "word STOP",
                                 (0, 5): "word FLAG", (1, 5): "word IS", (2, 5): "word WIN"})
    rules = engine.world.resource(RULES_KEY)
    assert "ROCK IS STOP" in rules and "FLAG IS WIN" in rules


def test_a_hero_pushes_a_block_for_one_move_point(tmp_path):
    engine = skirmish(tmp_path, {(4, 1): "block"})
    hero = hero_at(engine, 3, 1)
    assert Move(hero, 4, 1) in engine.legal_actions()
    assert engine.submit(Move(hero, 4, 1)).ok
    pos = engine.world.get(hero, Position)
    assert (pos.x, pos.y) == (4, 1)
    assert engine.world.get(hero, Moves).mp == engine.world.get(hero, Moves).max_mp - 1
    assert any(engine.world.at(5, 1))


def test_a_push_blocked_by_a_unit_is_not_offered(tmp_path):
    engine = skirmish(tmp_path, {(4, 1): "block", (5, 1): "red hero"})
    hero = hero_at(engine, 3, 1)
    assert Move(hero, 4, 1) not in engine.legal_actions()
    assert not engine.submit(Move(hero, 4, 1)).ok


def test_pushing_a_word_breaks_its_rule(tmp_path):
    engine = skirmish(tmp_path, {(3, 2): "word FLAG", (4, 2): "word IS", (5, 2): "word WIN"})
    assert "FLAG IS WIN" in engine.world.resource(RULES_KEY)
    hero = hero_at(engine, 3, 1)
    assert engine.submit(Move(hero, 3, 2)).ok
    assert "FLAG IS WIN" not in engine.world.resource(RULES_KEY)
    engine.undo()
    assert "FLAG IS WIN" in engine.world.resource(RULES_KEY)


def test_a_hero_on_a_defeat_cell_dies(tmp_path):
    engine = skirmish(tmp_path, {(5, 1): "lava", (0, 5): "word LAVA", (1, 5): "word IS",
                                 (2, 5): "word DEFEAT"})
    hero = hero_at(engine, 3, 1)
    engine.submit(Move(hero, 5, 1))
    assert not engine.world.alive(hero) or engine.world.get(hero, Health).hp <= 0


def test_a_hero_on_a_win_cell_wins_the_match(tmp_path):
    engine = skirmish(tmp_path, {(5, 1): "flag", (0, 5): "word FLAG", (1, 5): "word IS",
                                 (2, 5): "word WIN"})
    engine.submit(Move(hero_at(engine, 3, 1), 5, 1))
    assert engine.outcome == ("red", "a red hero reached a WIN cell")


def test_random_matches_on_crossing_finish():
    for seed in range(2):
        engine = load_engine(MAPS / "crossing.png", seed=seed)
        result = play_match(engine, make_seats(engine, {"red": "random", "blue": "random"}, seed),
                            seed)
        assert result.winner in ("red", "blue", "draw")


LAVA_IS_DEFEAT = {(0, 5): "word LAVA", (1, 5): "word IS", (2, 5): "word DEFEAT"}


def test_a_hero_may_step_into_a_defeat_cell_but_not_walk_through_it(tmp_path):
    lava = {(4, y): "lava" for y in range(4)}
    engine = skirmish(tmp_path, {**lava, **LAVA_IS_DEFEAT})
    hero = hero_at(engine, 3, 1)
    moves = [a for a in engine.legal_actions() if isinstance(a, Move) and a.unit == hero]
    assert Move(hero, 4, 1) in moves
    assert not [m for m in moves if m.x > 4]  # the far side is only reachable across lava
    engine.submit(Move(hero, 4, 1))
    assert not engine.world.alive(hero) or engine.world.get(hero, Health).hp <= 0


def test_marching_minions_stop_and_die_on_defeat_cells(tmp_path):
    from components import Kind, Team
    from game.commands import EndTurn

    lava = {(x, 3): "lava" for x in range(10)}
    engine = skirmish(tmp_path, {**lava, **LAVA_IS_DEFEAT})
    world = engine.world
    seen = set()
    for _ in range(16):
        assert engine.submit(EndTurn()).ok
        for entity, (kind, team, pos) in world.query(Kind, Team, Position):
            if kind.name == "minion" and team.side == "red":
                seen.add(entity)
                assert pos.y < 3, "a red minion crossed the lava"
    assert seen  # minions were spawned, marched, and none got past
    assert any(getattr(e, "kind", "") == "minion" for e in engine.events()
               if type(e).__name__ == "Died")


def kinds_at(engine: Engine, x: int, y: int) -> list[str]:
    from components import Kind

    return [engine.world.get(e, Kind).name for e in engine.world.at(x, y)]


def test_x_is_y_turns_scenery_when_the_map_loads(tmp_path):
    engine = skirmish(tmp_path, {(6, 6): "rock", (0, 5): "word ROCK", (1, 5): "word IS",
                                 (2, 5): "word WATER"})
    assert kinds_at(engine, 6, 6) == ["water"]


def test_a_pushed_word_that_spells_x_is_y_turns_scenery_at_once_and_undo_turns_it_back(
        tmp_path):
    # ROCK IS _ with WATER above the gap: the hero walks over it and pushes it down.
    engine = skirmish(tmp_path, {(6, 6): "rock", (2, 3): "word ROCK", (3, 3): "word IS",
                                 (4, 2): "word WATER"})
    hero = hero_at(engine, 3, 1)
    assert engine.submit(Move(hero, 4, 1)).ok
    assert engine.submit(Move(hero, 4, 2)).ok  # pushes WATER down into (4, 3)
    assert "ROCK IS WATER" in engine.world.resource(RULES_KEY)
    assert kinds_at(engine, 6, 6) == ["water"]
    engine.undo()
    assert kinds_at(engine, 6, 6) == ["rock"]


def test_x_is_y_turns_units_into_scenery_and_never_scenery_into_units(tmp_path):
    engine = skirmish(tmp_path, {(6, 6): "rock",
                                 (0, 5): "word HERO", (1, 5): "word IS", (2, 5): "word ROCK",
                                 (0, 7): "word HQ", (1, 7): "word IS", (2, 7): "word FLAG",
                                 (0, 8): "word ROCK", (1, 8): "word IS", (2, 8): "word HERO"})
    assert kinds_at(engine, 3, 1) == ["hero", "rock"] and kinds_at(engine, 0, 0) == ["hq", "flag"]
    assert kinds_at(engine, 6, 6) == ["rock"]  # no unit is made
    engine.submit(EndTurn())  # the deaths check takes the turned units: both HQs fell
    assert kinds_at(engine, 3, 1) == ["rock"] and kinds_at(engine, 0, 0) == ["flag"]
    assert engine.outcome is not None and engine.outcome.winner == DRAW
