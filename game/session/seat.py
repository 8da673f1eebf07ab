"""Seats, and the one seat step every front end uses to get an AI's command.

`step(seat, engine, budget)` asks the seat's AI for one command and returns `Chosen` (a legal
command, not yet submitted) or `Forfeited` (the side gives up, with one sentence why). The
policy is the same for every AI, built-in or plug-in, and every front end (the headless
match and its workers, tournaments, balance, the window, both terminal clients): an AI
forfeits when it raises, exits (sys.exit), answers something that is not a command or a
command that is illegal now, leaves the engine changed (searching by apply and retract and
putting it back is fine; the step puts back what it can), or takes longer than
`systems.ai.base.time_limit` (its time budget plus MARGIN_SHARE of it plus MARGIN_SECONDS).
Plug-ins play in a child process on a replica (systems/ai/remote.py), which is stopped at
that limit; built-in AIs play here and are judged when they answer.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any

from components.match import LOST
from game.commands import Command
from game.engine import Engine
from game.errors import UserError
from systems.ai import AI, Budget, Forfeit, make_ai
from systems.ai.base import clause, fingerprint, needs_of, time_limit


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
    """A seat per side ("random" when `specs` names none); an AI whose NEEDS the ruleset lacks
    is refused here, as one sentence, before the game starts."""
    seats = {}
    for index, side in enumerate(engine.ruleset.sides):
        spec = specs.get(side, "random")
        ai = None if spec == "human" else make_ai(spec)
        if ai is not None:
            check_needs(engine, spec, ai)
        seats[side] = Seat(side, spec, ai, seat_rng(seed, index))
    return seats


def check_needs(engine: Engine, spec: str, ai: Any) -> None:
    """Refuse an AI that cannot play this ruleset: what it NEEDS, the ruleset's spec lacks."""
    check_needs_on(engine.ruleset.name, spec, ai)


def check_needs_on(name: str, spec: str, ai: Any) -> None:
    """`check_needs` before any engine is built, for the ruleset registered as `name` (what a
    tournament checks for every seat on every map before its first game)."""
    needs = needs_of(ai)
    if not needs:
        return
    from game import registry

    missing = [need for need in needs if not registry.spec(name).has(need)]
    if missing:
        raise UserError(f"AI '{spec}' cannot play {name} games: it needs "
                        f"{' and '.join(missing)}, which the {name} ruleset does not offer "
                        "(`rulefront ais` lists what each AI needs).")


def close_seats(seats: dict[str, Seat]) -> None:
    """Stop what the seats' AIs keep running (a plug-in's process); a later step restarts it."""
    for seat in seats.values():
        close = getattr(seat.ai, "close", None)
        if callable(close):
            close()


@dataclass(frozen=True)
class Chosen:
    """The AI's command, legal now and not yet submitted, and how long it took."""

    command: Command
    seconds: float


@dataclass(frozen=True)
class Forfeited:
    """A side that gave up: its seat and one sentence why (kept in the result and replay)."""

    side: str
    seat: str
    reason: str

    @property
    def sentence(self) -> str:
        return f"{self.side} forfeits: {self.reason}"

    def to_json(self) -> dict[str, str]:
        return {"side": self.side, "seat": self.seat, "reason": self.reason}

    def winner(self, engine: Engine) -> str:
        """The other side, or LOST in a one-player game."""
        others = [s for s in engine.ruleset.sides if s != self.side]
        return others[0] if len(others) == 1 else LOST


def step(seat: Seat, engine: Engine, budget: Budget) -> Chosen | Forfeited:
    """Ask the seat's AI for one command under the one forfeit policy (module docstring)."""
    ai = seat.ai
    if ai is None:
        raise ValueError(f"{seat.side} is a human seat: it has no AI to ask")
    isolated = bool(getattr(ai, "isolated", False))  # a plug-in: its child keeps the clock
    label = f"AI plug-in '{getattr(ai, 'name', seat.spec)}'" if isolated else f"AI '{seat.spec}'"
    history, redo, mark = len(engine.history), len(engine.redo_stack), engine.world.mark()
    before = fingerprint(engine)
    reason: str | None = None
    command: Any = None
    start = time.perf_counter()
    try:
        command = ai.choose(engine, seat.rng, budget)
    except Forfeit as gave_up:
        reason = gave_up.reason
    except SystemExit as exc:
        reason = f"{label} exited (sys.exit({exc.code!r}))"
    except Exception as exc:  # an AI's bug ends its game, not the program
        reason = f"{label} raised {type(exc).__name__}: {clause(exc)}"
    finally:
        seconds = time.perf_counter() - start
        seat.think_seconds += seconds
        seat.actions += 1
    if fingerprint(engine) != before:
        _put_back(engine, history, redo, mark)
        reason = reason or (f"{label} left the game changed (an AI may apply and retract to "
                            "search, but must put back what it applies)")
    if reason is None and not isinstance(command, Command):
        reason = f"{label} answered {command!r}, which is not a command"
    if reason is None and not isolated and seconds > (limit := time_limit(ai, budget)):
        reason = (f"{label} took {seconds:.1f} s, more than its {limit:.1f} s (its time "
                  "budget plus the margin)")
    if reason is None and (why := engine.why_illegal(command)) is not None:
        reason = f"{label} chose an illegal command {command.to_json()}: {why.rstrip('.')}"
    if reason is not None:
        return Forfeited(seat.side, seat.spec, reason)
    return Chosen(command, seconds)


def _put_back(engine: Engine, history: int, redo: int, mark: int) -> None:
    """Undo what an AI left applied (or redo what it undid), as far as the engine can."""
    while len(engine.history) > history:
        engine.retract()
    while len(engine.history) < history and len(engine.redo_stack) > redo:
        engine.redo()
    if engine.world.mark() > mark:
        engine.world.rollback(mark)
