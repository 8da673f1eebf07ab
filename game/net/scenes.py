"""What the spectator page draws: a game as plain JSON scenes, and each command as a frame.

The browser runs no engine, so the server tells it what stands where. `scene(engine)` is the
whole picture (every placed thing with its kind, side, class or word, cell, height and health;
the rules in force; who is to play; the outcome); `Frames` follows a game's log on an engine of
its own (a replica rebuilt from map and seed, never the live game's engine) and turns each
command into a frame: the command in words, the log in sentences (game/session/narrate.py), and
what changed in the scene. Nothing here names a ruleset: a grid ruleset is drawn from its
components, any other (octal heaps) as its own text board.
"""

from __future__ import annotations

from typing import Any

from components import Health, Height, Kind, Position, Team, UnitClass, Word
from components.resources import RULES_KEY, SIZE_KEY
from game.commands import Command
from game.engine import Engine
from game.session.narrate import names, sentences

Thing = dict[str, Any]


def things(engine: Engine) -> dict[int, Thing]:
    """Every placed thing by entity id, as the page draws it."""
    world = engine.world
    found = {}
    for entity, _pos in sorted(world.query(Position), key=lambda item: item[0]):
        thing = thing_of(engine, entity)
        if thing is not None:
            found[entity] = thing
    return found


def thing_of(engine: Engine, entity: int) -> Thing | None:
    """One thing as the page draws it; None when it is gone or has no cell."""
    world = engine.world
    pos = world.try_get(entity, Position) if world.alive(entity) else None
    if pos is None:
        return None
    kind = world.try_get(entity, Kind)
    thing: Thing = {"id": entity, "kind": kind.name if kind is not None else "",
                    "x": pos.x, "y": pos.y}
    team, word = world.try_get(entity, Team), world.try_get(entity, Word)
    unit_class, health = world.try_get(entity, UnitClass), world.try_get(entity, Health)
    height = world.try_get(entity, Height)
    if team is not None:
        thing["side"] = team.side
    if unit_class is not None:
        thing["class"] = unit_class.name
    if word is not None:
        thing["word"], thing["part"] = word.text, word.part
    if health is not None:
        thing["hp"], thing["max_hp"] = health.hp, health.max_hp
    if height is not None:
        thing["z"] = height.z
    return thing


def status(engine: Engine) -> dict[str, Any]:
    """Who is to play, the rules in force and how the game ended (the scene minus things)."""
    world = engine.world
    outcome = engine.outcome
    size = world.resource(SIZE_KEY, None)
    return {
        "ruleset": engine.ruleset.name,
        "sides": list(engine.ruleset.sides),
        "size": None if size is None else [int(size[0]), int(size[1])],
        "side": engine.side,
        "describe": engine.ruleset.describe(world),
        "rules": [str(rule) for rule in world.resource(RULES_KEY, ()) or ()],
        "board": engine.ruleset.text_board(world) if size is None else "",
        "outcome": None if outcome is None else {"winner": outcome.winner,
                                                 "reason": outcome.reason},
        "actions": len(engine.history),
    }


def scene(engine: Engine) -> dict[str, Any]:
    """The whole picture now: status and every thing (as a list in entity order)."""
    return {**status(engine), "things": list(things(engine).values())}


class Frames:
    """A game's frames, built on a replica that follows its log command by command.

    `frames[0]` is the start (a whole scene); frame n > 0 is command n: its text, its sentences,
    the things it changed or added (`set`), those it removed (`gone`) and the status after it.
    """

    def __init__(self, replica: Engine) -> None:
        if replica.history:
            raise ValueError("Frames follows a game from its start: give a fresh engine")
        self.engine = replica
        self.names: dict[str, str] = {}
        self._things = things(replica)
        self.frames: list[dict[str, Any]] = [{"n": 0, "scene": scene(replica)}]

    def follow(self, commands: list[Command]) -> None:
        """Apply the commands the log holds beyond those already followed."""
        for command in commands[len(self.frames) - 1:]:
            self.add(command)

    def add(self, command: Command) -> dict[str, Any]:
        engine = self.engine
        world = engine.world
        said = engine.ruleset.describe_command(world, command)
        side = engine.side
        before = names(world)
        mark = world.mark()
        events = engine.apply(command)
        # only what the command wrote is read again: every write goes through the journal
        changed, gone = [], []
        for entity in sorted(world.touched_since(mark).entities()):
            thing = thing_of(engine, entity)
            if thing is None:
                if self._things.pop(entity, None) is not None:
                    gone.append(entity)
            elif self._things.get(entity) != thing:
                self._things[entity] = thing
                changed.append(thing)
        frame = {"n": len(self.frames), "side": side, "command": said,
                 "lines": sentences(world, events, before), "set": changed, "gone": gone,
                 "status": status(engine)}
        self.frames.append(frame)
        return frame

    def since(self, start: int) -> list[dict[str, Any]]:
        """Frames from number `start` on (0: the whole game, the start scene first)."""
        return self.frames[max(0, start):]


