"""A guess for puzzle levels won through a transformation: a noun K with nothing of its kind
on the board must be made WIN (`K IS WIN`), then something turned into K (`M IS K`). Keke
level 161: FLAG IS WIN with no flag, then ROCK IS FLAG.

The ruleset's distance guess, with nothing WIN on the board, only counts the steps to the
nearest WIN word, and its spell guess prices `N IS WIN` for kinds on the board alone; neither
values the steps of such a chain. This guess is the distance guess wherever a WIN thing
stands. When a kind is WIN but has no things, it is the cheapest `M IS K` to spell (M a kind
on the board that is not YOU: YOU turned into K would be lost) plus YOU's walk to an M thing;
when nothing is WIN, the lower of the distance guess and the cheapest `K IS WIN` to spell for
a noun K with no things, plus LATER for the transformation still to make. A word's distance
to its place counts three times, as in the spell guess (a push moves a word one cell and YOU
must walk round to push again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from components import Position, Word
from components.resources import KINDS_KEY, PROPS_KEY
from systems.rules import Prop, noun_kinds

YOU, WIN = int(Prop.YOU), int(Prop.WIN)
LATER = 12  # the transformation still to spell once `K IS WIN` stands: a few pushes
Cell = tuple[int, int]


def chain_guess(rules: Any) -> Callable[[Any], float]:
    """The guess (see the module) for the puzzle ruleset `rules`, as a function of the world;
    its `heuristic` (the distance guess) where no chain is to be made."""
    nouns = noun_kinds()
    fallback = rules.heuristic

    def guess(world: Any) -> float:
        props: dict[str, int] = world.resource(PROPS_KEY, {})
        index = world.resource(KINDS_KEY) or {}
        win_kinds = [kind for kind, mask in props.items() if mask & WIN and kind != "text"]
        if any(index.get(kind) for kind in win_kinds):
            return float(fallback(world))  # a WIN thing stands: walk to it
        words: dict[str, list[Cell]] = {}
        for _entity, (word, pos) in world.query(Word, Position):
            words.setdefault(word.text, []).append((pos.x, pos.y))
        yous = [pos for kind, mask in props.items() if mask & YOU and kind != "text"
                for pos in _cells(world, index, kind)]
        if not yous or "IS" not in words:
            return float(fallback(world))
        present = {text for text, kind in nouns.items()
                   if kind != "text" and text in words and index.get(kind)}
        if win_kinds:
            # K IS WIN stands with no K: turn something on the board (not YOU) into K.
            targets = [text for text in words if nouns.get(text) in win_kinds]
            cheapest: int | None = None
            for maker in sorted(present):
                if props.get(nouns[maker], 0) & YOU:
                    continue
                cost = _spell(words, [maker], targets, yous)
                if cost is not None:
                    cost += min(_far(a, b) for a in yous
                                for b in _cells(world, index, nouns[maker]))
                    cheapest = cost if cheapest is None else min(cheapest, cost)
            return float(fallback(world) if cheapest is None else cheapest)
        # Nothing is WIN: the distance guess (to the nearest WIN word), or K IS WIN for a noun
        # with nothing on the board, and a transformation to spell after it.
        lowest = float(fallback(world))
        absent = [text for text in words if text in nouns and nouns[text] != "text"
                  and text not in present]
        if absent and "WIN" in words:
            found = _spell(words, absent, ["WIN"], yous)
            if found is not None:
                lowest = min(lowest, float(found + LATER))
        return lowest

    return guess


def _cells(world: Any, index: dict[str, Any], kind: str) -> list[Cell]:
    get = world.get
    found = []
    for entity in index.get(kind, ()):
        pos = get(entity, Position)
        found.append((pos.x, pos.y))
    return found


def _spell(words: dict[str, list[Cell]], lefts: list[str], rights: list[str],
           yous: list[Cell]) -> int | None:
    """The cost of the cheapest `L IS R` round an IS word (3 x each word's distance to its
    slot, plus YOU's walk to the L word), or None."""
    best: int | None = None
    right_cells = [cell for text in rights for cell in words.get(text, ())]
    if not right_cells:
        return None
    for ix, iy in words["IS"]:
        for (lx, ly), (rx, ry) in (((ix - 1, iy), (ix + 1, iy)), ((ix, iy - 1), (ix, iy + 1))):
            right = min(3 * _far(cell, (rx, ry)) for cell in right_cells)
            for text in lefts:
                for cell in words[text]:
                    cost = 3 * _far(cell, (lx, ly)) + right + \
                        min(_far(you, cell) for you in yous)
                    if best is None or cost < best:
                        best = cost
    return best


def _far(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
