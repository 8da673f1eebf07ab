"""What properties do when things share a cell, in the order a turn resolves them.

SINK destroys itself and everything it shares a cell with; WEAK things break when anything
shares their cell; HOT destroys MELT things; DEFEAT destroys YOU things (not itself); OPEN and
SHUT destroy each other. The order is data/properties.yaml's (`order`), and EFFECTS holds each
resolving property's function: a new property that destroys is a row there and a function
here. Then the win check: a YOU thing on a WIN cell. Also here: NOUN IS NOUN transformations,
one step per turn.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from components import Facing, Kind, Position, Word
from components.resources import KINDS_KEY
from game.errors import UserError
from game.events import Transformed
from systems.push import Board, index_kinds
from systems.rules import Prop, bits_where, noun_kinds, transformations

YOU, WIN = int(Prop.YOU), int(Prop.WIN)
SINK, WEAK, HOT, MELT = int(Prop.SINK), int(Prop.WEAK), int(Prop.HOT), int(Prop.MELT)
DEFEAT, OPEN, SHUT = int(Prop.DEFEAT), int(Prop.OPEN), int(Prop.SHUT)

_turns_cache: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}


def transform(board: Board, rules: tuple[str, ...]) -> bool:
    """Turn every X into Y for each 'X IS Y' in force (the first Y; more Ys add copies).
    True when anything changed."""
    turns = _turns_cache.get(rules)
    if turns is None:
        turns = _turns_cache[rules] = transformations(rules)
    if not turns:
        return False
    world = board.world
    changed = False
    nouns = _noun_words()
    for entity, (kind, pos) in list(world.query(Kind, Position)):
        targets = turns.get(kind.name)
        if not targets:
            continue
        old = kind.name
        targets = tuple(t for t in targets if t != "text" or old in nouns)  # a word needs a noun
        if not targets:
            continue
        facing = world.try_get(entity, Facing)
        _become(board, entity, old, targets[0], nouns)
        board.events.append(Transformed(entity, old, targets[0]))
        changed = True
        for extra in targets[1:]:
            copy = world.spawn(Position(pos.x, pos.y), Kind(extra),
                               Facing(facing.dx, facing.dy) if facing else Facing(1, 0))
            if extra == "text":
                world.add(copy, Word(nouns[old], "noun"))
                board.words_moved = True
            board.delta += board.number(copy)
            board.events.append(Transformed(copy, old, extra))
    if changed and world.resource(KINDS_KEY) is not None:
        index_kinds(world)
    return changed


def _become(board: Board, entity: int, old: str, new: str, nouns: dict[str, str]) -> None:
    """Change a thing's kind in place, keeping the board hash; a thing that becomes TEXT is the
    word tile naming its old kind (X IS TEXT), and a word tile that becomes a thing loses its
    word (TEXT IS X). Either way the rules must be read again."""
    world = board.world
    board.delta -= board.number(entity)
    if old == "text":
        world.remove(entity, Word)
        board.words_moved = True
    world.update(entity, Kind, name=new)
    if new == "text":
        world.add(entity, Word(nouns[old], "noun"))
        board.words_moved = True
    board.delta += board.number(entity)


@cache
def _noun_words() -> dict[str, str]:
    """kind -> the noun word that names it ('baba' -> 'BABA')."""
    return {kind: text for text, kind in noun_kinds().items() if kind != "text"}


def interact(board: Board, everywhere: bool = True) -> None:
    """Resolve SINK, WEAK, HOT/MELT, DEFEAT and OPEN/SHUT, in that order.

    With `everywhere` False only the cells things entered this turn are looked at: that is
    enough when the masks and kinds are those the last turn ended with, since whatever shared
    a cell then was resolved then. Needs the kind index."""
    props = board.props
    active = 0
    for mask in props.values():
        active |= mask
    if not active & DESTRUCTIVE:
        return
    flags = [flag for flag in RESOLVING if active & flag]
    if everywhere:
        by_prop = {flag: board.having(flag) for flag in flags}
    else:
        by_prop = {flag: [] for flag in flags}
        at, get = board.world.at, board.world.get
        for x, y in board.touched:
            for entity in at(x, y):
                mask = props.get(get(entity, Kind).name, 0)
                for flag in flags:
                    if mask & flag:
                        by_prop[flag].append(entity)
        for found in by_prop.values():
            found.sort()
    for flag in RESOLVING:
        EFFECTS[flag](board, by_prop.get(flag, []))


def _cell(board: Board, entity: int) -> list[int]:
    pos = board.world.get(entity, Position)
    return list(board.world.at(pos.x, pos.y))


def _sink(board: Board, sinkers: list[int]) -> None:
    for sinker in sinkers:
        if not board.world.alive(sinker):
            continue
        here = _cell(board, sinker)
        if len(here) > 1:
            for entity in here:
                board.destroy(entity, "sank")


def _weak(board: Board, weak: list[int]) -> None:
    for entity in weak:
        if board.world.alive(entity) and len(_cell(board, entity)) > 1:
            board.destroy(entity, "broke")


def _hits(board: Board, sources: list[int], victim: int, cause: str) -> None:
    """Each source destroys the things with the `victim` property in its cell."""
    for source in sources:
        if not board.world.alive(source):
            continue
        for entity in _cell(board, source):
            if board.mask(entity) & victim:
                board.destroy(entity, cause)


def _open_shut(board: Board, opens: list[int]) -> None:
    for opener in opens:
        if not board.world.alive(opener):
            continue
        for entity in _cell(board, opener):
            if entity != opener and board.mask(entity) & SHUT and board.world.alive(opener):
                board.destroy(entity, "opened")
                board.destroy(opener, "opened")


# What each property that destroys does, by bit: its function gets the things that have it
# (in id order) and acts on their cells. data/properties.yaml gives the order.
EFFECTS: dict[int, Callable[[Board, list[int]], None]] = {
    SINK: _sink,
    WEAK: _weak,
    HOT: lambda board, found: _hits(board, found, MELT, "melted"),
    DEFEAT: lambda board, found: _hits(board, found, YOU, "defeated"),
    OPEN: _open_shut,
}


def _resolving() -> tuple[int, ...]:
    """The bits that resolve, in data/properties.yaml's order; each must have its EFFECTS."""
    from game.data import properties

    rows = sorted((info for info in properties().values() if info.order is not None),
                  key=lambda info: info.order or 0)
    missing = [info.name for info in rows if info.bit not in EFFECTS]
    if missing:
        raise UserError(f"data/properties.yaml: {missing[0]} has an order but no effect in "
                        "systems/properties.py: EFFECTS; add one or drop its order.")
    return tuple(info.bit for info in rows)


RESOLVING = _resolving()
DESTRUCTIVE = bits_where(lambda info: info.order is not None) | SHUT


def players(board: Board) -> list[int]:
    """Every thing that IS YOU, in id order."""
    return board.having(YOU)


def won(board: Board, yous: list[int]) -> bool:
    """Whether a YOU thing stands on a WIN cell (itself WIN counts)."""
    world = board.world
    for entity in yous:
        pos = world.get(entity, Position)
        for other in world.at(pos.x, pos.y):
            if board.mask(other) & WIN:
                return True
    return False
