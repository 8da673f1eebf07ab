"""What the conformance suite plays: every registered ruleset's example levels, read from the
registry when the tests are collected, so that a ruleset is tested by registering it."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from game import MAPS, registry
from game.commands import COMMANDS, Command, Step, Take
from game.engine import Engine
from game.levels.loader import described, load_engine

SEED = 5  # the world seed every example is loaded with
FAR = 10**6  # an id no entity, heap or unit has


@dataclass(frozen=True)
class Case:
    """One example level of one registered ruleset."""

    spec: registry.RulesetSpec
    example: str

    @property
    def id(self) -> str:
        return f"{self.spec.name}-{self.example}"

    @property
    def source(self) -> str | Path:
        """A described position as written, a shipped level as its path under maps/."""
        return self.example if described(self.example) is not None else MAPS / self.example

    def load(self, seed: int = SEED) -> Engine:
        return load_engine(self.source, seed=seed)


def conformance_cases() -> list[Case]:
    """Every example of every registered ruleset, by ruleset name."""
    return [Case(spec, example) for spec in registry.specs() for example in spec.examples]


def first_cases() -> list[Case]:
    """Each registered ruleset's first example (for the longer, hypothesis-driven checks)."""
    return [Case(spec, spec.examples[0]) for spec in registry.specs() if spec.examples]


@dataclass(frozen=True)
class Sing(Command):
    """A command of a type no ruleset takes (it is not even registered for JSON)."""


# Plausible values for the fields of game.commands' classes: each command is well formed, so a
# ruleset that refuses it refuses it for what it is, not for a malformed field.
PLAUSIBLE: dict[str, Any] = {"unit": FAR, "target": FAR, "x": 0, "y": 0, "direction": "u",
                             "heap": 0, "count": 1, "left": 0}


def command_candidates(choice: int = 0) -> list[Command]:
    """Commands that some ruleset refuses somewhere: one of every type in game.commands with
    plausible fields, unknown units and heaps, a bad direction, a foreign command type, and
    (varied by `choice`) moves and attacks of ids that may or may not exist."""
    every_type = [cls(**{f.name: PLAUSIBLE.get(f.name, 0) for f in fields(cls)})
                  for cls in COMMANDS.values()]
    odd = [Step("x"), Take(FAR, 1, 0), Take(0, FAR, 0), Take(0, 1, FAR), Sing()]
    varied = [COMMANDS["Move"](choice % 50, choice % 13, choice % 11),
              COMMANDS["Attack"](choice % 50, choice % 40),
              Step("udlrx"[choice % 5]), Take(choice % 5, choice % 4, choice % 3)]
    return every_type + odd + varied
