"""The puzzle ruleset: one player, rules spelled by word tiles, everything that IS YOU moves.

A turn (Step or Wait) runs: YOU things move, MOVE things move (each phase resolving push
chains), rules are re-read if a word moved, NOUN IS NOUN transformations, then SINK, WEAK,
HOT/MELT, DEFEAT, OPEN/SHUT, and the win check. No YOU left means the level is lost; undo still
works. The board hash (systems/zobrist.py) is kept in a resource so solvers can spot repeats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from components import Facing, Kind, Position, Word
from components.resources import (
    BASE_KEY,
    HASH_KEY,
    KINDS_KEY,
    PROPS_KEY,
    RULES_KEY,
    SETTLED_KEY,
    SIZE_KEY,
    STATUS_KEY,
)
from game.commands import Command, Step, Wait
from game.data import words
from game.errors import UserError
from game.events import Event, Won
from game.registry import LOST, PLAYER, Outcome, Ruleset, SearchHooks
from game.rulesets.puzzle import guess, walks
from game.rulesets.puzzle.keke import ascii_board
from game.world import World
from systems.board import deadly_mask, grid_distances
from systems.properties import interact, players, transform, won
from systems.push import Board, index_kinds, kinds_with
from systems.rules import Prop, alone, masks_for, refresh_rules, reread_rules
from systems.zobrist import MASK, Table

if TYPE_CHECKING:
    from game.levels.maps import GameMap

DIRECTIONS = {"u": (0, -1), "d": (0, 1), "l": (-1, 0), "r": (1, 0)}
STEP_NAMES = {"u": "up", "d": "down", "l": "left", "r": "right"}
ACTIONS: tuple[Command, ...] = (Step("u"), Step("d"), Step("l"), Step("r"), Wait())
MOVE, YOU, WIN = int(Prop.MOVE), int(Prop.YOU), int(Prop.WIN)
STOP, PUSH = int(Prop.STOP), int(Prop.PUSH)


class Puzzle(Ruleset, SearchHooks):
    name = "puzzle"
    sides = (PLAYER,)

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        rules = config.get("base_rules") or []
        if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
            raise UserError("puzzle ruleset: 'base_rules' must be a list of 'NOUN IS PROPERTY'.")
        try:
            masks_for(tuple(rules))
        except ValueError as exc:
            raise UserError(f"puzzle ruleset: {exc}.") from None
        self.base_rules = tuple(rules)
        self.table = Table()
        self._codes: dict[str, int] = {}  # a thing's kind or a word's text -> its atoms' base
        self.can_move = True  # until setup has seen the level: no macro moves

    # -- setting up ------------------------------------------------------------------------

    def setup(self, world: World, game_map: GameMap) -> None:
        world.set_resource(SIZE_KEY, (game_map.width, game_map.height))
        info = words()
        for x, y, entry in game_map.cells:
            pos = Position(x, y)
            if entry.prefab == "thing":
                world.spawn(pos, Kind(entry.kind), Facing(1, 0))
            elif entry.prefab == "word":
                word = info[entry.word]
                world.spawn(pos, Kind("text"), Word(word.text, word.part), Facing(1, 0))
            else:
                raise UserError(f"{game_map.path}: cell ({x}, {y}) holds a {entry.name}; puzzle "
                                "levels hold only things and words.")
        has_move = any(w.text == "MOVE" for _e, w in world.query(Word)) or \
            any(r.endswith(" MOVE") for r in self.base_rules)
        self.table = Table(facing=has_move)
        self.can_move = has_move
        # Searches skip Wait when nothing can ever MOVE: a wait then changes nothing (bar a
        # chain of transformations, which a blocked step also advances). Players still wait.
        self.actions = ACTIONS if has_move else ACTIONS[:4]
        world.set_resource(BASE_KEY, self.base_rules)
        world.set_resource(RULES_KEY, ())
        refresh_rules(world)
        world.set_resource(STATUS_KEY, "")
        index_kinds(world)
        board = self.board(world)
        if self.config.get("transform_on_load", True):
            transform(board, world.resource(RULES_KEY))
            if board.words_moved:  # things became words (X IS TEXT), or words things
                refresh_rules(world)
        world.set_resource(HASH_KEY, sum(board.number(e) for e, _k in world.query(Kind)) & MASK)

    def board(self, world: World) -> Board:
        width, height = world.resource(SIZE_KEY)
        board = Board(world, width, height, self.table)
        board.reload()
        return board

    # -- questions -------------------------------------------------------------------------

    def side_to_play(self, world: World) -> str:
        return PLAYER

    def outcome(self, world: World) -> Outcome | None:
        status = world.resource(STATUS_KEY, "")
        if status == "won":
            return Outcome(PLAYER, "a YOU reached a WIN")
        if status == "lost":
            return Outcome(LOST, "nothing IS YOU any more")
        return None

    def describe(self, world: World) -> str:
        rules = ", ".join(world.resource(RULES_KEY, ())) or "no rules"
        return f"{world.resource(STATUS_KEY) or 'playing'}; rules: {rules}"

    def text_board(self, world: World) -> str:
        return ascii_board(world)

    def status_lines(self, world: World) -> list[str]:
        return [f"rules: {', '.join(world.resource(RULES_KEY, ())) or 'none'}"]

    def describe_command(self, world: World, command: Command) -> str:
        if isinstance(command, Step):
            return f"step {STEP_NAMES.get(command.direction, command.direction)}"
        return "wait" if isinstance(command, Wait) else str(command.to_json())

    def report(self, world: World) -> dict[str, Any]:
        """Status, rules, objects and words: what `play LEVEL --moves ... --json` prints."""
        objects = []
        texts = []
        for entity, (kind, pos) in world.query(Kind, Position):
            if kind.name == "text":
                texts.append({"text": world.get(entity, Word).text, "x": pos.x, "y": pos.y})
            else:
                objects.append({"kind": kind.name, "x": pos.x, "y": pos.y})
        key = lambda item: (item["y"], item["x"])  # noqa: E731
        return {"status": status(world), "rules": list(world.resource(RULES_KEY, ())),
                "objects": sorted(objects, key=key), "words": sorted(texts, key=key)}

    def legal_actions(self, world: World) -> list[Command]:
        return list(ACTIONS)

    def why_illegal(self, world: World, command: Command) -> str | None:
        if isinstance(command, Wait):
            return None
        if isinstance(command, Step):
            if command.direction not in DIRECTIONS:
                return f"Step direction {command.direction!r} must be one of u, d, l, r."
            return None
        return f"{type(command).__name__} is not a puzzle command; use Step or Wait."

    # -- acting ----------------------------------------------------------------------------

    def perform(self, world: World, command: Command) -> list[Event]:
        if isinstance(command, Step):
            return self.turn(world, DIRECTIONS[command.direction])
        if isinstance(command, walks.Jump):  # searches only: submit refuses it
            you = self.board(world).having(YOU)[0]
            walks.place(world, self.table, you, command.x, command.y)
            return self.turn(world, DIRECTIONS[command.direction])
        return self.turn(world, None)

    def turn(self, world: World, step: tuple[int, int] | None) -> list[Event]:
        """One full turn; `step` is the YOU things' direction, or None for Wait."""
        board = self.board(world)
        props = board.props
        if step is not None:
            dx, dy = step
            get = world.get
            movers = [(e, get(e, Position)) for e in board.having(YOU)]
            # Front-most first, so a YOU behind another YOU follows it instead of being blocked.
            movers.sort(key=lambda item: -(item[1].x * dx + item[1].y * dy))
            for entity, _pos in movers:
                if world.alive(entity):
                    board.walk(entity, dx, dy)
        if any(mask & MOVE for mask in props.values()):
            self.auto_move(board)
        events = board.events
        # Meetings are looked for only where things went this turn, unless the masks or
        # kinds changed (or no turn has run yet): then everywhere.
        everywhere = not world.resource(SETTLED_KEY)
        if board.words_moved:
            # Most pushes of a word leave it standing apart from the others: no reading then.
            changes = [] if alone(world, board.word_moves) else reread_rules(world)
            board.reload()
            board.words_moved = False
            board.word_moves.clear()
            events += changes
            everywhere = everywhere or bool(changes)
        everywhere = transform(board, world.resource(RULES_KEY)) or everywhere
        interact(board, everywhere)
        if not world.resource(SETTLED_KEY):
            world.set_resource(SETTLED_KEY, True)
        if board.words_moved:  # a destroyed word breaks its rules at once
            events += reread_rules(world)
            board.reload()
        yous = players(board)
        if not yous:
            # With a MOVE thing about, waiting can still spell a new YOU, as in the original.
            if not any(mask & MOVE for mask in board.props.values()) or not self.movers(board):
                world.set_resource(STATUS_KEY, "lost")
        elif won(board, yous):
            world.set_resource(STATUS_KEY, "won")
            events.append(Won(PLAYER, "a YOU reached a WIN"))
        if board.delta:
            world.set_resource(HASH_KEY, (world.resource(HASH_KEY) + board.delta) & MASK)
        return events

    def movers(self, board: Board) -> list[int]:
        return board.having(MOVE)

    def auto_move(self, board: Board) -> None:
        """Each MOVE thing walks its facing; blocked, it turns round and tries once more."""
        world = board.world
        for entity in self.movers(board):
            if not world.alive(entity):
                continue
            facing = world.get(entity, Facing)
            dx, dy = facing.dx, facing.dy
            if not board.walk(entity, dx, dy):
                board.turn(entity, -dx, -dy)
                board.walk(entity, -dx, -dy)

    # -- what solvers ask ------------------------------------------------------------------

    actions = ACTIONS

    def state_key(self, world: World) -> int:
        return int(world.resource(HASH_KEY, 0))

    def verdict(self, world: World) -> int:
        """1 won, -1 lost (a dead end for a search), 0 still playing."""
        status = world.resource(STATUS_KEY, "")
        return 1 if status == "won" else -1 if status == "lost" else 0

    def action_cost(self, world: World) -> int:
        """What the move just made cost (every puzzle move costs 1)."""
        return 1

    def heuristic(self, world: World) -> float:
        """A guess at the moves left, to steer greedy search (not admissible).

        With a WIN thing: YOU's walking distance to it round STOP things and round cells that
        would kill YOU (pushable things count as free). When no WIN can be reached that way, or nothing is WIN, the distance to the
        nearest WIN word (or any word) plus a penalty: a rule must change first.
        """
        props = world.resource(PROPS_KEY, {})
        index = world.resource(KINDS_KEY)
        get = world.get

        def cells(flag: int, without: int = 0) -> list[tuple[int, int]]:
            found = []
            for kind, mask in props.items():
                if mask & flag and not mask & without:
                    for entity in index.get(kind, ()):
                        pos = get(entity, Position)
                        found.append((pos.x, pos.y))
            return found

        yous, wins = cells(YOU), cells(WIN)
        if not yous:
            return 1000.0
        if wins:
            deadly = deadly_mask(props, kinds_with(props, YOU))
            stops = cells(STOP, PUSH) + cells(deadly, WIN | YOU | PUSH)
            field = self._walk_field(world, tuple(sorted(wins)), frozenset(stops))
            best = min((field.get(cell, 10_000) for cell in yous), default=10_000)
            if best < 10_000:
                return float(best)
        texts, win_words = [], []
        for entity in index.get("text", ()):
            pos = get(entity, Position)
            texts.append((pos.x, pos.y))
            if get(entity, Word).text == "WIN":
                win_words.append((pos.x, pos.y))
        goals = win_words or texts
        if not goals:
            return 100.0
        best = min(abs(x - gx) + abs(y - gy) for x, y in yous for gx, gy in goals)
        return float(best + (20 if wins else 10))

    def walk_region(self, world: World) -> walks.Region | None:
        """Where YOU can walk without changing anything else (macro moves: walks.py), or None
        when walking here could change more."""
        return walks.region(world, self.table, self.can_move)

    def walk_moves(self, world: World, area: walks.Region) -> list[tuple[Command, int]]:
        """The macro moves out of `area`, each with its cost in steps."""
        return list(walks.jumps(world, area))

    def walk_steps(self, world: World, area: walks.Region, jump: Command) -> list[Command]:
        """A macro move as the Steps a player makes."""
        assert isinstance(jump, walks.Jump)
        return walks.steps(world, area, jump)

    def fill_heuristic(self, world: World) -> float:
        """For macro searches that must clear a way: cells that would kill YOU and things to
        push cost extra steps on the walk to WIN, instead of being walls (guess.py)."""
        found = guess.through(world, -1.0)
        return found if found >= 0 else self.heuristic(world)

    def spell_heuristic(self, world: World) -> float:
        """For macro searches that must spell 'N IS WIN' first (guess.py)."""
        found = guess.through(world, -1.0)  # the other guesses only when no walk to a WIN
        return found if found >= 0 else guess.spell_win(world, self.heuristic(world))

    def chain_heuristic(self, world: World) -> float:
        """For macro searches on levels won through a transformation (a WIN kind with no
        things: guess.py's `chain_win`); the distance guess everywhere else."""
        found = guess.chain_win(world)
        return found if found >= 0 else self.heuristic(world)

    def atoms(self, world: World) -> list[Any]:
        """The facts a state is made of, for novelty search: each thing or word on its cell,
        as one number (cheap to hash: novelty search puts them in sets), and each rule in
        force."""
        found: list[Any] = list(world.resource(RULES_KEY, ()))
        codes = self._codes
        get = world.get
        for entity, (kind, pos) in world.query(Kind, Position):
            name = kind.name
            if name == "text":
                name = get(entity, Word).text
            code = codes.get(name)
            if code is None:
                code = codes[name] = (len(codes) + 1) << 20
            found.append(code | pos.y << 10 | pos.x)
        return found

    def regime(self, world: World) -> Any:
        """The rules in force: the same cell means something else under other rules."""
        return world.resource(RULES_KEY, ())

    def _walk_field(self, world: World, goals: tuple[tuple[int, int], ...],
                    stops: frozenset[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """Steps from each cell to the nearest goal, round `stops` (cached: walls rarely move)."""
        cache: dict[Any, dict[tuple[int, int], int]] | None = getattr(self, "_fields", None)
        if cache is None or len(cache) > 50_000:
            cache = {}
            self._fields = cache
        key = (goals, stops)
        field = cache.get(key)
        if field is None:
            field = grid_distances(goals, stops, *world.resource(SIZE_KEY))
            cache[key] = field
        return field


def status(world: World) -> str:
    return str(world.resource(STATUS_KEY, "") or "playing")
