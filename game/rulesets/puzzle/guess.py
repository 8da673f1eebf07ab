"""Second guesses at the moves left, for greedy searches the distance guess misleads: YOU's
walk to the nearest WIN where cells that would kill YOU (a SINK to fill, a DEFEAT to shift)
and things to push cost extra steps instead of being walls (`through`); the cheapest
'N IS WIN' to spell (`spell_win`); the cheapest transformation into a WIN kind that has no
things (`chain_win`)."""

from __future__ import annotations

import heapq
from typing import Any

from components import Kind, Position, Word
from components.resources import KINDS_KEY, PROPS_KEY, SIZE_KEY
from game.world import World
from systems.board import deadly_mask
from systems.push import kinds_with
from systems.rules import Prop, noun_kinds

YOU, WIN, STOP, PUSH = int(Prop.YOU), int(Prop.WIN), int(Prop.STOP), int(Prop.PUSH)
DEADLY_COST = 6  # a cell that must be filled or cleared first: a few pushes
PUSH_COST = 2  # a thing in the way that can be shoved aside


def through(world: World, fallback: float) -> float:
    """Weighted walking distance from a YOU thing to a WIN thing (see the module), or
    `fallback` when there is no WIN thing or no way to one even at those costs."""
    props: dict[str, int] = world.resource(PROPS_KEY, {})
    index = world.resource(KINDS_KEY)
    if index is not None and not any(index.get(kind) for kind in kinds_with(props, WIN)):
        return fallback  # nothing IS WIN: no pass over the board
    width, height = world.resource(SIZE_KEY)
    deadly = deadly_mask(props, kinds_with(props, YOU))
    # Cells numbered y * width + x; extra[cell] is the added cost of stepping in, -1 a wall.
    extra: dict[int, int] = {}
    yous: set[int] = set()
    wins: list[int] = []
    for _entity, (kind, pos) in world.query(Kind, Position):
        mask = props.get(kind.name, 0)
        if not mask:
            continue
        cell = pos.y * width + pos.x
        if mask & YOU:
            yous.add(cell)
        if mask & WIN:
            wins.append(cell)
            continue
        if mask & PUSH:
            cost = PUSH_COST
        elif mask & STOP:
            cost = -1
        elif mask & deadly:
            cost = DEADLY_COST
        else:
            continue
        known = extra.get(cell, 0)
        if known >= 0:
            extra[cell] = cost if cost < 0 else max(cost, known)
    if not yous or not wins:
        return fallback
    size = width * height
    nexts = _neighbours(width, height)
    best = [1 << 30] * size
    queue = []
    for cell in wins:
        best[cell] = 0
        queue.append(cell)  # distance 0: the entry is the cell itself
    heapq.heapify(queue)
    pop, push, get = heapq.heappop, heapq.heappush, extra.get
    while queue:
        far, here = divmod(pop(queue), size)
        if here in yous:
            return float(far)
        if far > best[here]:
            continue
        for cell in nexts[here]:
            cost = get(cell, 0)
            if cost < 0:
                continue
            step = far + 1 + cost
            if step < best[cell]:
                best[cell] = step
                push(queue, step * size + cell)
    return fallback


_grids: dict[tuple[int, int], list[tuple[int, ...]]] = {}


def _neighbours(width: int, height: int) -> list[tuple[int, ...]]:
    """Each cell's orthogonal neighbours on the board (cells numbered y * width + x)."""
    found = _grids.get((width, height))
    if found is None:
        found = [tuple(ny * width + nx for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1),
                                                    (x, y - 1))
                       if 0 <= nx < width and 0 <= ny < height)
                 for y in range(height) for x in range(width)]
        _grids[(width, height)] = found
    return found


def spell_win(world: World, fallback: float) -> float:
    """A guess for levels where a rule must be made first: the cheapest 'N IS WIN' to spell
    (a noun word of a kind on the board and a WIN word pushed beside an IS word, each by its
    distance, plus YOU's walk to the farther word), then YOU's walk to an N thing (nothing
    when N is YOU's own kind: that wins at once)."""
    props: dict[str, int] = world.resource(PROPS_KEY, {})
    nouns = noun_kinds()
    words: dict[str, list[tuple[int, int]]] = {}
    for _entity, (word, pos) in world.query(Word, Position):
        words.setdefault(word.text, []).append((pos.x, pos.y))
    if "WIN" not in words or "IS" not in words:
        return fallback
    # Only the kinds a noun word names, and YOU's, count: a pass that skips the rest.
    wanted = {nouns.get(text) for text in words} | set(kinds_with(props, YOU))
    things: dict[str, list[tuple[int, int]]] = {}
    for _entity, (kind, pos) in world.query(Kind, Position):
        if kind.name in wanted and kind.name != "text":
            things.setdefault(kind.name, []).append((pos.x, pos.y))
    yous = [cell for kind, cells in things.items() if props.get(kind, 0) & YOU for cell in cells]
    if not yous:
        return fallback
    wins = words["WIN"]
    slots = _slots(world, words, wins, True)
    reach_win = min(_far(you, cell) for you in yous for cell in wins)
    best = fallback
    for text, cells in words.items():
        kind = nouns.get(text)
        if kind is None or kind == "text" or kind not in things:
            continue
        walk = 0 if props.get(kind, 0) & YOU else \
            min(_far(a, b) for a in yous for b in things[kind])
        reach = min(reach_win, min(_far(you, cell) for you in yous for cell in cells))
        spell = best  # the cheapest noun word and slot: 3 x its distance, plus the WIN word's
        for x, y in cells:
            for nx, ny, win, only in slots:
                if only is not None and only != (x, y):
                    continue
                cost = 3 * (abs(x - nx) + abs(y - ny)) + win
                if cost < spell:
                    spell = cost
        best = min(best, spell + reach + walk)
    return float(best)


def _slots(world: World, words: dict[str, list[tuple[int, int]]], rights: list[tuple[int, int]],
           into_is: bool) -> list[tuple[int, int, int, tuple[int, int] | None]]:
    """Each place an `L IS R` could be spelled round an IS word: where the left word must go,
    three times the nearest right word's distance to its place (the same for every left word,
    so worked out once), and the left place itself when a word is pinned there (only that
    word can be the left one). A slot is left out where a place is off the board, or where
    the right place holds a pinned word that is not a right one (Keke 59: BABA IS YOU in the
    top right corner, where WIN can never take YOU's place).

    A pinned word is one no push takes off its place: along each line through it, one side
    is off the board (nothing to push from, or nowhere to go) or is the IS word (a push from
    there moves the IS too). With `into_is`, a push towards the IS pins too (it moves the IS
    and the line with it); the spell guess counts it so (Keke 107 and 83: 9,206 and 9,266
    states, against 15,614 and 16,570 without), the chain guess does not: with it the chain
    searches lose 161 and 162, where the looser guess prices ROCK IS FLAG left of the FLAG
    word in the bottom right corner, through the place KILL holds in SKULL IS KILL IS FLAG.
    No push makes that rule, but the guess leads the search to the corner, where the answer
    spells ROCK IS FLAG down the right edge."""
    width, height = world.resource(SIZE_KEY)
    taken = {cell for cells in words.values() for cell in cells}

    def pinned(x: int, y: int, is_cell: tuple[int, int]) -> bool:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            ahead, behind = (x + dx, y + dy), (x - dx, y - dy)
            if 0 <= ahead[0] < width and 0 <= ahead[1] < height and 0 <= behind[0] < width \
                    and 0 <= behind[1] < height and behind != is_cell \
                    and (not into_is or ahead != is_cell):
                return False
        return True

    rights_at = set(rights)
    slots: list[tuple[int, int, int, tuple[int, int] | None]] = []
    for ix, iy in words["IS"]:
        for (lx, ly), (rx, ry) in (((ix - 1, iy), (ix + 1, iy)), ((ix, iy - 1), (ix, iy + 1))):
            if not (0 <= lx < width and 0 <= ly < height and 0 <= rx < width
                    and 0 <= ry < height):
                continue
            if (rx, ry) in taken and (rx, ry) not in rights_at and pinned(rx, ry, (ix, iy)):
                continue
            only = (lx, ly) if (lx, ly) in taken and pinned(lx, ly, (ix, iy)) else None
            slots.append((lx, ly, 3 * min(abs(x - rx) + abs(y - ry) for x, y in rights), only))
    return slots


def _far(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def chain_win(world: World) -> float:
    """A guess for levels won through a transformation: a kind K IS WIN but nothing of it is
    on the board, so something must be turned into K first (`M IS K`; Keke level 161: FLAG
    IS WIN with no flag, then ROCK IS FLAG). The distance guess sees no WIN thing there and
    counts the steps to the nearest WIN word, which says nothing about the rule still to
    make. This is the cheapest `M IS K` to spell (M a kind on the board that is not YOU: YOU
    turned into K would be lost; each word's distance to its place counts three times, as in
    `spell_win`) plus YOU's walk to an M thing; -1 where no transformation is wanted or none
    can be priced. (Pricing `K IS WIN` itself, when nothing is WIN, adds nothing: YOU's walk
    to the nearest WIN word is never dearer than spelling it, at three steps a cell.)"""
    props: dict[str, int] = world.resource(PROPS_KEY, {})
    index = world.resource(KINDS_KEY) or {}
    win_kinds = [kind for kind, mask in props.items() if mask & WIN and kind != "text"]
    if not win_kinds or any(index.get(kind) for kind in win_kinds):
        return -1.0
    words: dict[str, list[tuple[int, int]]] = {}
    for _entity, (word, pos) in world.query(Word, Position):
        words.setdefault(word.text, []).append((pos.x, pos.y))
    nouns = noun_kinds()
    yous = [pos for kind, mask in props.items() if mask & YOU and kind != "text"
            for pos in _cells(world, index, kind)]
    targets = [text for text in words if nouns.get(text) in win_kinds]
    if not yous or not targets or "IS" not in words:
        return -1.0
    slots = _slots(world, words, [cell for text in targets for cell in words[text]], False)
    cheapest: int | None = None
    for maker in sorted(words):
        kind = nouns.get(maker)
        if kind is None or kind == "text" or not index.get(kind) or props.get(kind, 0) & YOU:
            continue
        spell = _spell(words[maker], slots, yous)
        if spell < 0:  # no slot this word can take
            continue
        cost = spell + min(_far(a, b) for a in yous for b in _cells(world, index, kind))
        cheapest = cost if cheapest is None else min(cheapest, cost)
    return -1.0 if cheapest is None else float(cheapest)


def _cells(world: World, index: dict[str, Any], kind: str) -> list[tuple[int, int]]:
    """The cells of the things of `kind`, by the kind index."""
    get = world.get
    found = []
    for entity in index.get(kind, ()):
        pos = get(entity, Position)
        found.append((pos.x, pos.y))
    return found


def _spell(lefts: list[tuple[int, int]],
           slots: list[tuple[int, int, int, tuple[int, int] | None]],
           yous: list[tuple[int, int]]) -> int:
    """The cost of the cheapest `L IS R` in one of `slots` (`_slots`): 3 x the L word's
    distance to its place, the R word's part, plus YOU's walk to the L word; -1 when no slot
    is open to these words."""
    best = -1
    for x, y in lefts:
        walk = min(_far(you, (x, y)) for you in yous)
        for lx, ly, right, only in slots:
            if only is not None and only != (x, y):
                continue
            cost = 3 * (abs(x - lx) + abs(y - ly)) + right + walk
            if best < 0 or cost < best:
                best = cost
    return best
