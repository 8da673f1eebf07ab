"""The Engine: commands in, events out, with exact undo and redo.

One action flows as: submit(cmd) -> legal? (else Impossible(reason), world untouched) ->
world.mark() -> the ruleset's systems -> state-based checks -> history entry. Undo rolls the
world back to the entry's mark; redo applies the same command again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.commands import Command
from game.events import Event
from game.registry import Outcome, Ruleset, make_ruleset
from game.world import Recording, World

if TYPE_CHECKING:
    from game.levels.maps import GameMap


@dataclass(frozen=True)
class Impossible:
    """A refused command and the reason, in a sentence a player can read."""

    reason: str
    ok: bool = False


@dataclass(frozen=True)
class Done:
    """An applied command and the events it caused."""

    events: list[Event]
    ok: bool = True


Result = Impossible | Done


@dataclass
class Entry:
    command: Command
    mark: int
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Played:
    """Commands as applied once (history entries and what they wrote): `Engine.recording`."""

    entries: tuple[Entry, ...]
    world: Recording


class Engine:
    """Runs one game of any ruleset on one World."""

    def __init__(self, world: World, ruleset: Ruleset, game_map: GameMap | None = None,
                 seed: int = 0) -> None:
        self.world = world
        self.ruleset = ruleset
        self.map = game_map
        self.seed = seed  # the World's first seed: with the map and commands, the whole game
        self.history: list[Entry] = []
        self.redo_stack: list[Command] = []
        self.queue: deque[Command] = deque()

    @classmethod
    def from_game_map(cls, game_map: GameMap, seed: int = 0, ruleset: str | None = None) -> Engine:
        """Set up a decoded level's ruleset (the sidecar's, or `ruleset` when given) on a new
        World; `game.levels.loader.load_engine` reads any level file into one."""
        overrides = {k: v for k, v in game_map.sidecar.items()
                     if k not in ("name", "ruleset", "description")}
        rules = make_ruleset(ruleset or game_map.ruleset, overrides)
        world = World(seed)
        rules.setup(world, game_map)
        world.forget_history()
        return cls(world, rules, game_map, seed)

    # -- copies ----------------------------------------------------------------------------

    def __reduce__(self) -> tuple[Any, ...]:
        """Copies and pickles are rebuilt from the map, the seed and the commands, so a copy
        is a game of its own on a World of its own (never the same esper context)."""
        if self.map is None:
            raise TypeError("an Engine made without a map cannot be copied")
        return (_rebuild, (self.map, self.seed, self.ruleset.name, self.commands(),
                           list(self.redo_stack)))

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        copied = _rebuild(*self.__reduce__()[1])
        memo[id(self.world)] = copied.world  # other references to this World follow the copy
        return copied

    def __copy__(self) -> Engine:
        return self.__deepcopy__({})

    # -- questions -----------------------------------------------------------------------

    @property
    def side(self) -> str:
        """The side to play."""
        return self.ruleset.side_to_play(self.world)

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (winner or DRAW or LOST, and why), or None while it goes on."""
        return self.ruleset.outcome(self.world)

    @property
    def over(self) -> bool:
        return self.ruleset.outcome(self.world) is not None  # (outcome's, one frame fewer)

    def legal_actions(self) -> list[Command]:
        world = self.world
        if self.ruleset.outcome(world) is not None:  # (over, without its two frames)
            return []
        return self.ruleset.legal_actions(world)

    def why_illegal(self, command: Command) -> str | None:
        if self.over:
            return "The game is over."
        return self.ruleset.why_illegal(self.world, command)

    def events(self) -> Iterator[Event]:
        """The event log: everything that happened, oldest first (undone entries excluded)."""
        for entry in self.history:
            yield from entry.events

    # -- acting --------------------------------------------------------------------------

    def submit(self, command: Command) -> Result:
        """Apply `command` if it is legal now; otherwise say why and change nothing."""
        reason = self.why_illegal(command)
        if reason is not None:
            return Impossible(reason)
        self.redo_stack.clear()
        return Done(self.apply(command))

    def apply(self, command: Command) -> list[Event]:
        """Apply a command known to be legal (searches call this directly, then undo)."""
        mark = self.world.mark()
        events = self.ruleset.perform(self.world, command)
        self.history.append(Entry(command, mark, events))
        return events

    def undo(self) -> Command | None:
        """Undo the last command exactly; returns it, or None when there is nothing to undo."""
        command = self.retract()
        if command is not None:
            self.redo_stack.append(command)
        return command

    def retract(self) -> Command | None:
        """Undo the last command without offering it for redo (what searches use)."""
        if not self.history:
            return None
        entry = self.history.pop()
        self.world.rollback(entry.mark)
        return entry.command

    def retract_to(self, depth: int) -> None:
        """Retract every command past history position `depth` at once (one rollback)."""
        history = self.history
        if len(history) > depth:
            self.world.rollback(history[depth].mark)
            del history[depth:]

    def recording(self, since: int) -> Played:
        """The commands applied since history position `since`, kept to be applied again by
        `reapply` once they are retracted (a search returning to a line it has played)."""
        entries = self.history[since:]
        mark = entries[0].mark if entries else self.world.mark()
        return Played(tuple(entries), self.world.recording(mark))

    def reapply(self, played: Played) -> bool:
        """Apply recorded commands again by writing what they wrote, which leaves the world,
        its journal and the history exactly as applying them did, without working their
        rules out again. Only where they were recorded (the same state): elsewhere nothing
        happens and the answer is False, and the caller applies them."""
        if not self.world.reapply(played.world):
            return False
        self.history.extend(played.entries)
        return True

    def redo(self) -> list[Event] | None:
        """Apply the last undone command again."""
        if not self.redo_stack:
            return None
        return self.apply(self.redo_stack.pop())

    def enqueue(self, command: Command) -> None:
        """Queue a command to be submitted by `update` (first in, first out)."""
        self.queue.append(command)

    def update(self) -> list[Result]:
        """Submit every queued command in order; a refused one does not stop the rest."""
        results = []
        while self.queue:
            results.append(self.submit(self.queue.popleft()))
        return results

    def commands(self) -> list[Command]:
        """The commands applied so far, in order (what a replay records)."""
        return [entry.command for entry in self.history]


def _rebuild(game_map: GameMap, seed: int, ruleset: str, commands: list[Command],
             redo: list[Command]) -> Engine:
    """An Engine replayed from its start: what copying or unpickling one makes."""
    engine = Engine.from_game_map(game_map, seed, ruleset)
    for command in commands:
        engine.apply(command)
    engine.redo_stack = list(redo)
    return engine
