"""A plug-in AI in a child process, playing on a replica of the game, never on the live engine.

The child (started with multiprocessing's "spawn", so it shares nothing with the match) builds
the plug-in from its seat, then answers one request per action: the parent sends what the
replica lacks (the whole Engine, which pickles as map + seed + commands, the first time or
after an undo; else only the new commands), the seat's RNG state and the budget. The child
brings its replica up to date, says "thinking", and the parent's clock starts: past
`base.time_limit` the child is killed. Whatever goes wrong in the child (the plug-in raises,
calls sys.exit, answers something that is not a command, leaves its replica changed) comes
back as one sentence; the parent raises it as a `Forfeit`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from systems.ai.base import AI, SETUP_SECONDS, Budget, Forfeit, needs_of, time_limit
from systems.ai.plugins import clause, load_plugin

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from game.commands import Command
    from game.engine import Engine, Entry


def fingerprint(engine: Engine) -> tuple[Any, ...]:
    """What an AI must leave as it found: the history, the redo stack and the World's journal
    (apply then retract puts all three back)."""
    return (len(engine.history), len(engine.redo_stack), engine.world.version())


class Remote:
    """The parent's end: one child process per plug-in seat, started on first use."""

    def __init__(self, label: str, spec: str, name: str, options: dict[str, str]) -> None:
        self.label = label
        self.job = (spec, name, options)
        self.process: Any = None
        self.conn: Connection | None = None
        self.source: tuple[Any, ...] | None = None  # (map, seed, ruleset) the replica is of
        self.last: Entry | None = None  # the newest history entry the replica has
        self.known = 0  # how many commands the replica has

    def choose(self, engine: Engine, rng: random.Random, budget: Budget, limit: float) -> Any:
        """The plug-in's answer as a command in JSON form; a Forfeit when it has none in time."""
        from game.commands import from_json

        conn = self._conn()
        conn.send(("choose", *self._update(engine), rng.getstate(), budget))
        reply = self._receive(SETUP_SECONDS, "to catch up with the game")
        if reply[0] == "thinking":
            reply = self._receive(limit, f"more than its {limit:.1f} s")
        if reply[0] == "forfeit":
            self.close()
            raise Forfeit(f"AI plug-in '{self.label}' {reply[1]}")
        _, command, state = reply
        rng.setstate(state)
        return from_json(command)

    def close(self) -> None:
        """Stop the child (its replica goes with it; the next request starts a new one)."""
        if self.conn is not None:
            self.conn.close()
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
        self.process = self.conn = None
        self.source = self.last = None
        self.known = 0

    def _conn(self) -> Connection:
        if self.conn is None:
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            self.process = context.Process(target=serve, args=(child, *self.job), daemon=True,
                                           name=f"rulefront plug-in {self.label}")
            with real_stderr():
                self.process.start()
            child.close()
            self.conn = parent
        return self.conn

    def _update(self, engine: Engine) -> tuple[Engine | None, list[Any]]:
        """What the replica lacks: the whole engine, or the commands played since last time."""
        history = engine.history
        source = (engine.map, engine.seed, engine.ruleset.name)
        same = self.source is not None and source[0] is self.source[0] \
            and source[1:] == self.source[1:] and len(history) >= self.known \
            and (self.known == 0 or history[self.known - 1] is self.last)
        first = None if same else engine
        new = [entry.command for entry in history[self.known:]] if same else []
        self.source = source
        self.known = len(history)
        self.last = history[-1] if history else None
        return first, new

    def _receive(self, seconds: float, late: str) -> tuple[Any, ...]:
        assert self.conn is not None and self.process is not None
        deadline = time.monotonic() + seconds
        while not self.conn.poll(min(0.05, max(0.0, deadline - time.monotonic()))):
            if not self.process.is_alive() and not self.conn.poll():
                code = self.process.exitcode
                self.close()
                raise Forfeit(f"AI plug-in '{self.label}': its process ended (exit code "
                              f"{code})")
            if time.monotonic() > deadline:
                self.close()
                raise Forfeit(f"AI plug-in '{self.label}' took {late} (it was stopped)")
        try:
            reply: tuple[Any, ...] = self.conn.recv()
        except (EOFError, OSError):
            self.close()
            raise Forfeit(f"AI plug-in '{self.label}': its process ended") from None
        return reply


@contextlib.contextmanager
def real_stderr() -> Iterator[None]:
    """The process's own stderr while a child starts: multiprocessing passes stderr's file
    descriptor to its resource tracker, and a full-screen client (Textual) replaces stderr
    with an object that has none."""
    replaced = sys.stderr
    try:
        usable = replaced is not None and replaced.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        usable = False
    if not usable:
        sys.stderr = sys.__stderr__
    try:
        yield
    finally:
        sys.stderr = replaced


def serve(conn: Connection, spec: str, name: str, options: dict[str, str]) -> None:
    """The child: build the plug-in, then answer requests until the parent hangs up."""
    try:
        ai = load_plugin(spec, name, options)
    except BaseException as exc:  # noqa: BLE001  (anything, sys.exit too, is one sentence)
        conn.send(("forfeit", f"failed to start: {type(exc).__name__}: {clause(exc)}"))
        return
    replica: Engine | None = None
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        _, engine, new, state, budget = request
        if engine is not None:
            if replica is not None:
                replica.world.close()
            replica = engine
        assert replica is not None
        for command in new:
            replica.apply(command)
        conn.send(("thinking",))
        conn.send(answer(ai, replica, state, budget))


def answer(ai: Any, replica: Engine, state: Any, budget: Budget) -> tuple[Any, ...]:
    """One request's reply: ("chosen", command JSON, RNG state) or ("forfeit", why)."""
    from game.commands import Command

    rng = random.Random()
    rng.setstate(state)
    before = fingerprint(replica)
    try:
        command = ai.choose(replica, rng, budget)
    except SystemExit as exc:
        return ("forfeit", f"exited (sys.exit({exc.code!r}))")
    except BaseException as exc:  # noqa: BLE001  (a plug-in's bug must not take the match)

        return ("forfeit", f"raised {type(exc).__name__}: {clause(exc)}")
    if fingerprint(replica) != before:
        return ("forfeit", "left the game it was given changed (an AI may apply and retract "
                           "to search, but must put back what it applies)")
    if not isinstance(command, Command):
        return ("forfeit", f"answered {command!r}, which is not a command")
    return ("chosen", command.to_json(), rng.getstate())


class Plugin:
    """A plug-in AI as a seat sees it: checked when built, played in a child process on a
    replica of the game (`Remote`); every failure there is a Forfeit. It says the class's NEEDS
    and PLANS_TURNS, and its `think` option when it has one, as a built-in would."""

    isolated = True  # the seat step leaves the clock to the child's deadline

    def __init__(self, inner: Any, label: str, spec: str, options: dict[str, str]) -> None:
        self.name = label
        self.NEEDS = needs_of(type(inner))
        self.PLANS_TURNS = bool(getattr(type(inner), "PLANS_TURNS", False))
        self.think = getattr(inner, "think", None)
        self.remote = Remote(label, spec, label, options)

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        command: Command = self.remote.choose(engine, rng, budget, time_limit(self, budget))
        return command

    def close(self) -> None:
        self.remote.close()


def make_plugin(spec: str, name: str, options: dict[str, str]) -> AI:
    """The plug-in a seat names, loaded and built here once as a check before the game starts
    (its child process builds its own)."""
    return Plugin(load_plugin(spec, name, options), name, spec, options)
