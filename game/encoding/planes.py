"""Observations: planes over the board's cells, named, the same list for every state of a game.

An observation has shape (planes, height, width), float32; which planes a ruleset gets is
`plane_names(ruleset)`, its `planes` edge (docs/ecosystem.md lists them). Plane names read:

- `kind:K`   1 where a thing of kind K stands (`kind:text` is any word tile);
- `kind:other` 1 under a thing whose kind has no plane of its own;
- `word:W`   1 where the word tile W lies;
- `side:own`, `side:other`  1 under a unit or building of the observing side / the other;
- `hp`       hit points / max hit points of what stands there;
- `moves`    move points left / max of a unit; `ready` 1 under a unit that may still attack;
- `height`   blocks stacked on the cell (descent), as a count;
- `exit`     1 on the descent exit;
- `to_play`  every cell 1 when the observing side is to play;
- `prop:P`   1 under each thing whose kind (or, for a unit, side or class) holds property P
             now (the rules in force, fixed and spelled by words: `prop:STOP` goes dark on
             the water when WATER IS STOP breaks).

Every game is perfect-information: the observers differ only in which side is `own` and
whether `to_play` is lit.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from components import Actions, Health, Kind, Moves, Position, Team, UnitClass, Word
from components.resources import EXIT_KEY, PROPS_KEY, SIZE_KEY
from game.journal import ADD, MOVE, REMOVE, SET, SPAWN, Change, touched

if TYPE_CHECKING:
    from game.engine import Engine
    from game.world import World

HIGH = 255.0  # the largest value any plane holds (a height)
# what the planes are made of (a frozenset: Touched.entities takes it as it is)
_MARKED = frozenset((Position, Kind, Word, Team, Health, Moves, Actions))


@cache
def vocabulary() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The kinds of thing and the word texts with a plane of their own (from the data files)."""
    from game.data import SIDES, palette, units, words

    texts = words()
    kinds = {e.kind for e in palette().values() if e.kind not in ("", "floor")}
    kinds |= {info.kind for info in texts.values() if info.part == "noun" and info.kind}
    kinds -= {*SIDES, *units().heroes}  # RED, RANGER... name units, which have planes of their own
    kinds |= {"minion"}
    return tuple(sorted(kinds)), tuple(sorted(texts))


def board_planes() -> tuple[str, ...]:
    """The planes of things and words on the board: one per kind, `kind:other`, one per word
    (what a ruleset's `planes` edge starts from when its board holds things and words)."""
    kinds, texts = vocabulary()
    return (*(f"kind:{k}" for k in kinds), "kind:other", *(f"word:{t}" for t in texts))


UNIT_PLANES = ("side:own", "side:other", "hp", "moves", "ready")


def rule_planes() -> tuple[str, ...]:
    """One plane per property a rule can give (`prop:STOP`...): the rules in force, as a
    learner sees them (a ruleset with word rules adds these to its `planes` edge)."""
    from systems.rules import property_bits

    return tuple(f"prop:{name}" for name in property_bits())


@cache
def plane_names(ruleset: str) -> tuple[str, ...]:
    """The plane names of a ruleset's observation, in order: its `planes` edge."""
    from game import registry

    names: tuple[str, ...] = tuple(registry.spec(ruleset).edge("planes")())
    return names


class Planes:
    """The observation of one game: `names`, `shape`, and `fill` / `observe` a position.

    The planes of things and words (kinds, words, heights) are kept per World and brought up
    to date from its journal: after a command, only the entities it moved, made or took away
    are looked at again; the units' planes, the exit and `to_play` are written afresh on
    every fill."""

    KEPT = 8  # boards of this many Worlds are kept (an OpenSpiel game reads a pool of them)
    GATHER = 32  # cells written since a refresh past which NumPy copies them, not a loop

    def __init__(self, engine: Engine) -> None:
        self.names = plane_names(engine.ruleset.name)
        self.index = {name: i for i, name in enumerate(self.names)}
        # plane by kind name and by word text, so filling formats no string per thing
        self.kinds = {n[5:]: i for n, i in self.index.items() if n.startswith("kind:")}
        self.words = {n[5:]: i for n, i in self.index.items() if n.startswith("word:")}
        size = engine.world.resource(SIZE_KEY)
        if size is None:  # a ruleset that keeps no board size: its map's
            assert engine.map is not None
            size = (engine.map.width, engine.map.height)
        width, height = size
        self.shape = (len(self.names), height, width)
        self._exit, self._to_play = self.index.get("exit"), self.index.get("to_play")
        self.props = {n[5:]: i for n, i in self.index.items() if n.startswith("prop:")}
        self._boards: dict[str, Board] = {}  # by World name (names are never reused)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_boards": {}}  # a copy's Worlds are other Worlds

    def observe(self, engine: Engine, me: str, playing: bool | None = None) -> np.ndarray:
        """A new array of `engine`'s position as side `me` sees it (`playing`: whether `me` is
        to play, when the caller knows)."""
        board = self._board(engine.world)
        out = board.values.copy()
        if playing is None:
            playing = engine.side == me and not engine.over
        self._finish(board, engine, me, playing, out.reshape(-1))
        return out

    def fill(self, engine: Engine, me: str, out: np.ndarray) -> None:
        """Write the position, as side `me` sees it, into `out` (of `shape`)."""
        if out.dtype != np.float32 or not out.flags.c_contiguous:  # no flat float32 view
            np.copyto(out, self.observe(engine, me))
            return
        board = self._board(engine.world)
        np.copyto(out, board.values)
        self._finish(board, engine, me, engine.side == me and not engine.over, out.reshape(-1))

    def _finish(self, board: Board, engine: Engine, me: str, playing: bool,
                flat: np.ndarray) -> None:
        """The planes a board leaves at 0, written into a copy of its values (`flat`, one
        dimension, a view of the observation)."""
        cells: Any = memoryview(flat)  # type: ignore[arg-type]
        if board.by_side:
            board.put_sides(me, cells, flat)
        if self._exit is not None:
            ex, ey = engine.world.resource(EXIT_KEY)
            cells[self._exit * board.cells + ey * board.width + ex] = 1.0
        if playing and self._to_play is not None:
            start = self._to_play * board.cells
            cells[start:start + board.cells] = board.ones

    def refresh(self, engine: Engine, me: str, kept: Kept, playing: bool | None = None) -> None:
        """`fill` into a Kept array (one only refresh writes): when it holds an earlier
        position of the same World's board, only the cells written since are copied, the
        side and exit planes are written afresh, and `to_play` when it changed; else all of
        it (`playing`: whether `me` is to play, when the caller knows)."""
        world = engine.world
        board = self._board(world)
        out = kept.array
        if kept.board is board and kept.epoch == board.epoch:
            written = board.log[kept.at:]
            if len(written) > self.GATHER:  # another side's whole turn: one gather, one scatter
                at = np.fromiter(written, np.intp, len(written))
                kept.flat[at] = board.flat[at]
            else:
                cells, values = kept.cells, board.cell
                for i in written:
                    cells[i] = values[i]
            if board.units:
                board.put_sides(me, kept.cells, kept.flat, whole=True)
            if self._exit is not None and kept.exit is not None:
                out[self._exit, kept.exit[1], kept.exit[0]] = 0.0
        else:
            np.copyto(out, board.values)
            kept.playing = False  # the board's to_play plane is 0s
            if board.by_side:
                board.put_sides(me, kept.cells, kept.flat)
        kept.board, kept.epoch, kept.at = board, board.epoch, len(board.log)
        if self._exit is not None:
            kept.exit = ex, ey = world.resource(EXIT_KEY)
            out[self._exit, ey, ex] = 1.0
        if self._to_play is not None:
            if playing is None:
                playing = engine.side == me and not engine.over
            if playing != kept.playing:
                start = self._to_play * board.cells
                kept.cells[start:start + board.cells] = board.ones if playing else board.zeros
                kept.playing = playing

    def _board(self, world: World) -> Board:
        """The Board of `world`, brought up to date."""
        board = self._boards.get(world.name)
        if board is None:
            if len(self._boards) >= self.KEPT:
                del self._boards[next(iter(self._boards))]
            board = self._boards[world.name] = Board(self, world)
        else:
            board.update(world)
        return board


class Kept:
    """An observation array that only `Planes.refresh` writes, and what it holds (a board,
    its epoch and how far into its log of written cells), so that a refresh writes only
    what changed: `tensor` (flat) and `observation` (shaped) are read-only views of it, and
    anything that would change them must copy them first (np.array(kept.tensor))."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.array = np.zeros(shape, dtype=np.float32)
        self.flat = self.array.reshape(-1)
        self.cells: Any = memoryview(self.flat)  # type: ignore[arg-type]
        self.observation = self.array.view()
        self.observation.flags.writeable = False
        self.tensor = self.observation.reshape(-1)
        self.board: Board | None = None
        self.epoch, self.at = -1, 0
        self.exit: tuple[int, int] | None = None
        self.playing = False  # whether its to_play plane holds 1s


@cache
def _bits() -> tuple[tuple[str, int], ...]:
    from systems.rules import property_bits

    return tuple(property_bits().items())


COUNT, VALUE = 0, 1  # a mark counts toward its value (1 where any, or a height), or sets it


def _share(left: int, most: int) -> float:
    """left / most, held to 0..1 (hit points or move points as a plane shows them)."""
    share = left / most
    return 0.0 if share < 0.0 else 1.0 if share > 1.0 else share


_ENTITY_OPS = frozenset((MOVE, ADD, REMOVE, SPAWN))  # entries whose entity comes second


_VALUED = frozenset((Health, Moves, Actions))  # a field of these sets one unit mark


def _grouped(changes: list[Change]) -> tuple[dict[int, list[Any]], set[int]]:
    """The entities journal entries wrote that the planes may show, in two kinds: those
    only moved or with Health, Moves or Actions set in place (entity -> [its Position if
    it moved, else None; those components]), and the others (a component added or taken
    away, a spawn, another marked component's field)."""
    plain: dict[int, list[Any]] = {}
    others: set[int] = set()
    for entry in changes:
        op = entry[0]
        if op == SET:
            kind = type(entry[2])
            if kind in _VALUED:
                got = plain.get(entry[1])
                if got is None:
                    plain[entry[1]] = [None, [entry[2]]]
                else:
                    got[1].append(entry[2])
            elif kind in _MARKED:
                others.add(entry[1])
        elif op == MOVE:
            got = plain.get(entry[1])
            if got is None:
                plain[entry[1]] = [entry[2], []]
            else:
                got[0] = entry[2]
        elif op in _ENTITY_OPS:
            others.add(entry[1])
    return plain, others


class Board:
    """What the planes hold whoever observes, for one World: `values` (things, words, heights,
    hit points, move points, readiness; side, exit and to_play planes left at 0), each
    entity's marks on them, and each unit's side and cell. Kept up to date from the World's
    journal: only the entities written since the last fill are marked again."""

    LOG = 4096  # cells written kept in `log` before a new epoch starts it again
    # entries an undo took back (and written after it) past which the board is marked anew
    # rather than entity by entity (reading them costs more than marking every entity)
    UNDONE = 512

    def __init__(self, planes: Planes, world: World) -> None:
        self.planes = planes
        _, height, width = planes.shape
        self.width, self.height, self.cells = width, height, width * height
        index = planes.index
        stacks = index.get("height")
        self.stacks = -1 if stacks is None else stacks  # the plane holding counts, not 0/1
        # the indices in `flat` of the stacked plane: a count there is written as it is
        self.stacked = range(0) if stacks is None else \
            range(stacks * self.cells, (stacks + 1) * self.cells)
        self.other = index.get("kind:other")
        units = "side:own" in index
        self.units = units
        self.unit_planes = tuple(index[n] * self.cells for n in
                                 ("side:own", "side:other", "hp", "moves", "ready")) \
            if units else (0, 0, 0, 0, 0)
        # one plane of 1s and one of 0s, copied in by memoryview (to_play, emptied planes)
        self.ones: Any = memoryview(np.ones(self.cells, dtype=np.float32))  # type: ignore[arg-type]
        self.zeros: Any = memoryview(np.zeros(self.cells, dtype=np.float32))  # type: ignore[arg-type]
        self.values = np.zeros(planes.shape, dtype=np.float32)
        self.flat = self.values.reshape(-1)
        # one value written through a memoryview: cheaper than a NumPy index
        self.cell: Any = memoryview(self.flat)  # type: ignore[arg-type]
        self.rebuild(world)

    def rebuild(self, world: World) -> None:
        """Every entity's marks, from scratch (and after the rules changed: the `prop:`
        planes each kind marks are worked out again from the World's masks)."""
        self.masks = world.resource(PROPS_KEY)
        self.prop_marks = self._prop_marks(self.masks)
        # the cells of `values` written since the last rebuild, in order (Planes.refresh
        # copies them); a new epoch when they are rebuilt or the log grows long
        self.epoch = getattr(self, "epoch", -1) + 1
        self.log: list[int] = []
        self.values.fill(0.0)
        self.counts: dict[int, int] = {}  # index in `flat` -> marks counted there (if any)
        self.setters: dict[int, dict[int, float]] = {}  # value index -> entity -> its value
        self.marks: dict[int, tuple[tuple[int, int, float], ...]] = {}
        self.sides: dict[int, tuple[str, int]] = {}  # unit -> (its side, its cell)
        # per side, 1 on each cell where one of its units stands, and how many stand there
        self.by_side: dict[str, np.ndarray] = {}
        self.side_cells: dict[str, Any] = {}  # the same planes, as memoryviews to write
        self.side_counts: dict[tuple[str, int], int] = {}
        for entity in world.entities():
            self._mark_again(world, entity)
        self.token = world.version()
        self.seen = world.changes_since(0)  # the journal as last seen, to match after an undo

    def _prop_marks(self, masks: dict[str, int] | None) -> dict[str, tuple[int, ...]]:
        """Kind -> the start in `flat` of each `prop:` plane a thing of that kind lights."""
        props = self.planes.props
        if not props or not masks:
            return {}
        return {kind: tuple(props[name] * self.cells for name, bit in _bits()
                            if mask & bit and name in props)
                for kind, mask in masks.items() if mask}

    def put_sides(self, me: str, cells: Any, flat: np.ndarray, whole: bool = False) -> None:
        """Write the side planes as observer `me` sees them into an observation (`cells`, a
        flat memoryview of it, and `flat`, the same as an array): its units' cells on
        `side:own`, every other side's on `side:other` (`whole`: a plane with none is
        written with 0s, where the planes were not cleared before). A plane is copied by
        memoryview slice: a NumPy assignment costs several times as much."""
        own, foe = self.unit_planes[0], self.unit_planes[1]
        size = self.cells
        others = []
        mine = None
        for side, plane in self.side_cells.items():
            if side == me:
                cells[own:own + size] = mine = plane
            else:
                others.append(side)
        if len(others) == 1:
            cells[foe:foe + size] = self.side_cells[others[0]]
        elif others:
            np.maximum.reduce([self.by_side[side] for side in others],
                              out=flat[foe:foe + size].reshape(self.height, self.width))
        elif whole:
            cells[foe:foe + size] = self.zeros
        if whole and mine is None:
            cells[own:own + size] = self.zeros

    def _marks_of(self, comps: dict[type, Any]) -> tuple[tuple[int, int, float], ...]:
        """(index in `flat`, COUNT or VALUE, value) for each plane an entity with components
        `comps` marks."""
        pos = comps.get(Position)
        if pos is None:
            return ()
        x, y, width = pos.x, pos.y, self.width
        if not (0 <= x < width and 0 <= y < self.height):
            return ()
        cell, cells = y * width + x, self.cells
        marks: list[tuple[int, int, float]] = []
        kind = comps.get(Kind)
        if kind is not None:
            if self.stacks >= 0 and kind.name == "block":
                marks.append((self.stacks * cells + cell, COUNT, 1.0))
            plane = self.planes.kinds.get(kind.name, self.other)
            if plane is not None:
                marks.append((plane * cells + cell, COUNT, 1.0))
            prop_marks = self.prop_marks
            if prop_marks:  # the rules' properties: by kind, and a unit's side and class too
                starts = prop_marks.get(kind.name, ())
                team, cls = comps.get(Team), comps.get(UnitClass)
                for key in (team.side if team is not None else None,
                            cls.name if cls is not None else None):
                    if key is not None and key in prop_marks:
                        starts = (*starts, *(s for s in prop_marks[key] if s not in starts))
                for start in starts:
                    marks.append((start + cell, COUNT, 1.0))
        words = self.planes.words
        if words:
            word = comps.get(Word)
            plane = None if word is None else words.get(word.text)
            if plane is not None:
                marks.append((plane * cells + cell, COUNT, 1.0))
        if self.units:
            _own, _foe, hp, mp, ready = self.unit_planes
            health = comps.get(Health)
            if health is not None and health.max_hp > 0:
                marks.append((hp + cell, VALUE, _share(health.hp, health.max_hp)))
            moves = comps.get(Moves)
            if moves is not None and moves.max_mp > 0:
                marks.append((mp + cell, VALUE, _share(moves.mp, moves.max_mp)))
            actions = comps.get(Actions)
            if actions is not None and actions.ap > 0:
                marks.append((ready + cell, COUNT, 1.0))
        return tuple(marks)

    def _side_of(self, comps: dict[type, Any]) -> tuple[str, int] | None:
        if not self.units:
            return None
        team, pos = comps.get(Team), comps.get(Position)
        if team is None or pos is None or not (0 <= pos.x < self.width
                                               and 0 <= pos.y < self.height):
            return None
        return team.side, pos.y * self.width + pos.x

    def update(self, world: World) -> None:
        """Catch up with the World from its journal: the entities written since the state
        last seen, or by the entries an undo took back and those written after it, are
        marked again (a dropped journal rebuilds)."""
        token = self.token
        if world.same_version(token):
            return
        if self.planes.props and world.resource(PROPS_KEY) is not self.masks:
            self.rebuild(world)  # the rules changed: every thing's properties may have
            return
        if world.is_ancestor(token):
            changes = world.changes_since(token[1])
            self.seen.extend(changes)
            if len(changes) == 2 and self._walked(changes):
                self.token = world.version()
                return
            # the entities straight from the entries (decoding them into a Touched costs more
            # than the marks); one only moved or with hit, move or action points set has its
            # marks patched, any other is marked again from its components
            moved, others = _grouped(changes)
            for entity, (pos, comps) in moved.items():
                if entity not in others and not self._patched(entity, pos, comps):
                    others.add(entity)
            done: set[int] | list[int] = others
        elif token[0] == world.version()[0]:  # an undo popped entries we saw
            journal = world.changes_since(0)
            seen, k = self.seen, min(len(journal), len(self.seen))
            while k and journal[k - 1] is not seen[k - 1]:
                k -= 1
            if len(seen) + len(journal) - 2 * k > self.UNDONE:
                self.rebuild(world)  # a game rewound to its start: a new board is cheaper
                return
            done = touched(seen[k:] + journal[k:]).entities(_MARKED)
            self.seen = journal
        else:
            self.rebuild(world)
            return
        for entity in done:
            self._mark_again(world, entity)
        self.token = world.version()

    def _mark_again(self, world: World, entity: int) -> None:
        comps = {type(c): c for c in world.components(entity)} if world.alive(entity) else {}
        if self.units:
            side = self._side_of(comps)
            was = self.sides.get(entity)
            if was != side:
                if was is not None:
                    self._count_side(was, -1)
                if side is None:
                    del self.sides[entity]
                else:
                    self.sides[entity] = side
                    self._count_side(side, 1)
        old = self.marks.pop(entity, ())
        new = self._marks_of(comps)
        if new:
            self.marks[entity] = new
        if old != new:
            self._rewrite(entity, old, new)

    def _walked(self, changes: list[Change]) -> bool:
        """The usual command, a unit walking ((MOVE e), (SET e Moves mp)): its marks move by
        the same offset and the moves plane takes its new share, without reading the entity
        again. False (nothing done) for any other pair of entries."""
        step, spend = changes
        entity = step[1]
        if step[0] != MOVE or spend[0] != SET or spend[1] != entity \
                or type(spend[2]) is not Moves or not self.units:
            return False
        old, was = self.marks.get(entity), self.sides.get(entity)
        (ox, oy), pos, width, height = step[3], step[2], self.width, self.height
        x, y = pos.x, pos.y
        if old is None or was is None or not (0 <= x < width and 0 <= y < height
                                              and 0 <= ox < width and 0 <= oy < height):
            return False
        shift, moves = (y - oy) * width + (x - ox), spend[2]
        low = self.unit_planes[3]
        high = low + self.cells
        share = _share(moves.mp, moves.max_mp) if moves.max_mp > 0 else 0.0
        # _rewrite(entity, old, new) in one pass: each mark leaves index i for i + shift (all
        # old marks share one cell and all new ones another, so no mark lands where another
        # has yet to leave)
        counts, cell, stacked, setters_of, log = \
            self.counts, self.cell, self.stacked, self.setters, self._log()
        new: list[tuple[int, int, float]] = []
        for mark in old:
            i, how, value = mark
            j = i + shift
            if how == COUNT:
                count = counts[i] - 1
                if count:
                    counts[i] = count
                else:
                    del counts[i]
                cell[i] = float(count) if i in stacked else (1.0 if count else 0.0)
                count = counts.get(j, 0) + 1
                counts[j] = count
                cell[j] = float(count) if j in stacked else 1.0
                new.append((j, how, value))
            else:
                if low <= i < high:
                    value = share
                setters = setters_of[i]
                del setters[entity]
                cell[i] = setters[max(setters)] if setters else 0.0
                held = setters_of.get(j)
                if held is None:
                    held = setters_of[j] = {}
                held[entity] = value
                cell[j] = held[max(held)] if len(held) > 1 else value
                new.append((j, how, value))
            log += (i, j)
        self.marks[entity] = tuple(new)
        self.sides[entity] = now = (was[0], y * width + x)
        # _count_side(was, -1) and _count_side(now, 1), the side's plane known to exist
        on, cells = self.side_counts, self.side_cells[was[0]]
        count = on[was] - 1
        if count:
            on[was] = count
        else:
            del on[was]
            cells[was[1]] = 0.0
        on[now] = on.get(now, 0) + 1
        cells[now[1]] = 1.0
        return True

    def _patched(self, entity: int, pos: Any, comps: list[Any]) -> bool:
        """An entity's marks brought up to date from what `_grouped` found of it: moved to
        `pos` (a Position, or None) and its unit marks from `comps` (Health, Moves, Actions)
        read again, as `_marks_of` would make them. False (nothing done) when it had no
        marks, leaves the board, or gains or loses a hit or move point mark."""
        old = self.marks.get(entity)
        if not old:
            return False
        width, cells = self.width, self.cells
        here = old[0][0] % cells
        shift = 0
        if pos is not None:
            x, y = pos.x, pos.y
            if not (0 <= x < width and 0 <= y < self.height):
                return False
            shift = y * width + x - here
        new = list(old)
        # the marks taken off and put on, as they change (a diff of old and new afterwards
        # compares every pair of marks); one put on and then changed again is taken back
        gone: list[tuple[int, int, float]] = []
        added: list[tuple[int, int, float]] = []
        if self.units:
            _own, _foe, hp, mp, ready = self.unit_planes
            for comp in comps:
                kind = type(comp)
                if kind is Actions:
                    at, how, most, value = ready + here, COUNT, comp.ap, 1.0
                elif kind is Health:
                    at, how, most = hp + here, VALUE, comp.max_hp
                    value = _share(comp.hp, most) if most > 0 else 0.0
                else:
                    at, how, most = mp + here, VALUE, comp.max_mp
                    value = _share(comp.mp, most) if most > 0 else 0.0
                k = len(new) - 1  # the mark on plane `at`, if any (a loop: no generator's frame)
                while k >= 0 and new[k][0] != at:
                    k -= 1
                if most > 0 and k >= 0:
                    prior = new[k]
                    if prior != (at, how, value):
                        new[k] = mark = (at, how, value)
                        if prior in added:
                            added.remove(prior)
                        else:
                            gone.append(prior)
                        added.append(mark)
                elif most > 0:
                    if how == VALUE:
                        return False
                    mark = (at, how, value)
                    new.append(mark)  # ready is the last of _marks_of's marks
                    added.append(mark)
                elif k >= 0:
                    if how == VALUE:
                        return False
                    prior = new.pop(k)
                    if prior in added:
                        added.remove(prior)
                    else:
                        gone.append(prior)
        if shift:
            new = [(i + shift, how, value) for i, how, value in new]
            was = self.sides.get(entity)
            if was is not None:
                self._count_side(was, -1)
                self.sides[entity] = now = (was[0], was[1] + shift)
                self._count_side(now, 1)
            self.marks[entity] = made = tuple(new)
            self._rewrite(entity, old, made)
        elif gone or added:
            self.marks[entity] = tuple(new)
            self._rewrite(entity, tuple(gone), tuple(added))
        return True

    def _rewrite(self, entity: int, old: tuple[tuple[int, int, float], ...],
                 new: tuple[tuple[int, int, float], ...]) -> None:
        """Take an entity's `old` marks off the planes and put its `new` ones on."""
        # one loop, locals only: after a move this is the heart of a fill
        counts, cell, stacked, setters_of = self.counts, self.cell, self.stacked, self.setters
        log = self._log()
        log += [i for i, _how, _value in old]
        log += [i for i, _how, _value in new]
        for i, how, _value in old:
            if how == COUNT:
                count = counts[i] - 1
                if count:
                    counts[i] = count
                else:
                    del counts[i]
                cell[i] = float(count) if i in stacked else (1.0 if count else 0.0)
            else:
                setters = setters_of[i]
                del setters[entity]
                # two things on one cell: the newer entity's value, as a fill in entity
                # order leaves
                cell[i] = setters[max(setters)] if setters else 0.0
        for i, how, value in new:
            if how == COUNT:
                count = counts.get(i, 0) + 1
                counts[i] = count
                cell[i] = float(count) if i in stacked else 1.0
            else:
                held = setters_of.get(i)
                if held is None:
                    held = setters_of[i] = {}
                held[entity] = value
                cell[i] = held[max(held)] if len(held) > 1 else value

    def _log(self) -> list[int]:
        """The log of written cells, begun again (a new epoch) when it has grown long:
        refreshes then copy everything once, rather than read a long log."""
        log = self.log
        if len(log) > self.LOG:
            log.clear()
            self.epoch += 1
        return log

    def _count_side(self, at: tuple[str, int], step: int) -> None:
        """One unit of side at[0] more (step 1) or fewer (-1) on cell at[1]."""
        count = self.side_counts.get(at, 0) + step
        if count:
            self.side_counts[at] = count
        else:
            del self.side_counts[at]
        cells = self.side_cells.get(at[0])
        if cells is None:
            plane = self.by_side[at[0]] = np.zeros((self.height, self.width), dtype=np.float32)
            cells = self.side_cells[at[0]] = memoryview(plane.reshape(-1))  # type: ignore[arg-type]
        cells[at[1]] = 1.0 if count else 0.0
