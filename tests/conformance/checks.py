"""The conformance checks: what every ruleset must do, whatever its game.

Each check takes one example level of one ruleset (a `Case`) and plays it through the Engine
only, the way the front ends and the AIs do. test_rulesets.py runs each check on every
registered ruleset's examples; test_a_fifth_ruleset.py runs them on a ruleset registered by
the test itself. The two property checks at the end take hypothesis' choices as arguments.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

from game import registry
from game.commands import Command
from game.engine import Engine, Impossible
from game.levels.loader import FileKind, recognise
from game.session.match import make_seats
from game.session.replay import read_record, rebuild
from game.session.saves import save_game
from tests.conformance.cases import Case, Sing, command_candidates
from tests.helpers import random_playout, undo_all

LONGEST_GAME = 2000  # actions: every shipped skirmish map ends its random games well before
PLIES = (0, 10, 40)  # positions along a playout where every legal action is tried

Check = Callable[[Case, Path], None]


def picture(engine: Engine) -> tuple[dict[str, Any], Hashable]:
    """The world's snapshot (components, cells, resources, RNG) and the ruleset's state key."""
    return engine.world.snapshot(), engine.ruleset.state_key(engine.world)


def along_a_playout(engine: Engine, rng: random.Random,
                    plies: tuple[int, ...] = PLIES) -> Iterator[int]:
    """Play seeded random commands, pausing at each of `plies` the game reaches."""
    played = 0
    for ply in plies:
        played += len(random_playout(engine, rng, ply - played))
        if played < ply:
            return
        yield ply


# -- the checks, one example at a time ----------------------------------------------------------

def satisfies_the_protocol(case: Case, tmp_path: Path) -> None:
    """The loader reads the example as a level of this ruleset, built by the spec's factory,
    and the ruleset answers every question of the `Ruleset` protocol."""
    assert recognise(case.source) is FileKind.LEVEL
    engine = case.load()
    rules = engine.ruleset
    assert isinstance(rules, registry.Ruleset)
    assert isinstance(rules, registry.load_object(case.spec.factory))
    assert rules.name == case.spec.name
    assert isinstance(rules.sides, tuple) and rules.sides
    assert all(isinstance(side, str) for side in rules.sides)
    assert engine.side in rules.sides
    assert engine.outcome is None, "an example must not be over before it starts"
    actions = engine.legal_actions()
    assert actions and all(isinstance(a, Command) for a in actions)


def plays_the_same_game_from_the_same_seed(case: Case, tmp_path: Path) -> None:
    """Two random playouts from the same world seed and the same rng seed are the same game:
    the same commands and, at the end, the same world."""
    games = []
    for _ in range(2):
        engine = case.load()
        commands = random_playout(engine, random.Random(case.id), 200)
        games.append((commands, *picture(engine)))
    assert games[0][0], "the playout played nothing"
    assert games[0] == games[1]


def offers_legal_actions_until_the_game_is_over(case: Case, tmp_path: Path) -> None:
    """While the game goes on there is always a legal action, each one accepted as legal;
    once it is over there is none, and any command is refused."""
    for seed in range(3):
        engine = case.load(seed)
        rng = random.Random(seed)
        for played in range(LONGEST_GAME):
            if engine.over:
                break
            actions = engine.legal_actions()
            assert actions, (f"{case.id}, seed {seed}: no legal action after {played} commands, "
                             f"but the game is not over ({engine.ruleset.describe(engine.world)})")
            command = rng.choice(actions)
            assert engine.why_illegal(command) is None, command
            assert engine.submit(command).ok, command
        if engine.over:
            assert engine.legal_actions() == []
            last = engine.history[-1].command
            assert not engine.submit(last).ok


def applies_and_undoes_every_legal_action_exactly(case: Case, tmp_path: Path) -> None:
    """In positions along a playout, every legal action applied then retracted, and submitted
    then undone, gives back the very same world and state key; redo gives the same world the
    action gave the first time."""
    engine = case.load()
    for ply in along_a_playout(engine, random.Random(case.id)):
        before, key = picture(engine)
        depth = len(engine.history)
        for action in engine.legal_actions():
            where = f"{case.id}, ply {ply}, {action}"
            assert engine.why_illegal(action) is None, where
            engine.apply(action)
            after = engine.world.snapshot()
            assert engine.retract() == action
            assert picture(engine) == (before, key), f"{where}: apply then retract"
            assert engine.submit(action).ok, where
            assert engine.world.snapshot() == after, f"{where}: submit differs from apply"
            assert engine.undo() == action
            assert picture(engine) == (before, key), f"{where}: submit then undo"
            assert engine.redo() is not None, where
            assert engine.world.snapshot() == after, f"{where}: redo"
            engine.retract()
            assert engine.world.snapshot() == before, f"{where}: redo then retract"
            assert len(engine.history) == depth


def passes_back_through_every_world_when_a_game_is_undone(case: Case, tmp_path: Path) -> None:
    """A random game of up to 400 commands, undone one command at a time, passes back through
    every world it went through, to the last field, cell and RNG state."""
    engine = case.load()
    rng = random.Random(case.example)
    seen = []
    for _ in range(400):
        actions = engine.legal_actions()
        if not actions:
            break
        seen.append(picture(engine))
        command = rng.choice(actions)
        assert engine.why_illegal(command) is None
        assert engine.submit(command).ok
    assert seen, "the game played nothing"
    while seen:
        engine.undo()
        assert picture(engine) == seen.pop(), f"{case.id}: undo to ply {len(seen)}"
    assert not engine.history


def reapplies_recorded_commands_exactly(case: Case, tmp_path: Path) -> None:
    """Commands recorded as applied (`Engine.recording`), retracted and reapplied, give the very
    world, state key, journal and history that applying them gave; reapplied on another
    state they are refused and change nothing (a search returning to a line it has played).
    A command that wrote nothing leaves the state the recording was made on."""
    engine = case.load()
    rng = random.Random(case.id)
    for ply in along_a_playout(engine, random.Random(case.id)):
        before, depth = picture(engine), len(engine.history)
        for _ in range(30):  # the last offered action one time in three: turns end too
            actions = engine.legal_actions()
            if not actions:
                break
            engine.apply(actions[-1] if rng.random() < 1 / 3 else rng.choice(actions))
        if len(engine.history) == depth:
            continue
        after, journal = picture(engine), engine.world.changes_since(0)
        history = list(engine.history)
        recording = engine.recording(depth)
        undo_to(engine, depth)
        assert picture(engine) == before, f"{case.id}, ply {ply}: retracted"
        assert engine.reapply(recording), f"{case.id}, ply {ply}"
        assert picture(engine) == after, f"{case.id}, ply {ply}: reapplied"
        assert engine.history == history
        assert all(a is b for a, b in zip(engine.world.changes_since(0), journal, strict=True))
        assert engine.legal_actions() == engine.ruleset.legal_actions(engine.world) or \
            engine.over
        undo_to(engine, depth)
        assert picture(engine) == before, f"{case.id}, ply {ply}: reapplied then retracted"
        mark = engine.world.mark()
        for other in engine.legal_actions():
            engine.apply(other)
            if engine.world.mark() == mark:  # wrote nothing: the recording still fits
                engine.retract()
                continue
            elsewhere = picture(engine)
            assert not engine.reapply(recording), f"{case.id}, ply {ply}: after {other}"
            assert picture(engine) == elsewhere and len(engine.history) == depth + 1
            engine.retract()
            break


def undo_to(engine: Engine, depth: int) -> None:
    while len(engine.history) > depth:
        engine.retract()


def refuses_illegal_commands_without_changing_the_world(case: Case, tmp_path: Path) -> None:
    """Commands the ruleset says are illegal (unknown units and heaps, bad directions, command
    types it does not take) are refused by submit with a sentence, and the world, the history
    and the redo stack stay exactly as they were."""
    engine = case.load()
    for ply in along_a_playout(engine, random.Random(case.id), (0, 10)):
        refused = [c for c in command_candidates(ply) if engine.why_illegal(c) is not None]
        assert refused, f"{case.id}: every candidate command is legal at ply {ply}"
        assert Sing() in refused, "a command of a type nobody takes must be refused"
        before = picture(engine)
        history, redo = list(engine.history), list(engine.redo_stack)
        for command in refused:
            result = engine.submit(command)
            assert isinstance(result, Impossible) and not result.ok, command
            assert isinstance(result.reason, str) and result.reason.strip(), command
            assert picture(engine) == before, f"{case.id}: {command} changed the world"
            assert engine.history == history and engine.redo_stack == redo


def round_trips_a_save(case: Case, tmp_path: Path) -> None:
    """A game saved after some moves (two of them undone, so there is something to redo) reads
    back and rebuilds into the same world, history and redo stack."""
    seed = 7
    engine = case.load(seed)
    played = random_playout(engine, random.Random(seed), 12)
    assert played, "the playout played nothing"
    for _ in range(min(2, len(played))):
        engine.undo()
    seats = make_seats(engine, {}, seed)
    path = tmp_path / "save.json"
    save_game(path, engine, seats, seed)
    record = read_record(path)
    assert record.ruleset == case.spec.name and record.seed == seed
    assert record.commands == engine.commands() and record.redo == engine.redo_stack
    assert set(record.rng_states) == set(engine.ruleset.sides)
    rebuilt = rebuild(record, path)
    assert picture(rebuilt) == picture(engine)
    assert rebuilt.commands() == engine.commands()
    assert rebuilt.redo_stack == engine.redo_stack


def describes_itself_in_text_and_json(case: Case, tmp_path: Path) -> None:
    """At the start, along a game and at its end, the text board, status lines, one-line
    description, every legal action in words and the JSON report all come back as the right
    types (the report as data json.dumps can write)."""
    engine = case.load()
    rng = random.Random(case.id)
    for _ in along_a_playout(engine, rng, (0, 10)):
        _describe(engine)
    random_playout(engine, rng, LONGEST_GAME)  # on to the end of the game, where there is one
    _describe(engine)


def _describe(engine: Engine) -> None:
    rules, world = engine.ruleset, engine.world
    board = rules.text_board(world)
    assert isinstance(board, str) and board.strip()
    lines = rules.status_lines(world)
    assert isinstance(lines, list) and all(isinstance(line, str) for line in lines)
    status = rules.describe(world)
    assert isinstance(status, str) and status.strip()
    for action in engine.legal_actions():
        words = rules.describe_command(world, action)
        assert isinstance(words, str) and words.strip(), action
    report = rules.report(world)
    assert isinstance(report, dict)
    json.dumps(report)


PER_EXAMPLE: list[Check] = [
    satisfies_the_protocol,
    plays_the_same_game_from_the_same_seed,
    offers_legal_actions_until_the_game_is_over,
    applies_and_undoes_every_legal_action_exactly,
    passes_back_through_every_world_when_a_game_is_undone,
    reapplies_recorded_commands_exactly,
    refuses_illegal_commands_without_changing_the_world,
    round_trips_a_save,
    describes_itself_in_text_and_json,
]


# -- properties (hypothesis draws the arguments) ------------------------------------------------

def undo_and_redo_in_any_order_restore_the_world(case: Case, choices: list[int],
                                                 undo_points: list[int]) -> None:
    """Any sequence of legal commands (`choices` pick among the legal ones), with an undo and a
    redo wherever `undo_points` says 1, lands on the same worlds and, undone in full, restores
    the start exactly."""
    engine = case.load(3)
    start = picture(engine)
    for i, choice in enumerate(choices):
        actions = engine.legal_actions()
        if not actions:
            break
        before = picture(engine)
        assert engine.submit(actions[choice % len(actions)]).ok
        if i < len(undo_points) and undo_points[i] == 1:
            after = picture(engine)
            engine.undo()
            assert picture(engine) == before
            engine.redo()
            assert picture(engine) == after
    undo_all(engine)
    assert picture(engine) == start


def an_illegal_command_never_changes_the_world(case: Case, choices: list[int]) -> None:
    """Along any sequence of legal commands, every candidate command the ruleset calls illegal
    is refused and leaves the world exactly as it was."""
    engine = case.load(3)
    for choice in choices:
        actions = engine.legal_actions()
        if not actions:
            break
        assert engine.submit(actions[choice % len(actions)]).ok
        before = picture(engine)
        for bad in command_candidates(choice):
            if engine.why_illegal(bad) is not None:
                assert not engine.submit(bad).ok
                assert picture(engine) == before
