"""Where the games of a match or tournament run: processes on this machine, or a Ray cluster.

A game is a pure function of (map content, ruleset, seats, seed). A task therefore carries the
map's bytes, not its path, so a worker needs no shared disk; it sends back the outcome and the
replay record as text with that text's sha256, and the driver checks the hash and writes replay
files itself. Both backends run the same task function (`play_task`), so the same seeds give
the same games whichever backend plays them.

Faults: a game that raises, or whose worker dies, is tried once more, then recorded as an error
outcome for its pairing (never dropped). Ctrl-C cancels what is outstanding and raises
`Interrupted` with the outcomes finished so far.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import logging
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.data import map_argument, read_bytes
from game.engine import Engine
from game.errors import UserError
from game.levels.files import atomic_write
from game.levels.loader import described, load_game_map
from game.levels.maps import GameMap, map_from_bytes, sidecar_path
from game.session.replay import portable_path
from game.session.seat import check_needs_on
from game.tournament.games import GameOutcome, GameSpec, error_outcome, play_game, replay_path
from systems.ai import make_ai

RAY_MISSING = "the ray backend needs Ray: pip install -e '.[cluster]'"


@dataclass(frozen=True)
class MapContent:
    """A map as bytes (PNG and sidecar), or a described position that is its own content."""

    label: str  # the map as the specs name it
    portable: str  # the map path replays record
    png: bytes | None = None
    sidecar: bytes | None = None


def map_content(path: str) -> MapContent:
    """Read a map once on the driver, so workers get its bytes and never open a file."""
    if described(path) is not None:
        return MapContent(path, path)
    file = map_argument(path)
    png = read_bytes(file, "map")  # the one reader: a pipe or device is refused, not read
    side = sidecar_path(file)
    sidecar = read_bytes(side, "sidecar") if os.path.lexists(side) else None
    return MapContent(path, portable_path(file), png, sidecar)


def build_map(content: MapContent) -> GameMap:
    if content.png is None:
        return load_game_map(content.label)
    return map_from_bytes(content.png, content.sidecar, content.label)


@dataclass
class TaskResult:
    """What a worker sends back: the outcome, the replay record's text and its sha256."""

    outcome: GameOutcome
    record: str
    sha256: str


@dataclass
class TaskFailure:
    """A game that raised in its worker, with the reason in one line."""

    index: int
    error: str


class WorkerDied(Exception):
    """The process running a game went away; `shared` when other games died with it."""

    def __init__(self, message: str, shared: bool = False) -> None:
        super().__init__(message)
        self.shared = shared


class Interrupted(Exception):
    """Ctrl-C: the outstanding games were cancelled; `outcomes` are those that finished."""

    def __init__(self, outcomes: list[GameOutcome]) -> None:
        super().__init__(f"interrupted after {len(outcomes)} games")
        self.outcomes = outcomes


def play_task(spec: GameSpec, content: MapContent, attempt: int = 0,
              fault: str | None = None) -> TaskResult | TaskFailure:
    """Play one game in whatever process runs this; exceptions come back as a TaskFailure."""
    try:
        _inject(fault, attempt)
        outcome, text = play_game(spec, build_map(content), content.portable)
        return TaskResult(outcome, text, hashlib.sha256(text.encode()).hexdigest())
    except Exception as exc:  # noqa: BLE001 - any failure of one game is reported, not fatal
        return TaskFailure(spec.index, f"{type(exc).__name__}: {exc}".strip())


def _inject(fault: str | None, attempt: int) -> None:
    """Faults the tests ask for: 'raise', 'raise-once' (first attempt only), 'exit', 'exit-once'."""
    if fault is None or fault.endswith("-once") and attempt > 0:
        return
    if fault.startswith("exit"):
        os._exit(3)
    raise RuntimeError(f"injected fault on attempt {attempt + 1}")


# -- backends --------------------------------------------------------------------------------


class LocalBackend:
    """Worker processes on this machine (or this process itself when workers is 1)."""

    name = "local"

    def __init__(self, workers: int = 1) -> None:
        self.workers = max(1, workers)
        self.slots = self.workers
        self.pool: cf.ProcessPoolExecutor | None = None
        self.contents: dict[str, MapContent] = {}
        self.inline: dict[int, TaskResult | TaskFailure] = {}
        self.count = 0

    def start(self, contents: dict[str, MapContent], total: int) -> None:
        self.contents = contents
        if self.workers > 1 and total > 1:
            self.slots = min(self.workers, total)
            self._new_pool()

    def _new_pool(self) -> None:
        method = "spawn" if sys.platform == "win32" else "fork"
        self.pool = cf.ProcessPoolExecutor(self.slots, multiprocessing.get_context(method),
                                           initializer=_ignore_sigint)

    def submit(self, spec: GameSpec, attempt: int, fault: str | None) -> Any:
        if self.pool is None:
            self.count += 1
            self.inline[self.count] = play_task(spec, self.contents[spec.map], attempt, fault)
            return self.count
        return self.pool.submit(play_task, spec, self.contents[spec.map], attempt, fault)

    def wait(self, handles: list[Any]) -> list[tuple[Any, Any]]:
        if self.pool is None:
            return [(h, self.inline.pop(h)) for h in handles]
        done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
        finished = []
        for future in done:
            try:
                finished.append((future, future.result()))
            except BrokenProcessPool:
                finished.append((future, WorkerDied("its worker process died",
                                                    shared=len(handles) > 1)))
        if any(isinstance(r, WorkerDied) for _, r in finished):
            self.pool.shutdown(wait=False, cancel_futures=True)
            self._new_pool()
        return finished

    def cancel(self, handles: list[Any]) -> None:
        if self.pool is not None:
            # running games cannot be cancelled any other way (terminate_workers is 3.14+)
            for process in list((getattr(self.pool, "_processes", None) or {}).values()):
                process.terminate()
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True)
            self.pool = None


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the driver, which cancels them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class RayBackend:
    """One Ray task per game, on the cluster at `address` or on a local Ray started here."""

    name = "ray"

    def __init__(self, address: str | None = None, cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise UserError(RAY_MISSING) from None
        self.ray = ray
        self.address = address
        self.cpus = cpus
        self.owned = False
        self.slots = 1 << 30  # Ray queues the tasks itself
        self.refs: dict[str, Any] = {}

    def start(self, contents: dict[str, MapContent], total: int) -> None:
        ray = self.ray
        if not ray.is_initialized():
            try:
                # "local" starts a Ray here even when a stale `ray start` left its address
                ray.init(address=self.address or "local",
                         num_cpus=None if self.address else self.cpus,
                         include_dashboard=False, log_to_driver=False,
                         logging_level=logging.WARNING)
            except Exception as exc:  # noqa: BLE001 - any way Ray fails to start is one sentence
                where = f"at {self.address}" if self.address else "locally"
                raise UserError(f"cannot start or reach Ray {where} ({exc}); check --address "
                                "and that `ray start --head` runs there.") from None
            self.owned = True
        self.remote = ray.remote(max_retries=0)(play_task)  # retries are ours, for both kinds
        self.refs = {label: ray.put(content) for label, content in contents.items()}

    def submit(self, spec: GameSpec, attempt: int, fault: str | None) -> Any:
        return self.remote.remote(spec, self.refs[spec.map], attempt, fault)

    def wait(self, handles: list[Any]) -> list[tuple[Any, Any]]:
        ray = self.ray
        ray.wait(handles, num_returns=1)
        ready, _ = ray.wait(handles, num_returns=len(handles), timeout=0)
        finished = []
        for ref in ready:
            try:
                finished.append((ref, ray.get(ref)))
            except ray.exceptions.RayError as exc:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                finished.append((ref, WorkerDied(f"{type(exc).__name__}: {first}"[:300])))
        return finished

    def cancel(self, handles: list[Any]) -> None:
        for ref in handles:
            self.ray.cancel(ref, force=True)

    def close(self) -> None:
        if self.owned:
            self.ray.shutdown()
            self.owned = False


def make_backend(name: str, workers: int = 1, address: str | None = None) -> Any:
    """The backend `--backend NAME` names; local ignores address, ray uses workers as CPUs."""
    if name == "local":
        if address:
            raise UserError("--address only applies to --backend ray.")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers if workers > 1 else None)
    raise UserError(f"unknown backend '{name}'; use local or ray.")


# -- the driver ------------------------------------------------------------------------------


def play_games(specs: Sequence[GameSpec], backend: Any,
               progress: Callable[[int, int], None] | None = None,
               on_result: Callable[[GameOutcome], None] | None = None,
               done: Sequence[GameOutcome] = (),
               faults: dict[int, str] | None = None) -> list[GameOutcome]:
    """Hand every game not in `done` to `backend`; retry failures once; outcomes in game order."""
    outcomes = {o.index: o for o in done}
    todo = [s for s in specs if s.index not in outcomes]
    contents = {m: map_content(m) for m in dict.fromkeys(s.map for s in todo)}
    for spec in todo:
        if spec.replay_dir:
            Path(spec.replay_dir).mkdir(parents=True, exist_ok=True)
    total = len(specs)
    if progress:
        progress(len(outcomes), total)
    queue: deque[tuple[GameSpec, int, bool]] = deque((s, 0, False) for s in todo)
    pending: dict[Any, tuple[GameSpec, int, bool]] = {}
    faults = faults or {}
    try:
        backend.start(contents, len(todo))
        while queue or pending:
            # a game suspected of killing its worker runs alone, so the next death is its own
            while queue and len(pending) < backend.slots and not any(
                    solo for _, _, solo in pending.values()):
                if queue[0][2] and pending:
                    break
                spec, attempt, solo = queue.popleft()
                handle = backend.submit(spec, attempt, faults.get(spec.index))
                pending[handle] = (spec, attempt, solo)
            for handle, result in backend.wait(list(pending)):
                spec, attempt, solo = pending.pop(handle)
                outcome = _accept(spec, result)
                if isinstance(outcome, WorkerDied) and outcome.shared and not solo:
                    queue.appendleft((spec, attempt, True))
                    continue
                if isinstance(outcome, str | WorkerDied):
                    if attempt == 0:
                        queue.appendleft((spec, 1, solo))
                        continue
                    outcome = error_outcome(spec, f"failed twice: {outcome}")
                outcomes[spec.index] = outcome
                if on_result:
                    on_result(outcome)
                if progress:
                    progress(len(outcomes), total)
    except KeyboardInterrupt:
        backend.cancel(list(pending))
        raise Interrupted([outcomes[i] for i in sorted(outcomes)]) from None
    finally:
        backend.close()
    return [outcomes[s.index] for s in specs]


def _accept(spec: GameSpec, result: Any) -> GameOutcome | str | WorkerDied:
    """The outcome of a finished task with its replay written, or why it failed."""
    if isinstance(result, WorkerDied):
        return result
    if isinstance(result, TaskFailure):
        return result.error
    if not isinstance(result, TaskResult) or result.outcome.index != spec.index:
        return f"the worker answered game {spec.index + 1} with something else"
    if hashlib.sha256(result.record.encode()).hexdigest() != result.sha256:
        return "the replay came back damaged (its sha256 does not match)"
    outcome = result.outcome
    if spec.replay_dir:
        path = replay_path(spec)
        atomic_write(path, result.record.encode())
        outcome.replay = str(path)
    return outcome


def check_seats(specs: Sequence[GameSpec]) -> None:
    """Refuse, before any game, a bad seat name, a map its ruleset cannot set up (a PNG with
    no headquarters would fail every game and the tournament exit 0), or an AI that cannot play
    a map's ruleset (its NEEDS): once here, not in every worker or every game."""
    ais = {seat: make_ai(seat) for seat in sorted({s for spec in specs
                                                    for s in (spec.red, spec.blue)})}
    rulesets: dict[str, str] = {}
    checked: set[tuple[str, str]] = set()
    for spec in specs:
        if spec.map not in rulesets:
            game_map = load_game_map(spec.map)
            Engine.from_game_map(game_map, seed=spec.seed)  # a UserError naming the map
            rulesets[spec.map] = game_map.ruleset
        for seat in (spec.red, spec.blue):
            if (seat, spec.map) not in checked:
                checked.add((seat, spec.map))
                check_needs_on(rulesets[spec.map], seat, ais[seat])


def run_games(specs: Sequence[GameSpec], workers: int = 1,
              progress: Callable[[int, int], None] | None = None, backend: Any = None,
              on_result: Callable[[GameOutcome], None] | None = None,
              done: Sequence[GameOutcome] = (),
              faults: dict[int, str] | None = None) -> list[GameOutcome]:
    """Play every game on `backend` (default: `workers` local processes); outcomes in game order.

    `done` are outcomes already recorded (a resumed run): those games are not played again.
    Ctrl-C raises backends.Interrupted holding the outcomes finished so far.
    """
    check_seats(specs)
    return play_games(specs, backend or LocalBackend(workers), progress, on_result, done, faults)
