"""The World's journal read one way: what its entries are, what a stretch of them touched,
and the one state hash kept up to date from them.

Caches and hashes that follow the World (the occupancy's static part, the window's board, a
search's transposition table) do not decode journal tuples themselves: they ask
`World.touched_since(mark)` (or `touched(entries)`) for a `Touched`, decoded once.
"""

from __future__ import annotations

from dataclasses import fields
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from collections.abc import Set as AbstractSet


class World(Protocol):
    """What the hash reads of game.world.World (named here, not imported: the World imports
    this module, and nothing here may import it back)."""

    rng: Any

    def entities(self) -> list[int]: ...

    def alive(self, entity: int) -> bool: ...

    def components(self, entity: int) -> tuple[Any, ...]: ...

    def resource(self, key: str, default: Any = None) -> Any: ...

    def resource_keys(self) -> list[str]: ...

    def touched_since(self, mark: int) -> Touched: ...

    def state_key(self) -> int: ...


class Op(IntEnum):
    """What a journal entry records. Entries are tuples whose first item is their Op; every
    write to an entity names the entity second:

    - (SET, entity, component, field, old value): a component field written in place
    - (MOVE, entity, position component, (old x, old y)): a Position write
    - (ADD, entity, component type, component): a component given to an entity
    - (REMOVE, entity, component): a component taken away; (REMOVE, entity, None) closes a
      destroy (the entity left play)
    - (SPAWN, entity, components): an entity created with these components (the very
      objects, which later writes change in place and undo puts back)
    - (RESOURCE, key, old value or MISSING): a resource set
    - (RNG, old state): a draw from the world's RNG
    """

    SET = 0
    MOVE = 1
    ADD = 2
    REMOVE = 3
    SPAWN = 4
    RESOURCE = 5
    RNG = 6


Change = tuple[Any, ...]  # one journal entry: (op, ...) as Op's docstring lists

# The journal holds the plain int values of Op (equal to the members): every write appends an
# entry and undo compares each one, and exact ints take the interpreter's fast paths.
SET, MOVE, ADD, REMOVE, SPAWN, RESOURCE, RNG = (op.value for op in Op)

MISSING: Any = object()  # the old value of a resource that was not set (see Op.RESOURCE)


class Touched:
    """What a stretch of the journal wrote, with the values from before it (the first old
    value of each field, resource and the RNG; later ones are overwritten states)."""

    __slots__ = ("born", "fields", "moved", "removed", "resources", "rng", "spawned")

    # (id(component), field) -> (entity, component, value before): fields written in place,
    # a Position's x and y included. Keyed by id: components compare by value.
    fields: dict[tuple[int, str], tuple[int, Any, Any]]
    moved: AbstractSet[int]  # entities whose Position changed
    removed: Sequence[tuple[int, Any]]  # (entity, component taken away or None), oldest first
    born: Sequence[int]  # entities spawned or given a component, oldest first
    spawned: Sequence[int]  # entities spawned (new ones), oldest first
    resources: dict[str, Any]  # key -> value before (MISSING: it was not set)
    rng: int | None  # the RNG's state before, None when it was not drawn

    def entities(self, components: Iterable[type] | None = None) -> set[int]:
        """Every entity written: a move, a component added or removed, a spawn, and a field
        written in place (of one of `components` only, when they are given)."""
        if components is None:
            found = {entity for entity, _comp, _old in self.fields.values()}
        else:
            kinds = frozenset(components)
            found = {entity for entity, comp, _old in self.fields.values() if type(comp) in kinds}
        found.update(self.moved, self.born)
        found.update(entity for entity, _comp in self.removed)
        return found

    def wrote(self, component: type) -> bool:
        """Whether a field of some `component` was written in place."""
        for _entity, comp, _old in self.fields.values():  # noqa: SIM110 (no generator: hot)
            if type(comp) is component:
                return True
        return False


_NONE: frozenset[int] = frozenset()


def touched(changes: Iterable[Change]) -> Touched:
    """Decode journal entries (oldest first) into what they touched."""
    # Locals, and a set made only when something moved: caches ask this for a handful of
    # entries at a time, many times a search.
    written: dict[tuple[int, str], tuple[int, Any, Any]] = {}
    resources: dict[str, Any] = {}
    moved: set[int] | None = None
    removed: list[tuple[int, Any]] = []
    born: list[int] = []
    spawned: list[int] = []
    rng = None
    for entry in changes:
        op = entry[0]
        if op == SET:
            key = (id(entry[2]), entry[3])
            if key not in written:
                written[key] = (entry[1], entry[2], entry[4])
        elif op == MOVE:
            _, entity, comp, (x, y) = entry
            if moved is None:
                moved = {entity}
            else:
                moved.add(entity)
            key = (id(comp), "x")
            if key not in written:  # a Position's x and y are always written together
                written[key] = (entity, comp, x)
                written[(id(comp), "y")] = (entity, comp, y)
        elif op == RNG:
            if rng is None:
                rng = entry[1]
        elif op == RESOURCE:
            if entry[1] not in resources:
                resources[entry[1]] = entry[2]
        elif op == REMOVE:
            removed.append((entry[1], entry[2]))
        else:  # SPAWN or ADD
            born.append(entry[1])
            if op == SPAWN:
                spawned.append(entry[1])
    found = Touched()
    found.fields, found.resources, found.rng = written, resources, rng
    found.moved = _NONE if moved is None else moved
    found.removed, found.born, found.spawned = removed, born, spawned
    return found


# -- a stretch kept to be written again ------------------------------------------------------


class Recording:
    """A stretch of the journal kept to be written again after it was rolled back
    (`World.recording`, `World.reapply`): its entries, the value each write left (where an
    entry holds the value from before), and the state it was written on (a `World.version`
    token), the only state it may be written on again."""

    __slots__ = ("after", "base", "entries")

    def __init__(self, base: tuple[int, int, Any], entries: list[Change],
                 after: list[Any]) -> None:
        self.base = base
        self.entries = entries
        self.after = after


def values_after(world: World, entries: Sequence[Change]) -> list[Any]:
    """What each entry (oldest first, the newest being the journal's last) wrote: the value
    from before of the next write to the same place, or for the last one the value now;
    None for the structural entries, which hold what they need."""
    after: list[Any] = [None] * len(entries)
    later: dict[Any, Any] = {}  # place -> the value from before of the next write there
    rng = MISSING
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        op = entry[0]
        if op == SET:
            place: Any = (id(entry[2]), entry[3])
            after[i] = later.get(place, MISSING)
            if after[i] is MISSING:
                after[i] = getattr(entry[2], entry[3])
            later[place] = entry[4]
        elif op == MOVE:
            place = id(entry[2])
            after[i] = later.get(place, MISSING)
            if after[i] is MISSING:
                after[i] = (entry[2].x, entry[2].y)
            later[place] = entry[3]
        elif op == RNG:
            after[i] = world.rng.state if rng is MISSING else rng
            rng = entry[1]
        elif op == RESOURCE:
            place = ("resource", entry[1])
            if place in later:
                after[i] = later[place]
            else:
                after[i] = world.resource(entry[1], MISSING)
            later[place] = entry[2]
    return after


# -- the state hash --------------------------------------------------------------------------

_PLAIN = frozenset({int, str, bool, float, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a value (dicts, lists, tuples and sets of plain data)."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, dict):
        return tuple(sorted(((k, _frozen(v)) for k, v in value.items()), key=_by_key))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, set | frozenset):
        return tuple(sorted(repr(v) for v in value))
    return value


def _by_key(pair: tuple[Any, Any]) -> Any:
    key = pair[0]
    return (0, key) if type(key) is str else (1, repr(key))


def full_hash(world: World) -> int:
    """The state hash of `world` from scratch: the XOR of one term per component field,
    resource and the RNG. Python's `hash` of small tuples serves as the Zobrist table:
    stable within one process (no key outlives its process) and free to look up."""
    h = 0
    for entity in world.entities():
        for comp in world.components(entity):
            name = type(comp).__name__
            for f in _field_names(type(comp)):
                h ^= hash((entity, name, f, _frozen(getattr(comp, f))))
    for key in world.resource_keys():
        h ^= hash(("resource", key, _frozen(world.resource(key))))
    h ^= hash(("rng", world.rng.state))
    return h


def hash_after(world: World, value: int, mark: int) -> int:
    """The state hash now, given it was `value` at journal `mark` (the mark must be on the
    current line of play). Pays for what was written since: an entity spawned since adds
    the terms of what it holds now (it had none at the mark); a component added to an older
    entity, or one changed and then removed, hash the world again (they are rare)."""
    done = world.touched_since(mark)
    new: AbstractSet[int] = _NONE
    if done.born:
        new = set(done.spawned)
        if not new.issuperset(done.born):
            return full_hash(world)
        for entity in dict.fromkeys(done.spawned):
            if world.alive(entity):
                for comp in world.components(entity):
                    cname = type(comp).__name__
                    for f in _field_names(type(comp)):
                        value ^= hash((entity, cname, f, _frozen(getattr(comp, f))))
    written = done.fields
    gone: set[int] = set()  # ids of the components taken away since
    for entity, comp in done.removed:
        if comp is None or entity in new:
            continue  # the end of a destroy (its components went one by one), or a new one
        cid = id(comp)
        gone.add(cid)
        cname = type(comp).__name__
        for f in _field_names(type(comp)):
            was = written.get((cid, f))  # written before it went: the value from the mark
            old = getattr(comp, f) if was is None else was[2]
            value ^= hash((entity, cname, f, _frozen(old)))
    plain = _PLAIN
    for (cid, f), (entity, comp, before) in written.items():
        if entity in new or cid in gone:
            continue
        cname = type(comp).__name__
        now = getattr(comp, f)
        # _frozen inlined for plain values: most fields written are ints
        value ^= hash((entity, cname, f, before if type(before) in plain else _frozen(before)))
        value ^= hash((entity, cname, f, now if type(now) in plain else _frozen(now)))
    for key, old in done.resources.items():
        if old is not MISSING:
            value ^= hash(("resource", key, _frozen(old)))
        now = world.resource(key, MISSING)
        if now is not MISSING:
            value ^= hash(("resource", key, _frozen(now)))
    if done.rng is not None:
        value ^= hash(("rng", done.rng)) ^ hash(("rng", world.rng.state))
    return value


class StateHash:
    """A search's handle on the state hash: `value` when made, `after(value, mark)` for a
    child state, `full()` to start again. `World.state_key()` is the same hash."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.value = world.state_key()

    def full(self) -> int:
        """The hash of the world as it stands (the World keeps it from its journal)."""
        return self.world.state_key()

    def after(self, value: int, mark: int) -> int:
        return hash_after(self.world, value, mark)
