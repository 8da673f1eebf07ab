"""AIs from outside the project: a class named `module.path:Class`, or an entry point.

Installed packages offer AIs through the entry-point group `rulefront.ais` (name -> a class);
a seat may also name any importable class. Either way the class takes the seat's options as
keyword arguments and implements `choose(engine, rng, budget)`. Whatever goes wrong while
loading one is a UserError naming it (the match never starts). It plays in a child process on
a replica of the game (systems/ai/remote.py), never on the live engine; whatever goes wrong
there (it raises, exits, answers something that is not a command, changes its replica, runs
past its time) is a `Forfeit` (game/session/seat.py holds the whole policy).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.errors import UserError
from systems.ai.base import AIS, OPTION_CHOICES, build, needs_of, option_names

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


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


def clause(exc: BaseException) -> str:
    """An exception's message as a clause of a sentence (no final full stop)."""
    return " ".join(str(exc).split()).rstrip(".") or "no message"


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
