"""Rules in force: read from word tiles on the grid, folded into a per-kind bit mask.

Base rules come from the ruleset (ROCK IS STOP...); word tiles on the map add to them. Rules are
read left-to-right and top-to-bottom with the grammar
`NOUN (AND NOUN)* IS (PROPERTY|NOUN) (AND (PROPERTY|NOUN))*`. The mask is derived data: it is
recomputed when words move and stored with `set_resource`, so undo restores it with the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntFlag
from functools import cache
from typing import Any

from components import Kind, Position, Word
from components.resources import BASE_KEY, PROPS_KEY, RULES_KEY
from game.events import Event, RuleBroken, RuleFormed
from game.world import World


class Prop(IntFlag):
    """The bits the code names (data/properties.yaml gives every property's bit, these among
    them: `property_bits` checks that they agree). A property only data acts on (FAST...)
    needs no member here."""

    NONE = 0
    YOU = 1
    WIN = 2
    STOP = 4
    PUSH = 8
    DEFEAT = 16
    SINK = 32
    HOT = 64
    MELT = 128
    MOVE = 256
    OPEN = 512
    SHUT = 1024
    WEAK = 2048


@cache
def property_bits() -> dict[str, int]:
    """Property name -> its bit, from data/properties.yaml (in the file's order)."""
    from game.data import properties
    from game.errors import UserError

    bits = {info.name: info.bit for info in properties().values()}
    for flag in Prop:
        if flag is not Prop.NONE and bits.get(str(flag.name)) != int(flag):
            raise UserError(f"data/properties.yaml: {flag.name} must keep bit {int(flag)} "
                            "(systems.rules.Prop names it).")
    return bits


def bits_where(test: Callable[[Any], bool]) -> int:
    """The mask of every property whose data/properties.yaml row passes `test`."""
    from game.data import properties

    mask = 0
    for info in properties().values():
        if test(info):
            mask |= info.bit
    return mask


Cell = tuple[int, int]


@cache
def noun_kinds() -> dict[str, str]:
    """Noun word text -> the kind it names ('BABA' -> 'baba', 'TEXT' -> 'text')."""
    from game.data import words

    kinds = {info.text: info.kind for info in words().values() if info.part == "noun"}
    kinds.setdefault("TEXT", "text")
    return kinds


def parse_rule(text: str) -> tuple[str, str]:
    """'ROCK IS STOP' -> ('rock', 'STOP'); raises ValueError on anything else."""
    parts = text.split()
    if len(parts) != 3 or parts[1] != "IS":
        raise ValueError(f"rule {text!r} is not of the form 'NOUN IS PROPERTY'")
    return noun_kinds().get(parts[0], parts[0].lower()), parts[2]


def masks_for(rules: tuple[str, ...]) -> dict[str, int]:
    """Fold 'NOUN IS PROPERTY' rules into kind -> mask (NOUN IS NOUN is ignored here).

    Masks are plain ints with Prop's bits (IntFlag arithmetic is ten times slower, and the
    puzzle solver tests them millions of times). Text is always PUSH, whatever the words say.
    """
    masks: dict[str, int] = {"text": int(Prop.PUSH)}
    names = property_bits()
    for rule in rules:
        noun, prop = parse_rule(rule)
        flag = names.get(prop)
        if flag is not None:
            masks[noun] = masks.get(noun, 0) | int(flag)
    return masks


def transformations(rules: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """kind -> kinds it turns into, from 'X IS Y' with Y a noun; 'X IS X' keeps X as it is."""
    nouns = noun_kinds()
    kept = set()
    turns: dict[str, list[str]] = {}
    for rule in rules:
        subject, _is, target = rule.split()
        if target not in nouns or subject not in nouns:
            continue
        if subject == target:
            kept.add(nouns[subject])
        else:
            turns.setdefault(nouns[subject], []).append(nouns[target])
    return {kind: tuple(dict.fromkeys(targets)) for kind, targets in turns.items()
            if kind not in kept}


def set_rules(world: World, rules: tuple[str, ...]) -> None:
    """Put `rules` in force as the base rules (those that hold without words)."""
    world.set_resource(BASE_KEY, tuple(rules))
    world.set_resource(RULES_KEY, tuple(rules))
    world.set_resource(PROPS_KEY, masks_for(tuple(rules)))


# -- reading words -----------------------------------------------------------------------


def word_grid(world: World) -> dict[Cell, list[tuple[str, str]]]:
    """Cell -> [(text, part)] of the word tiles standing there, in entity id order."""
    grid: dict[Cell, list[tuple[str, str]]] = {}
    for _entity, (word, pos) in world.query(Word, Position):
        grid.setdefault((pos.x, pos.y), []).append((word.text, word.part))
    return grid


def read_rules(grid: dict[Cell, list[tuple[str, str]]]) -> tuple[str, ...]:
    """Every rule the words spell, in reading order (IS words row by row, across then down)."""
    rules: list[str] = []
    operators = sorted(cell for cell, tiles in grid.items() if ("IS", "operator") in tiles)
    for x, y in sorted(operators, key=lambda c: (c[1], c[0])):
        for dx, dy in ((1, 0), (0, 1)):
            subjects = _chain(grid, x - dx, y - dy, -dx, -dy, ("noun",))
            targets = _chain(grid, x + dx, y + dy, dx, dy, ("noun", "property"))
            for subject in reversed(subjects):
                for target in targets:
                    rules.append(f"{subject} IS {target}")
    return tuple(dict.fromkeys(rules))


def _chain(grid: dict[Cell, list[tuple[str, str]]], x: int, y: int, dx: int, dy: int,
           parts: tuple[str, ...]) -> list[str]:
    """Words of `parts` joined by AND, starting at (x, y) and walking (dx, dy)."""
    found: list[str] = []
    while True:
        word = _first(grid.get((x, y)), parts)
        if word is None:
            return found
        found.append(word)
        if _first(grid.get((x + dx, y + dy)), ("operator",), "AND") is None:
            return found
        x, y = x + 2 * dx, y + 2 * dy


def _first(tiles: list[tuple[str, str]] | None, parts: tuple[str, ...],
           text: str | None = None) -> str | None:
    if not tiles:
        return None
    for word, part in tiles:
        if part in parts and (text is None or word == text):
            return word
    return None


_read_cache: dict[tuple[tuple[str, ...], tuple[tuple[str, str, int, int], ...]],
                  tuple[str, ...]] = {}


def rules_now(world: World) -> tuple[str, ...]:
    """Base + word rules for the words where they stand (memoised by the words' places: a
    search meets the same few layouts over and over)."""
    base = world.resource(BASE_KEY, ())
    layout = tuple((w.text, w.part, p.x, p.y) for _e, (w, p) in world.query(Word, Position))
    key = (base, layout)
    rules = _read_cache.get(key)
    if rules is None:
        if len(_read_cache) > 200_000:
            _read_cache.clear()
        rules = _read_cache[key] = tuple(dict.fromkeys(base + read_rules(word_grid(world))))
    return rules


def alone(world: World, moves: list[tuple[Cell, Cell | None]]) -> bool:
    """Whether `moves` (from, to: the words moved this turn; to None for one destroyed) were
    one word's step from a cell beside no other word to a cell beside no other word. A rule's
    words stand in a line, each beside the next, and reading the rules looks only at words
    and the cells beside words, so such a step cannot change the rules (a third of the reads
    in a search of level 107 are such steps)."""
    if len(moves) != 1:
        return False
    (x0, y0), end = moves[0]
    if end is None:
        return False
    x1, y1 = end
    dx, dy = x1 - x0, y1 - y0
    at, get = world.at, world.get
    # The cell left, the three others beside it and the three beside the cell entered.
    for x, y in ((x0, y0), (x0 - dx, y0 - dy), (x0 + dy, y0 + dx), (x0 - dy, y0 - dx),
                 (x1 + dx, y1 + dy), (x1 + dy, y1 + dx), (x1 - dy, y1 - dx)):
        for entity in at(x, y):
            if get(entity, Kind).name == "text":
                return False
    entered = at(x1, y1)
    return len(entered) == 1 or sum(get(entity, Kind).name == "text" for entity in entered) == 1


def refresh_rules(world: World) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Re-read the words; put base + word rules in force. Returns (formed, broken) rules."""
    rules = rules_now(world)
    old = world.resource(RULES_KEY, ())
    if rules == old:
        return (), ()
    world.set_resource(RULES_KEY, rules)
    world.set_resource(PROPS_KEY, masks_for(rules))
    formed = tuple(r for r in rules if r not in old)
    broken = tuple(r for r in old if r not in rules)
    return formed, broken


def reread_rules(world: World) -> list[Event]:
    """refresh_rules, as events: each rule broken, then each rule formed (none: no change)."""
    formed, broken = refresh_rules(world)
    return [RuleBroken(r) for r in broken] + [RuleFormed(r) for r in formed]


def sentences(world: World) -> dict[str, tuple[Cell, ...]]:
    """Each rule the words spell -> the cells of its words, first word to last (the subject,
    IS, the target and any AND between), in reading order: where the sentence stands."""
    grid = word_grid(world)
    found: dict[str, tuple[Cell, ...]] = {}
    operators = sorted(cell for cell, tiles in grid.items() if ("IS", "operator") in tiles)
    for x, y in sorted(operators, key=lambda c: (c[1], c[0])):
        for dx, dy in ((1, 0), (0, 1)):
            subjects = _chain(grid, x - dx, y - dy, -dx, -dy, ("noun",))
            targets = _chain(grid, x + dx, y + dy, dx, dy, ("noun", "property"))
            for i, subject in reversed(list(enumerate(subjects))):
                for j, target in enumerate(targets):
                    cells = tuple((x + k * dx, y + k * dy) for k in range(-1 - 2 * i, 2 + 2 * j))
                    found.setdefault(f"{subject} IS {target}", cells)
    return found


def property_table() -> str:
    """docs/rules.md's table of every property on a skirmish map, from data/properties.yaml
    (`python -m systems.rules --table` prints it; a test keeps the page current)."""
    from game.data import properties

    lines = ["| word | bit | resolves | on a hero or minion | on a tower or HQ | on scenery |",
             "|---|---|---|---|---|---|"]
    for info in properties().values():
        order = "-" if info.order is None else str(info.order)
        lines.append(f"| {info.name} | {info.bit} | {order} | {info.unit} | {info.building} "
                     f"| {info.cell} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(property_table())
