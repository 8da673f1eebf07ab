"""AIs from outside the project: a class named `module.path:Class`, or an entry point.

Installed packages offer AIs through the entry-point group `rulefront.ais` (name -> a class);
a seat may also name any importable class. Either way the class takes the seat's options as
keyword arguments and implements `choose(engine, rng, budget)`. Whatever goes wrong while
loading one is a UserError naming it (the match never starts). It plays in a child process on
a replica of the game (`Plugin`, through systems/ai/remote.py), never on the live engine;
whatever goes wrong there (it raises, exits, answers something that is not a command, changes
its replica, runs past its time) comes back as one sentence, which the parent raises as a
`Forfeit` (game/session/seat.py holds the whole policy).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from systems.ai.base import (
    AI,
    AIS,
    OPTION_CHOICES,
    Budget,
    Forfeit,
    build,
    clause,
    fingerprint,
    needs_of,
    option_names,
    time_limit,
)
from systems.ai.remote import Lost, Remote

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from game.commands import Command
    from game.engine import Engine


GROUP = "rulefront.ais"


def entry_points() -> dict[str, EntryPoint]:
    """The AIs installed packages offer, by name (the first one of a name wins)."""
    from importlib.metadata import entry_points as found

    offered: dict[str, EntryPoint] = {}
    for point in sorted(found(group=GROUP), key=lambda p: p.name):
        offered.setdefault(point.name, point)
    return offered


def load_plugin(spec: str, name: str, options: dict[str, str]) -> Any:
    """Import a plug-in's class (by module:Class or entry point) and build it with the seat's
    options; any failure is a UserError naming it."""
    if ":" in name:
        factory = load_class(name)
    else:
        points = entry_points()
        if name not in points:
            known = sorted({*AIS, *points})
            raise UserError(f"unknown AI '{name}'; known AIs: {', '.join(known)} (or human, "
                            "or a plug-in class written module.path:Class).")
        factory = load_entry_point(points[name])
    if not callable(getattr(factory, "choose", None)):
        raise UserError(f"AI plug-in '{name}' has no choose(engine, rng, budget) method.")
    try:
        return build(factory, name, spec, options)
    except UserError:
        raise
    except Exception as exc:
        raise UserError(f"AI plug-in '{name}' failed to start: {type(exc).__name__}: "
                        f"{clause(exc)}.") from None


def load_class(name: str) -> Any:
    module_name, _, class_name = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise UserError(f"AI plug-in '{name}' cannot be imported: {type(exc).__name__}: "
                        f"{clause(exc)}.") from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise UserError(f"AI plug-in '{name}': module {module_name} has no {class_name}.")
    return factory


def load_entry_point(point: EntryPoint) -> Any:
    try:
        return point.load()
    except Exception as exc:
        raise UserError(f"AI plug-in '{point.name}' (entry point {point.value}) cannot be "
                        f"imported: {type(exc).__name__}: {clause(exc)}.") from None


class Plugin:
    """A plug-in AI as a seat sees it: checked when built, played in a child process on a
    replica of the game; every failure there is a Forfeit. It says the class's NEEDS and
    PLANS_TURNS, and its `think` option when it has one, as a built-in would."""

    isolated = True  # the seat step leaves the clock to the child's deadline

    def __init__(self, inner: Any, label: str, spec: str, options: dict[str, str]) -> None:
        self.name = label
        self.NEEDS = needs_of(type(inner))
        self.PLANS_TURNS = bool(getattr(type(inner), "PLANS_TURNS", False))
        self.think = getattr(inner, "think", None)
        self.remote = Remote(f"rulefront plug-in {label}", Answerer, (spec, label, options))

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        """The plug-in's answer on its replica; a Forfeit when it has none in time."""
        from game.commands import from_json

        self.remote.ask(engine, rng.getstate(), budget)
        reply = self.remote.wait(time_limit(self, budget))
        if isinstance(reply, Lost) or reply[0] == "forfeit":
            self.close()  # its state is not to be trusted: the next action starts anew
            who = f"AI plug-in '{self.name}'"
            raise Forfeit(reply.of(who) if isinstance(reply, Lost) else f"{who} {reply[1]}")
        _, command, state = reply
        rng.setstate(state)
        return from_json(command)

    def close(self) -> None:
        """Stop the child (the next action starts a new one)."""
        self.remote.close()


def make_plugin(spec: str, name: str, options: dict[str, str]) -> AI:
    """The plug-in a seat names, loaded and built here once as a check before the game starts
    (its child process builds its own)."""
    return Plugin(load_plugin(spec, name, options), name, spec, options)


class Answerer:
    """The child's end: the plug-in built there, answering one action at a time."""

    def __init__(self, spec: str, name: str, options: dict[str, str]) -> None:
        self.ai = load_plugin(spec, name, options)

    def __call__(self, replica: Engine, state: Any, budget: Budget) -> tuple[Any, ...]:
        """("chosen", command JSON, RNG state) or ("forfeit", why)."""
        from game.commands import Command

        rng = random.Random()
        rng.setstate(state)
        before = fingerprint(replica)
        try:
            command = self.ai.choose(replica, rng, budget)
        except SystemExit as exc:
            return ("forfeit", f"exited (sys.exit({exc.code!r}))")
        except BaseException as exc:  # noqa: BLE001  (a plug-in's bug must not take the match)
            return ("forfeit", f"raised {type(exc).__name__}: {clause(exc)}")
        if fingerprint(replica) != before:
            return ("forfeit", "left the game it was given changed (an AI may apply and "
                               "retract to search, but must put back what it applies)")
        if not isinstance(command, Command):
            return ("forfeit", f"answered {command!r}, which is not a command")
        return ("chosen", command.to_json(), rng.getstate())


# -- `rulefront ais` ---------------------------------------------------------------------------


@dataclass
class Listing:
    """One AI `rulefront ais` shows: its name, options, and where it comes from."""

    name: str
    options: list[str]
    source: str  # "built-in" or "entry point"
    target: str  # module.path:Class
    distribution: str | None = None  # "name version" of the package offering an entry point
    error: str | None = None  # why it cannot be loaded here
    needs: list[str] = field(default_factory=list)  # what the ruleset must offer (its NEEDS)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "options": self.options, "needs": self.needs,
                "source": self.source, "module": self.target,
                "distribution": self.distribution, "error": self.error}


def listing() -> list[Listing]:
    """Every AI a seat can name: the built-ins, then what installed packages offer."""
    rows = []
    for name, target in AIS.items():
        row = Listing(name, [], "built-in", target)
        module_name, _, class_name = target.partition(":")
        try:
            factory = getattr(importlib.import_module(module_name), class_name)
            row.options = [*option_names(factory), *OPTION_CHOICES]
            row.needs = list(needs_of(factory))
        except Exception as exc:  # e.g. an optional package not installed
            row.error = f"{type(exc).__name__}: {clause(exc)}"
        rows.append(row)
    for name, point in entry_points().items():
        dist = getattr(point, "dist", None)
        row = Listing(name, [], "entry point", point.value,
                      f"{dist.name} {dist.version}" if dist is not None else None)
        if name in AIS:
            row.error = f"shadowed by the built-in AI '{name}'"
        else:
            try:
                factory = load_entry_point(point)
                row.options, row.needs = option_names(factory), list(needs_of(factory))
            except UserError as exc:
                row.error = str(exc)
        rows.append(row)
    return rows
