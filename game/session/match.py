"""Headless matches: seats (AIs or humans) take turns on one Engine until the game ends."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.match import DRAW, LOST
from game.commands import Command
from game.engine import Engine, Impossible
from game.errors import UserError
from game.levels.loader import load_engine
from systems.ai import AI, Budget, Forfeit, make_ai
from systems.ai.plugins import Plugin

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
    forfeit: dict[str, str] | None = None  # {"side", "seat", "reason"} when a seat gave up

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"winner": self.winner, "reason": self.reason,
                                "rounds": self.rounds, "commands": len(self.commands),
                                "seed": self.seed}
        if self.forfeit is not None:
            data["forfeit"] = self.forfeit
        return data


def forfeit_of(engine: Engine, seat: Seat, reason: str) -> dict[str, str]:
    """What a forfeit records: the side that gave up, its seat, and the sentence why."""
    return {"side": seat.side, "seat": seat.spec, "reason": reason}


def forfeit_winner(engine: Engine, side: str) -> str:
    """Who wins when `side` forfeits: the other side, or LOST in a one-player game."""
    others = [s for s in engine.ruleset.sides if s != side]
    return others[0] if len(others) == 1 else LOST


def current_round(engine: Engine) -> int:
    """The round a game of sides is in (its report says), or the moves made in a level."""
    return int(engine.ruleset.report(engine.world).get("round", len(engine.history)))


def play_match(engine: Engine, seats: dict[str, Seat], seed: int = 0,
               budget: Budget | None = None,
               on_command: Callable[[Engine, Command], None] | None = None) -> MatchResult:
    """Let the AI seats play until the game is over; every command goes through submit."""
    budget = budget or Budget()
    forfeit = None
    while not engine.over:
        if len(engine.history) >= MAX_COMMANDS:
            raise UserError(f"the match passed {MAX_COMMANDS} commands without ending.")
        seat = seats[engine.side]
        if seat.ai is None:
            raise UserError("a human seat cannot play a headless match; use `rulefront play`.")
        start = time.perf_counter()
        try:
            command = seat.ai.choose(engine, seat.rng, budget)
        except Forfeit as gave_up:
            forfeit = forfeit_of(engine, seat, gave_up.reason)
            break
        finally:
            seat.think_seconds += time.perf_counter() - start
            seat.actions += 1
        result = engine.submit(command)
        if isinstance(result, Impossible):
            if not isinstance(seat.ai, Plugin):
                raise RuntimeError(f"{seat.spec} chose an illegal command {command}: {result}")
            forfeit = forfeit_of(engine, seat, f"AI plug-in '{seat.ai.name}' chose an illegal "
                                 f"command {command.to_json()}: {result.reason.rstrip('.')}")
            break
        if on_command is not None:
            on_command(engine, command)
    think = {s.side: s.think_seconds / max(1, s.actions) for s in seats.values()}
    if forfeit is not None:
        return MatchResult(forfeit_winner(engine, forfeit["side"]),
                           f"{forfeit['side']} forfeits: {forfeit['reason']}",
                           current_round(engine), engine.commands(), seed, think, forfeit)
    winner, reason = engine.outcome or (DRAW, "")
    return MatchResult(winner, reason, current_round(engine), engine.commands(), seed, think)


def run_match(map_path: str | Path, specs: dict[str, str], seed: int = 0,
              on_command: Callable[[Engine, Command], None] | None = None,
              budget: Budget | None = None) -> tuple[Engine, MatchResult]:
    engine = load_engine(map_path, seed=seed)
    seats = make_seats(engine, specs, seed, budget)
    return engine, play_match(engine, seats, seed, budget, on_command)
