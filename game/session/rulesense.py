"""What the rules mean to a player: what a command would form and break, in words; which rules
are fixed and which are spelled by word tiles, and where each sentence stands.

A preview is not guessed: the command is applied, its RuleFormed / RuleBroken events read and
the command retracted (the engine's exact undo), as every search in this project does. Front
ends (the window's hover preview and rules panel, the Textual client's status line and panel,
the log) all read their sentences from here, so they say the same thing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from components import Word
from components.resources import BASE_KEY, RULES_KEY
from game.events import RuleBroken, RuleFormed
from systems.rules import Cell, noun_kinds, sentences

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine
    from game.world import World

def meaning(rule: str, holds: bool) -> str:
    """What `rule` does while it `holds` (or what its breaking undoes), in words read from
    the property table (data/properties.yaml), the one place they live: ('WATER IS STOP',
    False) -> 'water loses STOP, which meant: solid: no unit walks in, ...'."""
    parts = rule.split()
    if len(parts) != 3:
        return ""
    nouns = noun_kinds()
    subject = nouns.get(parts[0], parts[0].lower())
    target = parts[2]
    if target in nouns:
        other = nouns[target]
        if other == subject:
            return f"{subject} stays {subject}" if holds else f"{subject} may change again"
        return f"every {subject} turns into {other}" if holds else \
            f"{subject} no longer turns into {other}"
    what = _effect(subject, target)
    if not what:
        return f"{subject} is {target}" if holds else f"{subject} is no longer {target}"
    what = what[:1].lower() + what[1:]
    if holds:
        return f"{subject} gains {target}: {what}"
    return f"{subject} loses {target}, which meant: {what}"


def _effect(kind: str, prop: str) -> str:
    """What `prop` does to things of `kind` on a skirmish map, from data/properties.yaml (its
    unit, building or cell column), without the final full stop; '' for no such property."""
    from game.data import properties
    from systems.stats import unit_nouns

    info = properties().get(prop)
    if info is None:
        return ""
    text = info.building if kind in ("tower", "hq") else \
        info.unit if kind in unit_nouns() else info.cell
    return text.rstrip(".")  # the table's sentences end in one; ours go on


def told(rule: str, change: str) -> str:
    """'WATER IS STOP is broken: water loses STOP, which meant: ...' (change: formed /
    broken)."""
    what = meaning(rule, change == "formed")
    return f"{rule} is {change}" + (f": {what}" if what else "")


def changes(events: Iterable[Any]) -> dict[str, str]:
    """Rule text -> 'formed' or 'broken', from a command's RuleFormed / RuleBroken events (a
    rule broken and formed again by the same command did not change)."""
    found: dict[str, str] = {}
    for event in events:
        if isinstance(event, RuleFormed | RuleBroken):
            now = "formed" if isinstance(event, RuleFormed) else "broken"
            if found.get(event.rule, now) != now:
                del found[event.rule]
            else:
                found[event.rule] = now
    return found


def foresee(engine: Engine, command: Command) -> dict[str, str]:
    """The rules a legal `command` would form and break, from the command applied and
    retracted (nothing at all where no word tile stands)."""
    return foresee_cells(engine, command)[0]


def foresee_cells(engine: Engine, command: Command) -> tuple[dict[str, str],
                                                             dict[Cell, str]]:
    """`foresee`, and the cells of those sentences: where a rule it breaks stands now,
    where one it forms would stand (each cell 'broken' or 'formed')."""
    world = engine.world
    if not world.resource(RULES_KEY) or not _has_words(world):
        return {}, {}
    before = sentences(world)
    events = engine.apply(command)
    try:
        found = changes(events)
        after = sentences(world) if "formed" in found.values() else {}
    finally:
        engine.retract()
    cells: dict[Cell, str] = {}
    for rule, kind in sorted(found.items()):
        for cell in (after if kind == "formed" else before).get(rule, ()):
            cells.setdefault(cell, kind)
    return found, cells


def foresee_lines(engine: Engine, command: Command) -> list[str]:
    """One sentence per rule `command` would change, broken ones first."""
    return told_lines(foresee(engine, command))


def told_lines(found: dict[str, str]) -> list[str]:
    """One sentence per changed rule, broken ones first."""
    return [told(rule, kind) for kind in ("broken", "formed")
            for rule, how in found.items() if how == kind]


def _has_words(world: World) -> bool:
    return any(True for _ in world.query(Word))


def where(cells: tuple[Cell, ...]) -> str:
    """'(6,5)→' for a sentence read across from cell 6,5; '(6,5)↓' read down."""
    if not cells:
        return ""
    (x, y), arrow = cells[0], "→"
    if len(cells) > 1 and cells[1][0] == x:
        arrow = "↓"
    return f"({x},{y}){arrow}"


def fixed_and_word(world: World) -> tuple[list[str], list[tuple[str, tuple[Cell, ...]]]]:
    """The rules in force, split: fixed (the ruleset's base rules, which no push can break)
    and word rules (spelled by tiles, each with the cells of its words)."""
    rules = world.resource(RULES_KEY) or ()
    base = set(world.resource(BASE_KEY) or ())
    spelled = sentences(world) if _has_words(world) else {}
    fixed = [rule for rule in rules if rule in base or rule not in spelled]
    worded = [(rule, spelled[rule]) for rule in rules if rule not in base and rule in spelled]
    return fixed, worded


def panel_lines(world: World) -> list[tuple[str, str, str]]:
    """(line, 'heading' / 'fixed' / 'word' / 'none', its rule or '') for a rules panel:
    'fixed rules' then its rules, 'word rules' then 'WATER IS STOP (6,5)→'..."""
    fixed, worded = fixed_and_word(world)
    lines: list[tuple[str, str, str]] = []
    if fixed:
        lines.append(("fixed rules", "heading", ""))
        lines.extend((rule, "fixed", rule) for rule in fixed)
    lines.append(("word rules", "heading", ""))
    lines.extend((f"{rule} {where(cells)}", "word", rule) for rule, cells in worded)
    if not worded:
        lines.append(("none", "none", ""))
    return lines
