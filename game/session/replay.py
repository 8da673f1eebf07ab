"""Replays and saves: one JSON format that re-simulates a game from its map, seed and commands.

A replay records the map (path and sha256), ruleset, seed, seats, commands and result. A save
is the same with the redo stack and each seat's RNG state, so `--resume` continues exactly,
and the log as it was told (game.session.narrate.Told, one per command).
Files are written atomically; a broken or mismatched file is refused whole.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.commands import Command, from_json
from game.data import load_json
from game.engine import Engine, Impossible
from game.errors import UserError
from game.levels.files import atomic_write
from game.levels.loader import described, load_game_map

FORMAT = 1  # game.schemas.REPLAY_FORMAT; kept here for the writers


@dataclass
class Record:
    map_path: str
    sha256: str
    ruleset: str
    seed: int
    seats: dict[str, str]
    commands: list[Command]
    result: dict[str, Any] | None = None
    redo: list[Command] = field(default_factory=list)
    rng_states: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)  # saves: what each command told

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "map": self.map_path,
            "sha256": self.sha256,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "seats": self.seats,
            "commands": [c.to_json() for c in self.commands],
            "result": self.result,
        }
        if self.redo:
            data["redo"] = [c.to_json() for c in self.redo]
        if self.rng_states:
            data["rng_states"] = self.rng_states
        if self.log:
            data["log"] = self.log
        data.update(self.extra)
        return data


def record_of(engine: Engine, seed: int, seats: dict[str, str],
              forfeit: dict[str, str] | None = None, winner: str | None = None) -> Record:
    """The replay of the game on `engine`; a match a seat forfeited records `forfeit` (its
    side, seat and reason) and the `winner` the forfeit gave."""
    game_map = engine.map
    assert game_map is not None, "only games loaded from a map can be recorded"
    outcome = engine.outcome
    result: dict[str, Any] | None = None
    if forfeit is not None:
        result = {"winner": winner, "reason": f"{forfeit['side']} forfeits: {forfeit['reason']}",
                  "commands": len(engine.history), "forfeit": forfeit}
    elif outcome is not None:
        result = {"winner": outcome[0], "reason": outcome[1], "commands": len(engine.history)}
    return Record(portable_path(game_map.path), game_map.sha256, engine.ruleset.name, seed,
                  dict(seats), engine.commands(), result, list(engine.redo_stack))


def portable_path(path: Path) -> str:
    """The map path relative to the working folder when it lies below it, else absolute."""
    if described(path) is not None:
        return str(path)
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(Path.cwd().resolve()))
    except ValueError:  # outside the working folder: '../..' would depend on where it is read
        return str(resolved)


def record_text(record: Record) -> str:
    """The replay file's text, exactly as write_record writes it."""
    return json.dumps(record.to_json(), indent=1) + "\n"


def write_record(path: str | Path, record: Record) -> None:
    atomic_write(Path(path), record_text(record).encode())


def read_record(path: str | Path) -> Record:
    """A replay, save or solution checked against game.schemas.ReplayFile, or a UserError; a
    file of another format number (older, newer or foreign) is refused, never half-read."""
    from game.schemas import REPLAY_FORMAT, ReplayFile, validate

    path = Path(path)
    raw = load_json(path, "replay or save")
    if not isinstance(raw, dict) or "format" not in raw:
        raise UserError(f"{path}: is not a Rulefront replay (a JSON object with \"format\": "
                        f"{REPLAY_FORMAT}).")
    if raw["format"] != REPLAY_FORMAT or isinstance(raw["format"], bool):
        raise UserError(f"{path}: has format {raw['format']!r}; this Rulefront reads replays "
                        f"and saves of format {REPLAY_FORMAT} (record it again).")
    checked: ReplayFile = validate(raw, ReplayFile, path)
    try:
        record = Record(
            map_path=checked.map, sha256=checked.sha256, ruleset=checked.ruleset,
            seed=checked.seed, seats=dict(checked.seats),
            commands=[from_json(c) for c in checked.commands], result=raw.get("result"),
            redo=[from_json(c) for c in checked.redo],
            rng_states=dict(raw.get("rng_states", {})),
            log=[{"round": e.round, "side": e.side, "lines": list(e.lines)}
                 for e in checked.log],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise UserError(f"{path}: has a broken command ({exc}).") from None
    except UserError as exc:
        raise UserError(f"{path}: {exc}") from None
    known = {"format", "map", "sha256", "ruleset", "seed", "seats", "commands", "result", "redo",
             "rng_states", "log"}
    record.extra = {k: v for k, v in raw.items() if k not in known}
    return record


def rebuild(record: Record, source: str | Path = "replay") -> Engine:
    """Re-simulate a record on its map: the map must be unchanged and every command legal."""
    map_path = record.map_path
    try:
        game_map = load_game_map(map_path, record.extra.get("level"))
    except UserError as exc:  # name the replay too: its map is the one thing a user must find
        raise UserError(f"{source}: cannot open the map it was recorded on: "
                        f"{str(exc).rstrip('.')}.") from None
    if game_map.sha256 != record.sha256:
        raise UserError(f"{source}: the map {map_path} has changed since it was recorded "
                        "(sha256 differs); restore that map to replay it.")
    try:
        engine = Engine.from_game_map(game_map, seed=record.seed, ruleset=record.ruleset)
    except UserError as exc:
        raise UserError(f"{source}: {str(exc).rstrip('.')}.") from None
    for index, command in enumerate(record.commands):
        result = engine.submit(command)
        if isinstance(result, Impossible):
            raise UserError(f"{source}: command {index + 1} ({command.to_json()}) is illegal "
                            f"here: {result.reason}")
    check_redo(engine, record.redo, source)
    return engine


def check_redo(engine: Engine, redo: list[Command], source: str | Path = "save") -> None:
    """Give the engine a save's redo stack only if every redo is legal where `r` would play
    it: each is checked as a command is (`why_illegal`), applied, and all are taken back, so
    the world is exactly as the commands left it. A redo naming a cell out of reach or a unit
    that is not there refuses the whole save, instead of a unit teleporting (or a traceback)
    on `r` and an autosave that no longer loads."""
    done = 0
    try:
        for command in reversed(redo):  # the stack's top is redone first
            reason = engine.why_illegal(command)
            if reason is not None:
                raise UserError(f"{source}: redo {done + 1} ({command.to_json()}) is illegal "
                                f"after its commands: {reason.rstrip('.')}; the save is "
                                "refused whole (start a new game, or remove its \"redo\" "
                                "list to keep the moves played).")
            engine.apply(command)
            done += 1
    finally:
        for _ in range(done):
            engine.retract()
    engine.redo_stack = list(redo)


def verify(record: Record, source: str | Path = "replay") -> dict[str, Any]:
    """Re-simulate and compare with the recorded result."""
    engine = rebuild(record, source)
    outcome = engine.outcome
    replayed: dict[str, Any] | None = None
    if outcome is not None:
        replayed = {"winner": outcome[0], "reason": outcome[1]}
    recorded = None if record.result is None else {
        "winner": record.result.get("winner"), "reason": record.result.get("reason")}
    forfeit = (record.result or {}).get("forfeit")
    if outcome is None and isinstance(forfeit, dict) and forfeit.get("side") == engine.side:
        replayed = recorded  # the game stopped where the recorded side gave up
    return {"verified": replayed == recorded, "result": replayed, "recorded": recorded,
            "commands": len(record.commands), "map": record.map_path, "seed": record.seed}
