"""AIs from outside the project: a class named `module.path:Class`, or an entry point.

Installed packages offer AIs through the entry-point group `rulefront.ais` (name -> a class);
a seat may also name any importable class. Either way the class takes the seat's options as
keyword arguments and implements `choose(engine, rng, budget)`. Whatever goes wrong while
loading one is a UserError naming it (the match never starts); whatever goes wrong while it
plays (it raises, or answers with something that is not a command) is a `Forfeit`.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from systems.ai.base import AI, AIS, Budget, Forfeit, build, option_names

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


class Plugin:
    """A plug-in AI as a seat sees it: its `choose` turns every failure into a Forfeit."""

    def __init__(self, inner: Any, label: str) -> None:
        self.inner = inner
        self.name = label

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        from game.commands import Command

        try:
            command = self.inner.choose(engine, rng, budget)
        except Exception as exc:  # a plug-in's bug must not take the match down
            raise Forfeit(f"AI plug-in '{self.name}' raised {type(exc).__name__}: "
                          f"{_clause(exc)}") from None
        if not isinstance(command, Command):
            raise Forfeit(f"AI plug-in '{self.name}' answered {command!r}, which is not a "
                          "command")
        return command


def make_plugin(spec: str, name: str, options: dict[str, str]) -> AI:
    """The plug-in a seat names, checked before the game starts."""
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
        inner = build(factory, name, spec, options)
    except UserError:
        raise
    except Exception as exc:
        raise UserError(f"AI plug-in '{name}' failed to start: {type(exc).__name__}: "
                        f"{_clause(exc)}.") from None
    return Plugin(inner, name)


def load_class(name: str) -> Any:
    module_name, _, class_name = name.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:
        raise UserError(f"AI plug-in '{name}' cannot be imported: {type(exc).__name__}: "
                        f"{_clause(exc)}.") from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise UserError(f"AI plug-in '{name}': module {module_name} has no {class_name}.")
    return factory


def load_entry_point(point: EntryPoint) -> Any:
    try:
        return point.load()
    except Exception as exc:
        raise UserError(f"AI plug-in '{point.name}' (entry point {point.value}) cannot be "
                        f"imported: {type(exc).__name__}: {_clause(exc)}.") from None


def _clause(exc: BaseException) -> str:
    return str(exc).strip().rstrip(".") or "no message"


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

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "options": self.options, "source": self.source,
                "module": self.target, "distribution": self.distribution, "error": self.error}


def listing() -> list[Listing]:
    """Every AI a seat can name: the built-ins, then what installed packages offer."""
    rows = []
    for name, target in AIS.items():
        row = Listing(name, [], "built-in", target)
        module_name, _, class_name = target.partition(":")
        try:
            row.options = option_names(getattr(importlib.import_module(module_name), class_name))
        except Exception as exc:  # e.g. an optional package not installed
            row.error = f"{type(exc).__name__}: {_clause(exc)}"
        rows.append(row)
    for name, point in entry_points().items():
        dist = getattr(point, "dist", None)
        row = Listing(name, [], "entry point", point.value,
                      f"{dist.name} {dist.version}" if dist is not None else None)
        if name in AIS:
            row.error = f"shadowed by the built-in AI '{name}'"
        else:
            try:
                row.options = option_names(load_entry_point(point))
            except UserError as exc:
                row.error = str(exc)
        rows.append(row)
    return rows
