"""Work on a replica of a game in a child process, never on the live engine.

Two features use it: a plug-in AI's seat (systems/ai/plugins.py: the plug-in runs where it
cannot harm the match) and a client's thinking process (game/session/think.py: an AI's step
and a level's hint worked out off the UI thread). `Remote` is the parent's end. The child
(multiprocessing "spawn": it shares nothing with the parent, not even esper's module-level
context, which a thread would) builds its answerer once, `make(*args)` (any picklable
callable: `answerer(replica, *question) -> reply`), and then answers one question at a time.
Each question carries what the replica lacks: the whole Engine the first time (it pickles as
map + seed + commands; the ruleset's spec goes with it, for rulesets registered at run time),
afterwards how many of its commands to keep (fewer after an undo) and the commands played
since. The child catches up, says "thinking", and the time the answer may take starts then:
`reply` (polled, for a client that keeps drawing) and `wait` (blocking) stop a child that
died, took more than SETUP_SECONDS to catch up, or thought past its limit, and say so in a
`Lost`; the next question starts a new child.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import multiprocessing.util  # its exit handler (joining children) must be registered first
import os
import pickle
import signal
import sys
import time
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from systems.ai.base import SETUP_SECONDS, clause

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from game.engine import Engine, Entry


@dataclass(frozen=True)
class Lost:
    """No answer came: why, as the end of a sentence. `late` when the child thought past its
    limit ("took more than its 2.5 s (it was stopped)": the one who took it goes before), else
    the process itself ended or failed ("its process ended (exit code -9)")."""

    why: str
    late: bool = False

    def of(self, who: str) -> str:
        """The sentence with its subject: "AI 'x' took more than ..." or "AI 'x': its ..."."""
        return f"{who} {self.why}" if self.late else f"{who}: {self.why}"


class Remote:
    """The parent's end of one child process that keeps a replica of a game and answers
    questions on it (module docstring); `noun` names the process in sentences, `nice` lowers
    its scheduling priority below the parent's."""

    def __init__(self, name: str, make: Callable[..., Any], args: tuple[Any, ...] = (), *,
                 noun: str = "process", nice: int = 0) -> None:
        self.name = name
        self.job = (make, args, nice)
        self.noun = noun
        self.process: Any = None
        self.conn: Connection | None = None
        self.engine: Engine | None = None  # the game the replica copies
        self.sent: list[Entry] = []  # the history entries the replica holds, by identity
        self.asked: float | None = None  # time.monotonic() of the pending question
        self.started: float | None = None  # when the child had caught up and began
        self._dropped: weakref.finalize[Any, Any] | None = None

    @property
    def asking(self) -> bool:
        return self.asked is not None

    def start(self) -> None:
        """Start the child now, so that its start-up is not paid when the first question is
        asked (a client's AI turn)."""
        if self.conn is None:
            context = multiprocessing.get_context("spawn")
            parent, child = context.Pipe()
            # not a daemon: a thinking process's plug-in seat starts a process of its own
            self.process = context.Process(target=serve, args=(child, *self.job),
                                           daemon=False, name=self.name)
            with real_stderr():
                self.process.start()
            child.close()
            self.conn = parent
            _LIVE.add(self)
            self._dropped = weakref.finalize(self, _stop, self.process, parent)
            self._dropped.atexit = False  # _close_all stops it then, in the right order

    def ask(self, engine: Engine, *question: Any) -> None:
        """Send `question` about `engine` as it stands now; a question still pending is
        forgotten (its child stopped)."""
        if self.asked is not None or (self.process is not None
                                      and not self.process.is_alive()):
            self.close()
        self.start()
        assert self.conn is not None
        self.conn.send((*self._update(engine), question))
        self.asked, self.started = time.monotonic(), None

    def reply(self, limit: float, grace: float = 0.0) -> Any:
        """The answer once it has come (nothing is pending then), a `Lost` if the child died
        or ran past `limit` (+ `grace`) seconds of thinking (it is stopped), else None."""
        assert self.conn is not None and self.asked is not None
        while self.conn.poll():
            try:
                message = self.conn.recv()
            except (EOFError, OSError):
                return self._lost(f"its {self.noun} ended")
            if message[0] == "thinking":
                self.started = time.monotonic()
                continue
            self.asked = None
            if message[0] == "failed":  # the child lives on; its replica may not
                self.engine = None
                return Lost(f"its {self.noun} {message[1]}")
            return message[1]
        if not self.process.is_alive():
            if self.conn.poll():  # it said something before it ended
                return self.reply(limit, grace)
            return self._lost(f"its {self.noun} ended (exit code {self.process.exitcode})")
        now = time.monotonic()
        if self.started is None and now - self.asked > SETUP_SECONDS:
            return self._lost(f"its {self.noun} took more than {SETUP_SECONDS:.0f} s to catch "
                              "up with the game")
        if self.started is not None and now - self.started > limit + grace:
            return self._lost(f"took more than its {limit:.1f} s (it was stopped)", late=True)
        return None

    def wait(self, limit: float) -> Any:
        """`reply`, waited for."""
        while (answer := self.reply(limit)) is None:
            assert self.conn is not None
            self.conn.poll(0.05)
        return answer

    def forget(self) -> None:
        """Send the game whole with the next question (the child's replica is not trusted)."""
        self.engine = None

    def close(self) -> None:
        """Stop the child (its replica and answerer go with it; the next question starts a new
        one)."""
        if self._dropped is not None:
            self._dropped()  # _stop, once
        _LIVE.discard(self)
        self.process = self.conn = self.engine = self.asked = self.started = None
        self._dropped = None
        self.sent = []

    def _lost(self, why: str, late: bool = False) -> Lost:
        self.close()
        return Lost(why, late)

    def _update(self, engine: Engine) -> tuple[tuple[Any, bytes] | None, int, list[Any]]:
        """What the replica lacks: the whole engine (another game: its ruleset's spec, which
        the child may not know when it was registered at run time, and the engine pickled),
        or how many of its commands to keep (fewer after an undo) and the commands to apply
        after them."""
        from game import registry

        history = engine.history
        if engine is not self.engine:
            self.engine, self.sent = engine, list(history)
            return (registry.spec(engine.ruleset.name), pickle.dumps(engine)), len(history), []
        keep = 0
        while keep < min(len(self.sent), len(history)) and self.sent[keep] is history[keep]:
            keep += 1
        new = [entry.command.to_json() for entry in history[keep:]]
        self.sent = list(history)
        return None, keep, new


_LIVE: weakref.WeakSet[Remote] = weakref.WeakSet()


@atexit.register  # before multiprocessing's own exit handler, which would wait for them
def _close_all() -> None:
    for remote in list(_LIVE):
        remote.close()


def _stop(process: Any, conn: Connection | None) -> None:
    """Kill a child and reap it (also when its Remote is dropped without close())."""
    if conn is not None:
        conn.close()
    if process.is_alive():
        process.kill()
    process.join(5)


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


def serve(conn: Connection, make: Callable[..., Any], args: tuple[Any, ...], nice: int) -> None:
    """The child: build the answerer, then keep a replica in step with the parent's game and
    answer each question on it until the parent hangs up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    if nice:
        with contextlib.suppress(AttributeError, OSError):
            os.nice(nice)
    try:
        answerer = make(*args)
    except BaseException as exc:  # noqa: BLE001  (anything, sys.exit too, is one sentence)
        conn.send(("failed", f"failed to start: {type(exc).__name__}: {clause(exc)}"))
        return
    replica: Engine | None = None
    while True:
        try:
            whole, keep, new, question = conn.recv()
        except (EOFError, OSError):
            return
        try:
            replica = catch_up(replica, whole, keep, new)
            conn.send(("thinking",))  # the parent's clock of this question starts now
            conn.send(("answer", answerer(replica, *question)))
        except Exception as exc:  # a game the replica cannot follow: no answer
            conn.send(("failed", f"failed: {type(exc).__name__}: {clause(exc)}"))


def catch_up(replica: Engine | None, whole: tuple[Any, bytes] | None, keep: int,
             new: list[Any]) -> Engine:
    """The replica brought up to the parent's game: taken whole, or taken back to `keep`
    commands with `new` applied after them."""
    from game import registry
    from game.commands import from_json

    if whole is not None:
        if replica is not None:
            replica.world.close()
        ruleset, pickled = whole
        if ruleset.name not in registry.names():  # registered at run time by the parent
            registry.register(ruleset)
        replica = pickle.loads(pickled)
    assert replica is not None
    while len(replica.history) > keep:
        replica.retract()
    for raw in new:
        replica.apply(from_json(raw))
    return replica
