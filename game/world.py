"""The World: the one door to esper, with a journal that makes every change undoable.

esper (>= 3.9) keeps worlds as module-level contexts; each World owns one context and switches
to it on entry. Components are changed in place (`update`), because esper rebuilds its query
cache whenever a component is added or removed. Every write records what it replaced, so
`rollback(mark)` restores components, the cell index, resources and the RNG exactly. The
journal's entries (`Op`), what a stretch of them touched (`touched_since`) and the state hash
kept from them (`state_key`) are read in one place, game.journal.
"""

from __future__ import annotations

import contextlib
import itertools
from bisect import bisect_left
from collections.abc import Callable, Hashable
from dataclasses import fields, is_dataclass
from typing import Any, TypeVar

import esper

from components.spatial import Position
from game.journal import (
    ADD,
    MISSING,
    MOVE,
    REMOVE,
    RESOURCE,
    RNG,
    SET,
    SPAWN,
    Change,
    Op,
    Recording,
    Touched,
    full_hash,
    hash_after,
    touched,
    values_after,
)

__all__ = ["MISSING", "Change", "Op", "Recording", "Touched", "World", "WorldRandom"]

C = TypeVar("C")
T = TypeVar("T")
Cell = tuple[int, int]

_names = itertools.count(1)
_OWNERS: dict[str, object] = {}  # esper context name -> the token of the World that made it


_MASK64 = (1 << 64) - 1


class WorldRandom:
    """A small splitmix64 generator whose whole state is one int, so journaling it is cheap."""

    __slots__ = ("_world", "state")

    def __init__(self, world: World, seed: int) -> None:
        self._world = world
        self.state = seed & _MASK64

    def _next(self) -> int:
        self._world._journal.append((RNG, self.state))
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform int in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self._next() % n

    def random(self) -> float:
        return (self._next() >> 11) / float(1 << 53)


class World:
    """Entities, components, a cell index, resources and an RNG, all undoable."""

    def __init__(self, seed: int = 0) -> None:
        self.name = f"rulefront-{next(_names)}"
        self._token = _OWNERS[self.name] = object()
        self._enter()
        # esper's own components by entity for this context: a context keeps one dict for
        # its whole life (switching rebinds esper's globals to it), so reads need no switch
        self._components: dict[int, dict[type, Any]] = esper._entities  # noqa: SLF001
        self._journal: list[tuple[Any, ...]] = []
        self._cells: dict[Cell, list[int]] = {}
        self._resources: dict[str, Any] = {}
        self._queries: dict[tuple[type, ...], list[Any]] = {}
        # (journal position of a structural write, the query lists from before it): an undo
        # past that write finds them again instead of asking esper (see _restructure)
        self._kept_queries: list[tuple[int, dict[tuple[type, ...], list[Any]]]] = []
        # by key: (a query's list, what was worked out from it), see from_query
        self._from_queries: dict[Hashable, tuple[list[Any], Any]] = {}
        self._alive: set[int] = set()
        self._epoch = 0  # bumped when the journal is dropped, so version() never repeats
        self._keys: list[tuple[tuple[int, int, Any], int]] = []  # (version, state hash)
        self._touched: tuple[int, int, Any, int, Touched] = (-1, -1, None, -1, touched(()))
        self.rng = WorldRandom(self, seed)

    # -- esper context -----------------------------------------------------------------

    def _enter(self) -> None:
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def close(self) -> None:
        """Free the esper context; the World must not be used afterwards. Only the World that
        made a context frees it: a stray copy of this object never takes the original's."""
        if _OWNERS.get(self.name) is not self._token:
            return
        del _OWNERS[self.name]
        if self.name in esper.list_worlds():
            if esper.current_world == self.name:
                esper.switch_world("default")
            esper.delete_world(self.name)

    def __reduce__(self) -> Any:
        raise TypeError("a World cannot be copied or pickled on its own (it is one esper "
                        "context); copy or pickle its Engine, which is rebuilt from its commands")

    def __del__(self) -> None:  # pragma: no cover - best effort at interpreter shutdown
        with contextlib.suppress(Exception):
            self.close()

    # -- reading -----------------------------------------------------------------------

    def get(self, entity: int, component: type[C]) -> C:
        """The entity's component (KeyError when it has none): read from this context's
        own dict, without switching esper to it (the hottest call there is)."""
        found: C = self._components[entity][component]
        return found

    def try_get(self, entity: int, component: type[C]) -> C | None:
        comps = self._components.get(entity)
        return None if comps is None else comps.get(component)

    def has(self, entity: int, component: type) -> bool:
        self._enter()
        return entity in self._alive and esper.has_component(entity, component)

    def alive(self, entity: int) -> bool:
        return entity in self._alive

    def entities(self) -> list[int]:
        return sorted(self._alive)

    def components(self, entity: int) -> tuple[Any, ...]:
        self._enter()
        return esper.components_for_entity(entity)

    def query(self, *types: type) -> list[Any]:
        """[(entity, component)] for one type or [(entity, (c1, c2, ...))] for several,
        ordered by entity id. The list is shared: do not mutate it."""
        cached = self._queries.get(types)
        if cached is None:
            self._enter()
            if len(types) == 1:
                cached = sorted(esper.get_component(types[0]), key=_first)
            else:
                cached = sorted(esper.get_components(*types), key=_first)
            self._queries[types] = cached
        return cached

    def from_query(self, key: Hashable, types: tuple[type, ...],
                   work_out: Callable[[list[Any]], T]) -> T:
        """`work_out(self.query(*types))`, remembered under `key` while that query's list
        stands: the World replaces the list whenever an entity comes or goes, and an undo
        brings the old one back. For what follows from which entities there are (a side is
        never rewritten), not from fields that change in place."""
        found = self.query(*types)
        kept = self._from_queries.get(key)
        if kept is not None and kept[0] is found:
            result: T = kept[1]
            return result
        made = work_out(found)
        self._from_queries[key] = (found, made)
        return made

    def at(self, x: int, y: int) -> list[int]:
        """Entity ids in a cell, in id order. The list is shared: do not mutate it."""
        return self._cells.get((x, y), _EMPTY)

    def beside(self, x: int, y: int) -> bool:
        """Whether any of the four cells beside (x, y) holds an entity (four `at`s in one
        call: asked beside every hero in every legal_actions)."""
        cells = self._cells
        return (x, y - 1) in cells or (x + 1, y) in cells or (x, y + 1) in cells \
            or (x - 1, y) in cells

    def resource(self, key: str, default: Any = None) -> Any:
        return self._resources.get(key, default)

    def resource_keys(self) -> list[str]:
        """The names of the resources set, sorted (state hashing reads them all)."""
        return sorted(self._resources)

    # -- writing (journaled) -----------------------------------------------------------

    def spawn(self, *components: Any) -> int:
        self._enter()
        entity = esper.create_entity(*components)
        self._alive.add(entity)
        queries = self._queries
        self._restructure()
        if queries:  # the lists from before with the newcomer, cheaper than asking esper again
            self._queries = _with_spawned(queries, entity, components)
        self._journal.append((SPAWN, entity, components))
        for comp in components:
            if type(comp) is Position:
                self._index_add(entity, comp.x, comp.y)
        return entity

    def update(self, entity: int, component: type, **values: Any) -> None:
        """Change fields of a component in place, journaling the old values."""
        comp: Any = self.get(entity, component)
        if component is Position:
            old = (comp.x, comp.y)
            for key, value in values.items():
                setattr(comp, key, value)
            new = (comp.x, comp.y)
            if new != old:
                self._journal.append((MOVE, entity, comp, old))
                self._index_remove(entity, *old)
                self._index_add(entity, *new)
            return
        journal = self._journal
        for key, value in values.items():
            journal.append((SET, entity, comp, key, getattr(comp, key)))
            setattr(comp, key, value)

    def set(self, entity: int, component: type, key: str, value: Any) -> None:
        """`update(entity, component, key=value)` for one field of a component other than
        Position (`move` writes that one): the write a turn makes most."""
        comp = self._components[entity][component]
        self._journal.append((SET, entity, comp, key, getattr(comp, key)))
        setattr(comp, key, value)

    def move(self, entity: int, x: int, y: int) -> None:
        """`update(entity, Position, x=x, y=y)` without the generic path: the one write a
        puzzle search makes most."""
        comp: Any = self._components[entity][Position]
        old = (comp.x, comp.y)
        if old != (x, y):
            comp.x, comp.y = x, y
            self._journal.append((MOVE, entity, comp, old))
            self._index_remove(entity, *old)
            cells = self._cells
            ids = cells.get((x, y))
            if ids is None:  # _index_add, inlined: most often an empty cell
                cells[(x, y)] = [entity]
            else:
                self._index_add(entity, x, y)

    def add(self, entity: int, comp: Any) -> None:
        """Give an entity a component it does not have yet."""
        self._enter()
        if esper.has_component(entity, type(comp)):
            raise ValueError(f"entity {entity} already has {type(comp).__name__}")
        esper.add_component(entity, comp)
        self._restructure()
        self._journal.append((ADD, entity, type(comp), comp))
        if type(comp) is Position:
            self._index_add(entity, comp.x, comp.y)

    def remove(self, entity: int, component: type) -> None:
        self._enter()
        comp: Any = esper.remove_component(entity, component)
        self._restructure()
        self._journal.append((REMOVE, entity, comp))
        if component is Position:
            self._index_remove(entity, comp.x, comp.y)

    def destroy(self, entity: int) -> None:
        """Take an entity out of play. Its id stays reserved so that undo can bring it back."""
        queries = self._queries
        for comp in self.components(entity):
            self.remove(entity, type(comp))
        # In no query now: the lists from before without it, cheaper than asking esper again
        # (a list it was not in is kept as it is, and so is what from_query made of it).
        self._queries = {types: _without(found, entity) for types, found in queries.items()}
        self._alive.discard(entity)
        self._journal.append((REMOVE, entity, None))

    def set_resource(self, key: str, value: Any) -> None:
        """Store a world-wide value (rules in force, caches of derived data), journaled."""
        self._journal.append((RESOURCE, key, self._resources.get(key, MISSING)))
        self._resources[key] = value

    # -- undo --------------------------------------------------------------------------

    def mark(self) -> int:
        """A point in the journal to roll back to."""
        return len(self._journal)

    def rollback(self, mark: int) -> None:
        """Undo every write made since `mark`, newest first."""
        journal = self._journal
        if mark > len(journal):
            raise ValueError("cannot roll back to a mark in the future")
        while len(journal) > mark:
            entry = journal.pop()
            op = entry[0]
            if op == SET:
                setattr(entry[2], entry[3], entry[4])
            elif op == MOVE:
                _, entity, comp, (x, y) = entry
                self._index_remove(entity, comp.x, comp.y)
                comp.x, comp.y = x, y
                self._index_add(entity, x, y)
            elif op == RNG:
                self.rng.state = entry[1]
            elif op == RESOURCE:
                if entry[2] is MISSING:
                    del self._resources[entry[1]]
                else:
                    self._resources[entry[1]] = entry[2]
            elif op == REMOVE and entry[2] is None:  # the end of a destroy: back in play
                self._alive.add(entry[1])
            else:
                self._enter()  # esper's calls below act on its current context
                self._rollback_structure(entry)
                kept = self._kept_queries
                if kept and kept[-1][0] == len(journal):
                    self._queries = kept.pop()[1]
                else:
                    self._queries = {}

    def _restructure(self) -> None:
        """Before a structural write is journaled: the query lists no longer hold. They are
        kept with the write's journal position, so undoing it brings them back (a search
        undoes every spawn and death it plays), and queries start afresh."""
        if self._queries:
            self._kept_queries.append((len(self._journal), self._queries))
            self._queries = {}

    def _rollback_structure(self, entry: tuple[Any, ...]) -> None:
        op, entity = entry[0], entry[1]
        if op == ADD:
            comp = esper.remove_component(entity, entry[2])
            if type(comp) is Position:
                self._index_remove(entity, comp.x, comp.y)
        elif op == REMOVE:
            comp = entry[2]
            esper.add_component(entity, comp)
            if type(comp) is Position:
                self._index_add(entity, comp.x, comp.y)
        elif op == SPAWN:
            for comp in esper.components_for_entity(entity):
                if type(comp) is Position:
                    self._index_remove(entity, comp.x, comp.y)
            esper.delete_entity(entity, immediate=True)
            self._alive.discard(entity)
            # Hand the id out again, so that a redo spawns the very same entity.
            esper._entity_count = itertools.count(start=entity)  # noqa: SLF001

    # -- writing a stretch again ------------------------------------------------------

    def recording(self, mark: int) -> Recording:
        """What was written since `mark` (on the current line of play), kept so that
        `reapply` can write it again once it is rolled back: the same entries, so the world
        and its journal come back exactly as they are now."""
        journal = self._journal
        entries = journal[mark:]
        base = (self._epoch, mark, journal[mark - 1] if mark else None)
        return Recording(base, entries, values_after(self, entries))

    def reapply(self, recording: Recording) -> bool:
        """Write a recorded stretch again, without working it out again (what a search does
        when it returns to a line it has played). Only on the state it was recorded on:
        anywhere else it writes nothing and answers False."""
        if not self.same_version(recording.base):
            return False
        self._enter()
        journal = self._journal
        for entry, value in zip(recording.entries, recording.after, strict=True):
            op = entry[0]
            if op == SET:
                setattr(entry[2], entry[3], value)
            elif op == MOVE:
                entity, comp = entry[1], entry[2]
                self._index_remove(entity, comp.x, comp.y)
                comp.x, comp.y = value
                self._index_add(entity, comp.x, comp.y)
            elif op == RNG:
                self.rng.state = value
            elif op == RESOURCE:
                if value is MISSING:
                    del self._resources[entry[1]]
                else:
                    self._resources[entry[1]] = value
            elif op == REMOVE and entry[2] is None:  # the end of a destroy
                self._alive.discard(entry[1])
            else:
                self._reapply_structure(entry)
                self._restructure()
            journal.append(entry)
        return True

    def _reapply_structure(self, entry: tuple[Any, ...]) -> None:
        op, entity = entry[0], entry[1]
        if op == SPAWN:
            made = esper.create_entity(*entry[2])
            assert made == entity, "a stretch reapplied on another state"
            self._alive.add(entity)
            for comp in entry[2]:
                if type(comp) is Position:
                    self._index_add(entity, comp.x, comp.y)
        elif op == ADD:
            esper.add_component(entity, entry[3])
            if entry[2] is Position:
                self._index_add(entity, entry[3].x, entry[3].y)
        else:
            comp = esper.remove_component(entity, type(entry[2]))
            if type(comp) is Position:
                self._index_remove(entity, comp.x, comp.y)

    def version(self) -> tuple[int, int, Any]:
        """A token naming the current state: equal (`same_version`) only in that very state.

        Every write appends a fresh journal entry and undo pops entries for good, so the
        journal's length and its last entry (by identity) pin the state down. Derived data
        (occupancy, reachable cells) can be cached against it without being journaled.
        """
        journal = self._journal
        return (self._epoch, len(journal), journal[-1] if journal else None)

    def same_version(self, token: tuple[int, int, Any]) -> bool:
        """Whether `token` (a `version()`) names the current state: is_ancestor at the
        journal's end, inline (asked several times a command)."""
        epoch, length, entry = token
        journal = self._journal
        return length == len(journal) and epoch == self._epoch \
            and (journal[-1] if length else None) is entry

    def is_ancestor(self, token: tuple[int, int, Any]) -> bool:
        """Whether the state `token` names is this one or one it grew from (not undone since);
        then `changes_since(token[1])` is exactly what was written after it."""
        epoch, length, entry = token
        journal = self._journal
        if epoch != self._epoch or length > len(journal):
            return False
        return (journal[length - 1] if length else None) is entry

    def changes_since(self, mark: int) -> list[Change]:
        """The journal entries written since `mark`, oldest first (see `Op` for their shapes).
        Readers that want to know what changed ask `touched_since` instead."""
        return self._journal[mark:]

    def touched_since(self, mark: int) -> Touched:
        """What was written since `mark` (a point on the current line of play): the entities,
        fields, resources and RNG, with their values from before, decoded once. Read-only:
        the answer is kept for the next reader of the same stretch (a search's hash and its
        occupancy cache both ask after each command)."""
        journal = self._journal
        length = len(journal)
        memo = self._touched
        # The journal only shrinks from its end, so an unchanged length, last entry (by
        # identity, as in version()) and epoch mean the very same entries since `mark`.
        if memo[1] == length and memo[0] == mark and length and memo[2] is journal[-1] \
                and memo[3] == self._epoch:
            return memo[4]
        found = touched(journal[mark:])
        self._touched = (mark, length, journal[-1] if length else None, self._epoch, found)
        return found

    def forget_history(self) -> None:
        """Drop the journal (after loading a map): nothing before this point can be undone."""
        self._journal.clear()
        self._kept_queries.clear()
        self._epoch += 1

    # -- comparing -----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """A plain, comparable picture of the whole world: components, cells, resources, RNG."""
        self._enter()
        entities: dict[int, dict[str, Any]] = {}
        for entity in sorted(self._alive):
            comps: tuple[Any, ...] = esper.components_for_entity(entity)
            entities[entity] = {type(comp).__name__: _values(comp) for comp in comps}
        cells = {cell: list(ids) for cell, ids in sorted(self._cells.items()) if ids}
        return {
            "entities": entities,
            "cells": cells,
            "resources": dict(sorted(self._resources.items())),
            "rng": self.rng.state,
        }

    def state_key(self) -> int:
        """The state hash (game.journal): equal for equal snapshots, and different ones differ
        but for a 64-bit collision. Kept up to date from the journal: a call pays for what was
        written since the newest state it hashed on the current line of play, not for the
        whole world. A search that keeps its own (value, mark) pairs uses `StateHash`, the
        same hash."""
        keys = self._keys
        while keys and not self.is_ancestor(keys[-1][0]):
            keys.pop()  # a line of play that was undone
        now = self.version()
        if not keys:
            value = full_hash(self)
        else:
            token, value = keys[-1]
            if token[1] == now[1]:
                return value
            value = hash_after(self, value, token[1])
        keys.append((now, value))
        if len(keys) > 512:  # a long game: the oldest points are never needed again
            del keys[:256]
        return value

    # -- cell index ----------------------------------------------------------------------

    def _index_add(self, entity: int, x: int, y: int) -> None:
        ids = self._cells.get((x, y))
        if ids is None:
            self._cells[(x, y)] = [entity]
        else:
            ids.append(entity)
            if len(ids) > 1 and ids[-2] > entity:
                ids.sort()

    def _index_remove(self, entity: int, x: int, y: int) -> None:
        ids = self._cells[(x, y)]
        ids.remove(entity)
        if not ids:
            del self._cells[(x, y)]


_EMPTY: list[int] = []


def _with_spawned(queries: dict[tuple[type, ...], list[Any]], entity: int,
                  components: tuple[Any, ...]) -> dict[tuple[type, ...], list[Any]]:
    """Query lists (by entity id) with a new entity added to those whose types it has. A new
    id is above every live one, so it goes last; a list it would not end is left out (asked
    of esper again when wanted)."""
    held = {type(comp): comp for comp in components}
    has, take = held.__contains__, held.__getitem__  # (map over them: no Python frames)
    kept: dict[tuple[type, ...], list[Any]] = {}
    for types, found in queries.items():
        if found and found[-1][0] > entity:
            continue
        if len(types) == 1:
            comp = held.get(types[0])
            kept[types] = found if comp is None else [*found, (entity, comp)]
        elif all(map(has, types)):
            kept[types] = [*found, (entity, tuple(map(take, types)))]
        else:
            kept[types] = found
    return kept


def _without(found: list[Any], entity: int) -> list[Any]:
    """A query list (by entity id) without `entity`: found by bisection, cut out in C. A pair
    (id, ...) sorts after (id,), so no component is ever compared."""
    i = bisect_left(found, (entity,))
    if i < len(found) and found[i][0] == entity:
        return found[:i] + found[i + 1:]
    return found


def _first(pair: tuple[int, Any]) -> int:
    return pair[0]


def _values(comp: Any) -> Any:
    if is_dataclass(comp):
        return tuple(getattr(comp, f.name) for f in fields(comp))
    return repr(comp)
