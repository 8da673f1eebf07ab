"""AI turns worked out off the UI thread, so a window or a terminal keeps answering.

A client asks `Worker.ask(engine, seat, budget)` and goes on drawing and reading keys; each
frame it calls `poll()`, which returns None while the AI thinks and then the seat step's
answer (game/session/seat.py: `Chosen` or `Forfeited`). The step runs in a child process
(multiprocessing "spawn": it shares nothing with the client, not even esper's module-level
context, which a thread would) on a replica of the game: the child gets the whole Engine
once (it pickles as map + seed + commands) and afterwards only what changed (how many
commands to take back after an undo, and the commands played since). The client applies the
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

import atexit
import contextlib
import multiprocessing
import os
import pickle
import signal
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from game.commands import Command, from_json
from game.session.seat import Chosen, Forfeited, Seat, step
from systems.ai import Budget
from systems.ai.base import SETUP_SECONDS, time_limit
from systems.ai.plugins import clause
from systems.ai.remote import real_stderr

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from game.engine import Engine, Entry

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
    asked: float  # time.monotonic() when asked
    limit: float  # the seat's own time limit (or the hint's budget), in seconds
    started: float | None = None  # when the child had caught up and began to think


class Worker:
    """One child process that answers seat steps on its replica of the client's game."""

    def __init__(self) -> None:
        self.process: Any = None
        self.conn: Connection | None = None
        self.engine: Engine | None = None  # the game the replica copies
        self.sent: list[Entry] = []  # the history entries the replica holds, by identity
        self.pending: _Pending | None = None
        self._at_exit = False

    @property
    def thinking(self) -> bool:
        return self.pending is not None

    @property
    def since(self) -> float | None:
        """time.monotonic() when the pending question was asked (None: nothing pending)."""
        return self.pending.asked if self.pending is not None else None

    def prepare(self) -> None:
        """Start the child now (a game with an AI seat begins): its start-up (about 50 ms
        here) is then not paid on the UI thread in the middle of a turn."""
        self._conn()

    def ask(self, engine: Engine, seat: Seat, budget: Budget) -> None:
        """Start working out `seat`'s next command on `engine` as it stands now."""
        if seat.ai is None:
            raise ValueError(f"{seat.side} is a human seat: it has no AI to ask")
        if self.pending is not None:
            self.cancel()
        conn = self._conn()
        whole, keep, new = self._update(engine)
        conn.send(("step", whole, keep, new, seat.side, seat.spec, seat.rng.getstate(),
                   budget))
        self.pending = _Pending(seat, time.monotonic(), time_limit(seat.ai, budget))

    def ask_hint(self, engine: Engine, seconds: float) -> None:
        """Start looking for a win from `engine`'s position as it stands now (a level)."""
        if self.pending is not None:
            self.cancel()
        conn = self._conn()
        whole, keep, new = self._update(engine)
        conn.send(("hint", whole, keep, new, seconds))
        self.pending = _Pending(None, time.monotonic(), seconds)

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
        if reply[0] in ("failed", "forfeited"):
            self.engine = None  # the next question sends the game whole (undo may follow)
            return Forfeited(seat.side, seat.spec, reply[1])
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
        if reply[0] == "failed":
            return Hinted(failure=reply[1])
        _, commands, exhausted, failure = reply
        if failure:
            self.engine = None  # the next question sends the game whole
        return Hinted(tuple(from_json(c) for c in commands), exhausted, failure)

    def _receive(self, pending: _Pending) -> tuple[Any, ...] | None:
        """The child's reply to the pending question once it has come (nothing is pending
        then), ("failed", why) when the child died or ran past its time (it is stopped),
        else None."""
        assert self.conn is not None
        while self.conn.poll():
            try:
                reply = self.conn.recv()
            except (EOFError, OSError):
                return self._fail("its thinking process ended")
            if reply[0] == "thinking":
                pending.started = time.monotonic()
                continue
            self.pending = None
            return tuple(reply)
        now = time.monotonic()
        if not self.process.is_alive():
            return self._fail(f"its thinking process ended (exit code {self.process.exitcode})")
        if pending.started is None and now - pending.asked > SETUP_SECONDS:
            return self._fail(f"its thinking process took more than {SETUP_SECONDS:.0f} s "
                              "to catch up with the game")
        if pending.started is not None and now - pending.started > pending.limit + CLIENT_GRACE:
            who = "the solver" if pending.seat is None else f"AI '{pending.seat.spec}'"
            return self._fail(f"{who} took more than its {pending.limit:.1f} s "
                              "(it was stopped)")
        return None

    def cancel(self) -> None:
        """Forget the pending question; the child working on it is stopped."""
        if self.pending is not None:
            self.close()

    def close(self) -> None:
        """Stop the child (its replica and AI objects go with it)."""
        if self.conn is not None:
            self.conn.close()
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
        self.process = self.conn = self.engine = None
        self.sent = []
        self.pending = None

    def _fail(self, why: str) -> tuple[str, str]:
        self.close()  # the replica goes with the child: the next question sends it whole
        return ("failed", why)

    def _conn(self) -> Connection:
        if self.conn is None:
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            # not a daemon: a plug-in seat's AI starts a process of its own in there
            self.process = context.Process(target=serve, args=(child,), daemon=False,
                                           name="rulefront thinking")
            with real_stderr():
                self.process.start()
            child.close()
            self.conn = parent
            if not self._at_exit:  # runs before multiprocessing's own join of children at exit
                atexit.register(self.close)
                self._at_exit = True
        return self.conn

    def _update(self, engine: Engine) -> tuple[tuple[Any, bytes] | None, int, list[Any]]:
        """What the replica lacks: the whole engine (another game: its ruleset's spec, which
        the child may not know when it was registered at run time, and the engine pickled),
        or how many of its commands to keep (fewer after an undo) and the commands to apply
        after them."""
        from game import registry

        history = engine.history
        if engine is not self.engine:
            self.engine, self.sent = engine, list(history)
            whole = (registry.spec(engine.ruleset.name), pickle.dumps(engine))
            return whole, len(history), []
        keep = 0
        while keep < min(len(self.sent), len(history)) and self.sent[keep] is history[keep]:
            keep += 1
        new = [entry.command.to_json() for entry in history[keep:]]
        self.sent = list(history)
        return None, keep, new


def serve(conn: Connection) -> None:
    """The child: keep a replica in step with the client's game and answer seat steps and
    hints on it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the client's to handle
    with contextlib.suppress(AttributeError, OSError):
        os.nice(NICENESS)  # on a busy machine the screen the player watches goes first
    state = _Replica()
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        kind, whole, keep, new, *question = request
        try:
            state.catch_up(whole, keep, new)
            conn.send(("thinking",))  # the client's clock of this step starts now
            reply = state.answer(*question) if kind == "step" else state.hint(*question)
        except Exception as exc:  # a game the replica cannot follow: the seat cannot play
            why = f"its thinking process failed: {type(exc).__name__}: {clause(exc)}"
            reply = ("forfeited", why) if kind == "step" else ("hinted", [], False, why)
        conn.send(reply)


class _Replica:
    """The child's copy of the game and the seats' AI objects, kept between requests."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.seats: dict[tuple[str, str], Seat] = {}

    def catch_up(self, whole: tuple[Any, bytes] | None, keep: int, new: list[Any]) -> None:
        """Take the client's game whole, or take back to `keep` commands and apply `new`."""
        from game import registry
        from game.commands import from_json as command_of

        if whole is not None:
            if self.engine is not None:
                self.engine.world.close()
            ruleset, pickled = whole
            if ruleset.name not in registry.names():  # registered at run time by the client
                registry.register(ruleset)
            self.engine = pickle.loads(pickled)
        replica = self.engine
        assert replica is not None
        while len(replica.history) > keep:
            replica.retract()
        for raw in new:
            replica.apply(command_of(raw))

    def answer(self, side: str, spec: str, rng_state: Any, budget: Budget) -> tuple[Any, ...]:
        """The seat step on the replica, as the message the client reads."""
        from game.session.seat import make_seats

        replica = self.engine
        assert replica is not None
        seat = self.seats.get((side, spec))
        if seat is None:
            humans = {s: "human" for s in replica.ruleset.sides}
            seat = self.seats[(side, spec)] = make_seats(replica, humans | {side: spec}, 0)[side]
        seat.rng.setstate(rng_state)
        outcome = step(seat, replica, budget)
        if isinstance(outcome, Forfeited):
            return ("forfeited", outcome.reason)
        return ("chosen", outcome.command.to_json(), seat.rng.getstate(), outcome.seconds)

    def hint(self, seconds: float) -> tuple[Any, ...]:
        """The solver on the replica, as the message the client reads."""
        assert self.engine is not None
        found = hint_of(self.engine, seconds)
        return ("hinted", [c.to_json() for c in found.commands], found.exhausted, "")
