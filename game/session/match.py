"""Headless matches: seats (AIs or humans) take turns on one Engine until the game ends."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.match import DRAW
from game.commands import Command
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_engine
from systems.ai import AI, Budget, make_ai

MAX_COMMANDS = 200_000  # a safety net against a ruleset that never ends


def seat_rng(seed: int, index: int) -> random.Random:
    """Each seat's own RNG: the same seed gives the same choices, whatever the other seat does."""
    return random.Random(seed * 7919 + index)


@dataclass
class Seat:
    side: str
    spec: str
    ai: AI | None  # None for a human
    rng: random.Random
    think_seconds: float = 0.0
    actions: int = 0


def make_seats(engine: Engine, specs: dict[str, str], seed: int,
               budget: Budget | None = None) -> dict[str, Seat]:
    seats = {}
    for index, side in enumerate(engine.ruleset.sides):
        spec = specs.get(side, "random")
        ai = None if spec == "human" else make_ai(spec)
        seats[side] = Seat(side, spec, ai, seat_rng(seed, index))
    return seats


@dataclass
class MatchResult:
    winner: str
    reason: str
    rounds: int
    commands: list[Command] = field(default_factory=list)
    seed: int = 0
    think: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "reason": self.reason, "rounds": self.rounds,
                "commands": len(self.commands), "seed": self.seed}


def current_round(engine: Engine) -> int:
    """The round a game of sides is in (its report says), or the moves made in a level."""
    return int(engine.ruleset.report(engine.world).get("round", len(engine.history)))


def play_match(engine: Engine, seats: dict[str, Seat], seed: int = 0,
               budget: Budget | None = None,
               on_command: Callable[[Engine, Command], None] | None = None) -> MatchResult:
    """Let the AI seats play until the game is over; every command goes through submit."""
    budget = budget or Budget()
    while not engine.over:
        if len(engine.history) >= MAX_COMMANDS:
            raise UserError(f"the match passed {MAX_COMMANDS} commands without ending.")
        seat = seats[engine.side]
        if seat.ai is None:
            raise UserError("a human seat cannot play a headless match; use `rulefront play`.")
        start = time.perf_counter()
        command = seat.ai.choose(engine, seat.rng, budget)
        seat.think_seconds += time.perf_counter() - start
        seat.actions += 1
        result = engine.submit(command)
        if not result.ok:
            raise RuntimeError(f"{seat.spec} chose an illegal command {command}: {result}")
        if on_command is not None:
            on_command(engine, command)
    winner, reason = engine.outcome or (DRAW, "")
    return MatchResult(winner, reason, current_round(engine), engine.commands(), seed,
                       {s.side: s.think_seconds / max(1, s.actions) for s in seats.values()})


def run_match(map_path: str | Path, specs: dict[str, str], seed: int = 0,
              on_command: Callable[[Engine, Command], None] | None = None,
              budget: Budget | None = None) -> tuple[Engine, MatchResult]:
    engine = load_engine(map_path, seed=seed)
    seats = make_seats(engine, specs, seed, budget)
    return engine, play_match(engine, seats, seed, budget, on_command)
