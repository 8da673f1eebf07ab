"""A guess for puzzle levels won through a transformation: a kind K IS WIN but nothing of
it is on the board, so something must be turned into K first (`M IS K`). Keke level 161:
FLAG IS WIN with no flag, then ROCK IS FLAG.

There the ruleset's distance guess sees no WIN thing and counts the steps to the nearest WIN
word, which says nothing about the rule still to make. This guess is the cheapest `M IS K` to
spell (M a kind on the board that is not YOU: YOU turned into K would be lost; each word's
distance to its place counts three times, as in the spell guess: a push moves a word one cell
and YOU must walk round to push again) plus YOU's walk to an M thing. Everywhere else it is
the distance guess itself, so a search on it goes as one on the distance guess until such a
state turns up. (Pricing `K IS WIN` itself, when nothing is WIN, adds nothing: YOU's walk to
the nearest WIN word is never dearer than spelling it, at three steps a cell.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from components import Position, Word
from components.resources import KINDS_KEY, PROPS_KEY
from systems.rules import Prop, noun_kinds

YOU, WIN = int(Prop.YOU), int(Prop.WIN)
Cell = tuple[int, int]


def chain_guess(rules: Any) -> Callable[[Any], float]:
    """The guess (see the module) for the puzzle ruleset `rules`, as a function of the world;
    its `heuristic` (the distance guess) where no transformation is wanted."""
    nouns = noun_kinds()
    fallback = rules.heuristic

    def guess(world: Any) -> float:
        props: dict[str, int] = world.resource(PROPS_KEY, {})
        index = world.resource(KINDS_KEY) or {}
        win_kinds = [kind for kind, mask in props.items() if mask & WIN and kind != "text"]
        if not win_kinds or any(index.get(kind) for kind in win_kinds):
            return float(fallback(world))
        words: dict[str, list[Cell]] = {}
        for _entity, (word, pos) in world.query(Word, Position):
            words.setdefault(word.text, []).append((pos.x, pos.y))
        yous = [pos for kind, mask in props.items() if mask & YOU and kind != "text"
                for pos in _cells(world, index, kind)]
        targets = [text for text in words if nouns.get(text) in win_kinds]
        if not yous or not targets or "IS" not in words:
            return float(fallback(world))
        cheapest: int | None = None
        for maker in sorted(words):
            kind = nouns.get(maker)
            if kind is None or kind == "text" or not index.get(kind) or props.get(kind, 0) & YOU:
                continue
            cost = _spell(words, maker, targets, yous)
            if cost is not None:
                cost += min(_far(a, b) for a in yous for b in _cells(world, index, kind))
                cheapest = cost if cheapest is None else min(cheapest, cost)
        return float(fallback(world) if cheapest is None else cheapest)

    return guess


def _cells(world: Any, index: dict[str, Any], kind: str) -> list[Cell]:
    get = world.get
    found = []
    for entity in index.get(kind, ()):
        pos = get(entity, Position)
        found.append((pos.x, pos.y))
    return found


def _spell(words: dict[str, list[Cell]], left: str, rights: list[str],
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
            for cell in words[left]:
                cost = 3 * _far(cell, (lx, ly)) + right + min(_far(you, cell) for you in yous)
                if best is None or cost < best:
                    best = cost
    return best


def _far(a: Cell, b: Cell) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])
