"""AI turns worked out off the UI thread, so a window or a terminal keeps answering.

A client asks `Worker.ask(engine, seat, budget)` and goes on drawing and reading keys; each
frame it calls `poll()`, which returns None while the AI thinks and then the seat step's
answer (game/session/seat.py: `Chosen` or `Forfeited`). The step runs in a child process on
a replica of the game, kept in step by systems/ai/remote.py (the mechanism a plug-in seat
plays through too: the whole Engine once, then how many commands to keep after an undo and
the commands played since). The client applies the
chosen command itself through `Engine.submit`, so undo, redo and saves see nothing but
commands, and the seat's RNG state travels with each request and back, so the same seed
gives the same match as a step run in the client's own process.

The child keeps each seat's AI object from one request to the next (a whole-turn minimax
plays the rest of the turn it planned) and forfeits under the step's one policy. The client
adds one clock of its own: a child that does not answer within the seat's `time_limit` plus
CLIENT_GRACE (an AI stuck in a loop would otherwise think forever) is stopped and its side
forfeits. `cancel()` stops a think the player made moot (undo, restart, quit); the next
`ask` starts a new child.

The same child answers a level's hint: `ask_hint(engine, seconds)` has the solver
(systems/ai/solver.py) look for a win from the position as it stands, on the replica, and
`poll_hint()` hands over its moves (`Hinted`) once found. One question is pending at a time:
asking a hint while an AI thinks, or the other way round, stops the first. The client shows
the hint only if its game is still at the position it asked about.

`Inline` has the same face and runs the step at once in this process: for callers with no
screen to keep alive (scripts, unit tests of a controller's rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.commands import Command, from_json
from game.session.seat import Chosen, Forfeited, Seat, step
from systems.ai import Budget
from systems.ai.base import time_limit
from systems.ai.remote import Lost, Remote

if TYPE_CHECKING:
    from game.engine import Engine

CLIENT_GRACE = 5.0  # seconds past the seat's own limit before the client stops the child
NICENESS = 5  # the child's scheduling priority below the client's (os.nice)

Outcome = Chosen | Forfeited


@dataclass(frozen=True)
class Hinted:
    """The solver's answer to a hint: a winning line from the position asked about (empty
    when none was found), whether it proved no win exists, or why no search answered."""

    commands: tuple[Command, ...] = ()
    exhausted: bool = False  # every reachable state seen without a win: undo or restart
    failure: str = ""  # the thinking process failed or ran over its time

    @property
    def solved(self) -> bool:
        return bool(self.commands)


def hint_of(engine: Engine, seconds: float) -> Hinted:
    """The solver run on `engine` from where it stands (left exactly as it was found)."""
    from systems.ai.solver import solve

    solution = solve(engine, seconds)
    return Hinted(tuple(solution.commands) if solution.solved else (), solution.exhausted)


class Thinker(Protocol):
    """What a client needs of whoever works out an AI's command or a level's hint."""

    def prepare(self) -> None: ...

    def ask(self, engine: Engine, seat: Seat, budget: Budget) -> None: ...

    def poll(self) -> Outcome | None: ...

    def ask_hint(self, engine: Engine, seconds: float) -> None: ...

    def poll_hint(self) -> Hinted | None: ...

    @property
    def thinking(self) -> bool: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class Inline:
    """The seat step run at once, in this process: `poll` hands its answer over."""

    def __init__(self) -> None:
        self._answer: Outcome | Hinted | None = None

    def prepare(self) -> None:
        """Nothing to start in this process."""

    def ask(self, engine: Engine, seat: Seat, budget: Budget) -> None:
        self._answer = step(seat, engine, budget)

    def poll(self) -> Outcome | None:
        answer = self._answer
        if isinstance(answer, Hinted):
            return None
        self._answer = None
        return answer

    def ask_hint(self, engine: Engine, seconds: float) -> None:
        self._answer = hint_of(engine, seconds)

    def poll_hint(self) -> Hinted | None:
        answer = self._answer
        if not isinstance(answer, Hinted):
            return None
        self._answer = None
        return answer

    @property
    def thinking(self) -> bool:
        return self._answer is not None

    def cancel(self) -> None:
        self._answer = None

    def close(self) -> None:
        self._answer = None


@dataclass
class _Pending:
    seat: Seat | None  # None: the question is a hint
    limit: float  # the seat's own time limit (or the hint's budget), in seconds


class Worker:
    """One child process that answers seat steps and hints on its replica of the client's
    game (systems/ai/remote.py keeps the replica in step and the clock)."""

    def __init__(self) -> None:
        self.remote = Remote("rulefront thinking", Replica, noun="thinking process",
                             nice=NICENESS)
        self.pending: _Pending | None = None

    @property
    def thinking(self) -> bool:
        return self.pending is not None

    @property
    def process(self) -> Any:
        """The child process (None until a question or `prepare` starts it)."""
        return self.remote.process

    def prepare(self) -> None:
        """Start the child now (a game with an AI seat begins): its start-up (about 50 ms
        here) is then not paid on the UI thread in the middle of a turn."""
        self.remote.start()

    def ask(self, engine: Engine, seat: Seat, budget: Budget) -> None:
        """Start working out `seat`'s next command on `engine` as it stands now."""
        if seat.ai is None:
            raise ValueError(f"{seat.side} is a human seat: it has no AI to ask")
        self.remote.ask(engine, "step", seat.side, seat.spec, seat.rng.getstate(), budget)
        self.pending = _Pending(seat, time_limit(seat.ai, budget))

    def ask_hint(self, engine: Engine, seconds: float) -> None:
        """Start looking for a win from `engine`'s position as it stands now (a level)."""
        self.remote.ask(engine, "hint", seconds)
        self.pending = _Pending(None, seconds)

    def poll(self) -> Outcome | None:
        """The answer when it has come (and the seat's RNG and clock brought up to date),
        else None; a child that died or ran past its time is a forfeit."""
        pending = self.pending
        if pending is None or pending.seat is None:
            return None
        reply = self._receive(pending)
        if reply is None:
            return None
        seat = pending.seat
        if isinstance(reply, Lost) or reply[0] == "forfeited":
            self.remote.forget()  # the next question sends the game whole (undo may follow)
            why = reply[1] if not isinstance(reply, Lost) \
                else reply.of(f"AI '{seat.spec}'") if reply.late else reply.why
            return Forfeited(seat.side, seat.spec, why)
        _, command, state, seconds = reply
        seat.rng.setstate(state)
        seat.think_seconds += seconds
        seat.actions += 1
        return Chosen(from_json(command), seconds)

    def poll_hint(self) -> Hinted | None:
        """The hint when it has come, else None; a child that died or ran past its time
        gives a hint with no moves and the reason."""
        pending = self.pending
        if pending is None or pending.seat is not None:
            return None
        reply = self._receive(pending)
        if reply is None:
            return None
        if isinstance(reply, Lost):
            return Hinted(failure=reply.of("the solver") if reply.late else reply.why)
        commands, exhausted = reply
        return Hinted(tuple(from_json(c) for c in commands), exhausted)

    def _receive(self, pending: _Pending) -> Any:
        reply = self.remote.reply(pending.limit, CLIENT_GRACE)
        if reply is not None:
            self.pending = None
        return reply

    def cancel(self) -> None:
        """Forget the pending question; the child working on it is stopped."""
        if self.pending is not None:
            self.close()

    def close(self) -> None:
        """Stop the child (its replica and AI objects go with it)."""
        self.remote.close()
        self.pending = None


class Replica:
    """The child's end: the seats' AI objects, kept between questions, and the solver."""

    def __init__(self) -> None:
        self.seats: dict[tuple[str, str], Seat] = {}

    def __call__(self, replica: Engine, kind: str, *question: Any) -> tuple[Any, ...]:
        return self.step(replica, *question) if kind == "step" else self.hint(replica, *question)

    def step(self, replica: Engine, side: str, spec: str, rng_state: Any,
             budget: Budget) -> tuple[Any, ...]:
        """The seat step on the replica, as the message the client reads."""
        from game.session.seat import make_seats

        seat = self.seats.get((side, spec))
        if seat is None:
            humans = {s: "human" for s in replica.ruleset.sides}
            seat = self.seats[(side, spec)] = make_seats(replica, humans | {side: spec}, 0)[side]
        seat.rng.setstate(rng_state)
        outcome = step(seat, replica, budget)
        if isinstance(outcome, Forfeited):
            return ("forfeited", outcome.reason)
        return ("chosen", outcome.command.to_json(), seat.rng.getstate(), outcome.seconds)

    def hint(self, replica: Engine, seconds: float) -> tuple[Any, ...]:
        """The solver on the replica, as the message the client reads."""
        found = hint_of(replica, seconds)
        return ([c.to_json() for c in found.commands], found.exhausted)
