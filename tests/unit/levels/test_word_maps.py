"""The shipped word maps: each loads by name with its description, its words spell the rules it
says, the push its description promises forms or breaks its sentence (for red, and for blue on
the mirrored cells), and the map is its own point mirror, sides swapped, where it is meant to
be. docs/ai.md "Map balance" has how each was balanced; README lists them."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from components import Kind, Moves, Position, Team, UnitClass, Word
from components.resources import BASE_KEY, RULES_KEY, SIZE_KEY
from game.commands import EndTurn, Move
from game.data import map_argument
from game.engine import Engine
from game.levels.loader import load_engine
from game.levels.maps import load_map
from game.session.rulesense import changes
from systems.rules import sentences

Cell = tuple[int, int]
SWAP = {"RED": "BLUE", "BLUE": "RED", "red": "blue", "blue": "red"}


@dataclass(frozen=True)
class WordMap:
    """What a word map promises: the word rules in force when it loads, and red's pushes that
    change a rule (hero's cell, the cell it steps into, the rules formed or broken); blue's are
    their point mirrors when the map is mirrored."""

    rules: frozenset[str]
    pushes: tuple[tuple[Cell, Cell, dict[str, str]], ...]
    mirrored: bool = True
    # balance nudges: each cell whose things differ from its mirror's, by the kind it holds
    # ("" for a cell left empty where its mirror holds something)
    unmirrored: dict[Cell, str] = field(default_factory=dict)


# Where the balanced maps depart from their point mirrors (docs/ai.md "Word maps" has the
# candidates screened and the figures): one piece moved one cell.
# mending: red's sage one cell west, (3,4) -> (2,4)
MENDING_NUDGES = {(2, 4): "hero", (3, 4): "", (11, 10): "hero", (12, 10): ""}
# tailwind: the same, red's sage (3,4) -> (2,4)
TAILWIND_NUDGES = dict(MENDING_NUDGES)
# snare: blue's tower one cell north, (10,10) -> (10,9)
SNARE_NUDGES = {(10, 9): "tower", (10, 10): "", (4, 4): "tower", (4, 5): ""}

WORD_MAPS = {
    # crossing's two banks hold different sentences, and its balance fix breaks the mirror
    # (tests/unit/tournament/test_balance.py pins that)
    "crossing": WordMap(frozenset({"WATER IS STOP", "BLOCK IS PUSH"}),
                        (((7, 4), (7, 5), {"WATER IS STOP": "broken"}),), mirrored=False),
    "ford": WordMap(frozenset({"WATER IS STOP"}),
                    (((7, 6), (7, 7), {"WATER IS STOP": "broken"}),)),
    "drown": WordMap(frozenset(), (((10, 3), (10, 4), {"TOWER IS PUSH": "formed"}),)),
    "mending": WordMap(frozenset(), (((7, 5), (7, 6), {"RED IS HEAL": "formed"}),),
                       unmirrored=MENDING_NUDGES),
    "tailwind": WordMap(frozenset(), (((7, 6), (8, 6), {"RED IS FAST": "formed"}),),
                        unmirrored=TAILWIND_NUDGES),
    "snare": WordMap(frozenset(), (((8, 6), (9, 6), {"BLUE IS SLOW": "formed"}),),
                     unmirrored=SNARE_NUDGES),
}


def mirror(engine: Engine, cell: Cell) -> Cell:
    """`cell` turned half round the board's centre."""
    width, height = engine.world.resource(SIZE_KEY)
    return (width - 1 - cell[0], height - 1 - cell[1])


def swapped(rule: str) -> str:
    return " ".join(SWAP.get(word, word) for word in rule.split())


def word_rules(engine: Engine) -> set[str]:
    world = engine.world
    return set(world.resource(RULES_KEY)) - set(world.resource(BASE_KEY, ()))


def put_hero(engine: Engine, side: str, cell: Cell) -> int:
    """Bring one of `side`'s heroes to `cell` (the map's opening is not what is tested here)."""
    world = engine.world
    hero = next(e for e, (kind, team) in world.query(Kind, Team)
                if kind.name == "hero" and team.side == side)
    world.update(hero, Position, x=cell[0], y=cell[1])
    return hero


def push(name: str, side: str, start: Cell, into: Cell) -> tuple[Engine, dict[str, str]]:
    """A fresh game on `name`; `side`'s hero on `start` steps into `into`: the rules it changed."""
    engine = load_engine(map_argument(name), seed=3)
    if side == "blue":
        assert engine.submit(EndTurn()).ok
    hero = put_hero(engine, side, start)
    done = engine.submit(Move(hero, *into))
    assert done.ok, done
    return engine, changes(done.events)


@pytest.mark.parametrize("name", sorted(WORD_MAPS))
def test_a_word_map_loads_by_name_with_words_and_a_description(name: str) -> None:
    path = map_argument(name)
    game_map = load_map(path)
    assert 12 <= game_map.width <= 20 and 12 <= game_map.height <= 20
    assert game_map.sidecar.get("description")
    engine = load_engine(path)
    assert engine.ruleset.sides == ("red", "blue")
    assert engine.world.query(Word)
    assert word_rules(engine) == WORD_MAPS[name].rules


@pytest.mark.parametrize("name", sorted(WORD_MAPS))
def test_every_word_is_a_known_word_and_the_sentences_parse(name: str) -> None:
    engine = load_engine(map_argument(name))
    spelled = sentences(engine.world)
    assert set(spelled) == WORD_MAPS[name].rules
    for rule, cells in spelled.items():
        assert len(cells) == len(rule.split())


@pytest.mark.parametrize(("name", "side", "index"),
                         [(n, s, i) for n, m in sorted(WORD_MAPS.items())
                          for i in range(len(m.pushes))
                          for s in (("red", "blue") if m.mirrored else ("red",))])
def test_the_push_the_map_promises_changes_its_rule(name: str, side: str, index: int) -> None:
    start, into, expected = WORD_MAPS[name].pushes[index]
    if side == "blue":  # the same push on the mirrored cells, the sentence's sides swapped
        probe = load_engine(map_argument(name))
        start, into = mirror(probe, start), mirror(probe, into)
        expected = {swapped(rule): change for rule, change in expected.items()}
    _engine, found = push(name, side, start, into)
    assert found == expected


def test_on_ford_a_broken_water_is_stop_lets_a_hero_wade_into_the_river() -> None:
    engine, found = push("ford", "red", (7, 6), (7, 7))
    assert found == {"WATER IS STOP": "broken"}
    world = engine.world
    hero = next(e for e, (pos, kind) in world.query(Position, Kind)
                if kind.name == "hero" and (pos.x, pos.y) == (7, 7))
    assert engine.submit(EndTurn()).ok and engine.submit(EndTurn()).ok
    assert engine.submit(Move(hero, 6, 7)).ok  # (6,7) was under the WATER word: now the river
    assert engine.submit(Move(hero, 5, 7)).ok  # water, waded
    assert {k.name for e, (p, k) in world.query(Position, Kind) if (p.x, p.y) == (5, 7)} \
        == {"water", "hero"}


def test_on_drown_a_spelled_tower_is_push_lets_red_shove_blues_tower_into_its_pool() -> None:
    engine, found = push("drown", "red", (10, 3), (10, 4))
    assert found == {"TOWER IS PUSH": "formed"}
    world = engine.world
    tower = next(e for e, (kind, team) in world.query(Kind, Team)
                 if kind.name == "tower" and team.side == "blue")
    pos = world.get(tower, Position)
    pool = (pos.x + 1, pos.y)  # blue's pool lies east of its tower, rock all round it
    hero = put_hero(engine, "red", (pos.x - 1, pos.y))
    done = engine.submit(Move(hero, pos.x, pos.y))
    assert done.ok
    assert not world.alive(tower)
    assert not any(kind.name == "water" and (p.x, p.y) == pool
                   for _e, (p, kind) in world.query(Position, Kind))


def moves_at_turn_start(engine: Engine, side: str) -> list[int]:
    """End turns until `side` is to play: the move points its heroes were dealt."""
    while True:
        assert engine.submit(EndTurn()).ok
        if engine.side == side:
            break
    world = engine.world
    return sorted(moves.mp for _e, (kind, team, moves) in world.query(Kind, Team, Moves)
                  if kind.name == "hero" and team.side == side)


def test_on_mending_the_enemy_pushes_its_colour_into_the_gap_and_yours_back_out() -> None:
    engine, found = push("mending", "red", (7, 5), (7, 6))
    assert found == {"RED IS HEAL": "formed"}
    pusher = put_hero(engine, "red", (7, 6))  # the hero that pushed stands in the way: aside
    assert engine.submit(Move(pusher, 6, 6)).ok
    assert engine.submit(EndTurn()).ok
    hero = put_hero(engine, "blue", (7, 9))
    done = engine.submit(Move(hero, 7, 8))
    assert done.ok, done
    assert changes(done.events) == {"BLUE IS HEAL": "formed", "RED IS HEAL": "broken"}
    words = {(p.x, p.y): w.text for _e, (w, p) in engine.world.query(Word, Position)}
    assert (words[(7, 6)], words[(7, 7)]) == ("RED", "BLUE")


def test_on_tailwind_a_spelled_red_is_fast_deals_reds_heroes_two_more_move_points() -> None:
    engine, found = push("tailwind", "red", (7, 6), (8, 6))
    assert found == {"RED IS FAST": "formed"}
    assert moves_at_turn_start(engine, "blue") == [3, 3, 3]
    assert moves_at_turn_start(engine, "red") == [5, 5, 5]


def test_on_snare_a_spelled_blue_is_slow_leaves_blues_heroes_one_move_point() -> None:
    engine, found = push("snare", "red", (8, 6), (9, 6))
    assert found == {"BLUE IS SLOW": "formed"}
    assert moves_at_turn_start(engine, "blue") == [1, 1, 1]
    assert moves_at_turn_start(engine, "red") == [3, 3, 3]


def things(engine: Engine) -> dict[Cell, Counter[tuple[str, str, str]]]:
    """Every cell's things but words: (kind, side, class)."""
    world = engine.world
    found: dict[Cell, Counter[tuple[str, str, str]]] = {}
    for entity, (pos, kind) in world.query(Position, Kind):
        if world.try_get(entity, Word) is not None:
            continue
        team, cls = world.try_get(entity, Team), world.try_get(entity, UnitClass)
        found.setdefault((pos.x, pos.y), Counter())[
            (kind.name, team.side if team else "", cls.name if cls else "")] += 1
    return found


@pytest.mark.parametrize("name", sorted(n for n, m in WORD_MAPS.items() if m.mirrored))
def test_a_word_map_is_its_own_point_mirror_with_the_sides_swapped(name: str) -> None:
    engine = load_engine(map_argument(name))
    world = engine.world
    cells = things(engine)
    odd = {}
    for cell in set(cells) | {mirror(engine, c) for c in cells}:
        here = cells.get(cell, Counter())
        there = Counter({(k, SWAP.get(s, s), c): n
                         for (k, s, c), n in cells.get(mirror(engine, cell), Counter()).items()})
        if here != there:
            odd[cell] = sorted(k for k, _s, _c in here.elements())
    assert odd == {cell: [kind] if kind else [] for cell, kind in WORD_MAPS[name].unmirrored.items()}
    words = {(p.x, p.y): w.text for _e, (w, p) in world.query(Word, Position)}
    # word tiles stand on mirrored cells, and each side has the other's words, sides swapped
    assert set(words) == {mirror(engine, c) for c in words}
    assert Counter(words.values()) == Counter(SWAP.get(t, t) for t in words.values())
    # a sentence spelled at load is spelled, sides swapped, on its mirrored cells read back
    spelled = sentences(world)
    for rule, at in spelled.items():
        assert spelled.get(swapped(rule)) == tuple(mirror(engine, c) for c in reversed(at))
