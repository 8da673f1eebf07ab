"""Headless matches: AI seats take turns on one Engine until the game ends or one forfeits.

Seats and the seat step live in game/session/seat.py (re-exported here for the callers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components.match import DRAW
from game.commands import Command
from game.engine import Engine
from game.errors import UserError
from game.levels.loader import load_engine
from game.session.seat import Forfeited, Seat, close_seats, make_seats, seat_rng, step
from systems.ai import Budget

MAX_COMMANDS = 200_000  # a safety net against a ruleset that never ends

__all__ = ["MatchResult", "Seat", "current_round", "make_seats", "play_match", "run_match",
           "seat_rng"]


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


def current_round(engine: Engine) -> int:
    """The round a game of sides is in (its report says), or the moves made in a level."""
    return int(engine.ruleset.report(engine.world).get("round", len(engine.history)))


def play_match(engine: Engine, seats: dict[str, Seat], seed: int = 0,
               budget: Budget | None = None,
               on_command: Callable[[Engine, Command], None] | None = None) -> MatchResult:
    """Let the AI seats play until the game is over or a seat forfeits (the seat step's one
    policy: game/session/seat.py); every command goes through submit."""
    budget = budget or Budget()
    forfeit: Forfeited | None = None
    try:
        while not engine.over:
            if len(engine.history) >= MAX_COMMANDS:
                raise UserError(f"the match passed {MAX_COMMANDS} commands without ending.")
            seat = seats[engine.side]
            if seat.ai is None:
                raise UserError("a human seat cannot play a headless match; use `rulefront "
                                "play`.")
            outcome = step(seat, engine, budget)
            if isinstance(outcome, Forfeited):
                forfeit = outcome
                break
            engine.submit(outcome.command)
            if on_command is not None:
                on_command(engine, outcome.command)
    finally:
        close_seats(seats)
    think = {s.side: s.think_seconds / max(1, s.actions) for s in seats.values()}
    if forfeit is not None:
        return MatchResult(forfeit.winner(engine), forfeit.sentence, current_round(engine),
                           engine.commands(), seed, think, forfeit.to_json())
    winner, reason = engine.outcome or (DRAW, "")
    return MatchResult(winner, reason, current_round(engine), engine.commands(), seed, think)


def run_match(map_path: str | Path, specs: dict[str, str], seed: int = 0,
              on_command: Callable[[Engine, Command], None] | None = None,
              budget: Budget | None = None) -> tuple[Engine, MatchResult]:
    engine = load_engine(map_path, seed=seed)
    seats = make_seats(engine, specs, seed, budget)
    return engine, play_match(engine, seats, seed, budget, on_command)
