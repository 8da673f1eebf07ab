"""The octal ruleset: impartial take-away games on heaps of blocks, played on the engine.

Each row of touching blocks is a heap, numbered in reading order. `Take(heap, count, left)`
removes `count` blocks after the first `left` of the heap, which leaves 0, 1 or 2 heaps as the
game's octal code allows. Normal play: the side that cannot move loses; misere: it wins.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from components import Kind, Position, Turn
from components.resources import SIZE_KEY, TURN_KEY
from game.commands import Command, Take
from game.data import SIDES, palette
from game.errors import UserError
from game.events import Destroyed, Event, Took, Won
from game.grundy.codes import OctalGame, parse_code
from game.levels.maps import GameMap
from game.registry import Ruleset
from game.rulesets.sides import SidesRuleset
from game.world import World

PREFIX = "octal:"


class Heap:
    """A run of touching blocks in one row: its row, first column and block ids, left to right."""

    __slots__ = ("blocks", "x", "y")

    def __init__(self, y: int, x: int, blocks: list[int]) -> None:
        self.y, self.x, self.blocks = y, x, blocks

    @property
    def size(self) -> int:
        return len(self.blocks)


def heaps_of(world: World) -> list[Heap]:
    """The heaps on the board in reading order."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for entity, (pos, kind) in world.query(Position, Kind):
        if kind.name == "block":
            rows.setdefault(pos.y, []).append((pos.x, entity))
    heaps = []
    for y in sorted(rows):
        current: Heap | None = None
        for x, entity in sorted(rows[y]):
            if current is not None and x == current.x + current.size:
                current.blocks.append(entity)
            else:
                current = Heap(y, x, [entity])
                heaps.append(current)
    return heaps


def moves_for(game: OctalGame, size: int) -> list[tuple[int, int]]:
    """(count, left) for every way the code allows a move on a heap of `size`."""
    moves = []
    top = size if game.nim else min(size, len(game.digits))
    for count in range(1, top + 1):
        digit = 3 if game.nim else game.digits[count - 1]
        rest = size - count
        if digit & 1 and rest == 0:
            moves.append((count, 0))
        if digit & 2 and rest >= 1:
            moves.append((count, rest))
        if digit & 4 and rest >= 2:
            moves += [(count, left) for left in range(1, rest // 2 + 1)]
    return moves


class Octal(SidesRuleset, Ruleset):
    name = "octal"
    sides = SIDES

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.game = parse_code(str(config.get("code", "0.137")))
        misere = config.get("misere", False)
        if not isinstance(misere, bool):
            raise UserError(f"octal ruleset: 'misere' must be true or false, not {misere!r}.")
        self.misere = misere

    def setup(self, world: World, game_map: GameMap) -> None:
        world.set_resource(SIZE_KEY, (game_map.width, game_map.height))
        for x, y, entry in game_map.cells:
            if entry.kind != "block":
                raise UserError(f"{game_map.path}: pixel ({x}, {y}) is '{entry.name}'; octal "
                                "maps hold only blocks (each row of touching blocks is a heap).")
            world.spawn(Position(x, y), Kind("block"))
        self.start_turns(world)
        if not self._moves(world):
            raise UserError(f"{game_map.path}: no move is possible from the start under "
                            f"{self.game.code}; add blocks.")

    def describe(self, world: World) -> str:
        sizes = " ".join(str(h.size) for h in heaps_of(world))
        play = "misere" if self.misere else "normal play"
        turn = self.turn(world)
        head = f"{self.game.code} ({play}), heaps {sizes or '-'}"
        return f"{head}: {turn.winner} - {turn.reason}" if turn.over else f"{head}, {turn.side} to play"

    def _moves(self, world: World) -> list[Take]:
        return [Take(index, count, left)
                for index, heap in enumerate(heaps_of(world))
                for count, left in moves_for(self.game, heap.size)]

    def text_board(self, world: World) -> str:
        """One line per heap: its number, its blocks and its size."""
        return "\n".join(f"{index:>2}: {'=' * heap.size} ({heap.size})"
                         for index, heap in enumerate(heaps_of(world))) or "(no heaps left)"

    def status_lines(self, world: World) -> list[str]:
        play = "misere: who takes the last block loses" if self.misere else \
            "normal play: who takes the last block wins"
        return [f"{self.game.code}, {play}"]

    def describe_command(self, world: World, command: Command) -> str:
        heaps = heaps_of(world)
        if not isinstance(command, Take) or not 0 <= command.heap < len(heaps):
            return str(command.to_json())
        size = heaps[command.heap].size
        leaving = _leaving(command.left, size - command.count - command.left)
        return f"take {command.count} from heap {command.heap} (of {size}), leaving {leaving}"

    def state_key(self, world: World) -> Hashable:
        turn = self.turn(world)
        return (tuple(heap_sizes(world)), turn.side, turn.over)

    def report(self, world: World) -> dict[str, Any]:
        turn = self.turn(world)
        return {"code": self.game.code, "misere": self.misere, "heaps": heap_sizes(world),
                "side": turn.side, "round": turn.round}

    def legal_actions(self, world: World) -> list[Command]:
        return list(self._moves(world))

    def why_illegal(self, world: World, command: Command) -> str | None:
        if not isinstance(command, Take):
            return f"{type(command).__name__} is not a move of an octal game; use Take."
        heaps = heaps_of(world)
        if not 0 <= command.heap < len(heaps):
            return f"There is no heap {command.heap}; heaps are numbered 0 to {len(heaps) - 1}."
        size = heaps[command.heap].size
        left, right = command.left, size - command.count - command.left
        if command.count < 1 or left < 0 or right < 0:
            return f"Heap {command.heap} has {size} blocks: cannot take {command.count} after {left}."
        parts = [n for n in (left, right) if n]
        if (command.count, min(parts, default=0)) not in moves_for(self.game, size):
            return (f"{self.game.code} does not allow taking {command.count} from a heap of "
                    f"{size} leaving {_leaving(left, right)}.")
        return None

    def perform(self, world: World, command: Command) -> list[Event]:
        assert isinstance(command, Take)
        heap = heaps_of(world)[command.heap]
        taken = heap.blocks[command.left:command.left + command.count]
        events: list[Event] = []
        for entity in taken:
            world.destroy(entity)
            events.append(Destroyed(entity, "block", "taken"))
        turn_entity = world.resource(TURN_KEY)
        turn = world.get(turn_entity, Turn)
        mover = turn.side
        right = heap.size - command.count - command.left
        events.insert(0, Took(mover, command.heap, command.count, command.left, right))
        nxt = self.next_side(mover)
        world.update(turn_entity, Turn, side=nxt, round=turn.round + (nxt == self.sides[0]))
        if not self._moves(world):
            winner = nxt if self.misere else mover
            reason = (f"{nxt} cannot move" + (" and wins at misere" if self.misere else ""))
            world.update(turn_entity, Turn, over=True, winner=winner, reason=reason)
            events.append(Won(winner, reason))
        return events


def _leaving(left: int, right: int) -> str:
    parts = [str(n) for n in (left, right) if n]
    return " and ".join(parts) if parts else "nothing"


def heap_sizes(world: World) -> list[int]:
    return [heap.size for heap in heaps_of(world)]


def spec_map(code: str, heaps: list[int], misere: bool = False) -> GameMap:
    """A map in memory for `play --octal CODE --heaps 7,9,12`: one heap per row."""
    game = parse_code(code)
    if not heaps or any(n < 1 or n > 128 for n in heaps) or len(heaps) > 128:
        raise UserError("--heaps takes 1 to 128 heap sizes from 1 to 128, e.g. --heaps 7,9,12.")
    block = next(e for e in palette().values() if e.kind == "block")
    cells = [(x, y, block) for y, size in enumerate(heaps) for x in range(size)]
    spec = f"{PREFIX}{game.code}:{','.join(map(str, heaps))}" + (":misere" if misere else "")
    return GameMap(Path(spec), max(heaps), len(heaps), cells,
                   {"name": f"{game.code} on heaps {','.join(map(str, heaps))}"
                            + (" (misere)" if misere else ""),
                    "ruleset": "octal", "code": game.code, "misere": misere},
                   hashlib.sha256(spec.encode()).hexdigest())


def parse_heaps(text: str) -> list[int]:
    """'7,9,12' (or '7 9 12') -> [7, 9, 12], or a UserError saying how heaps are written."""
    try:
        return [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise UserError(f"--heaps {text!r} must be heap sizes separated by commas, "
                        "e.g. --heaps 7,9,12.") from None


def parse_spec(spec: str) -> GameMap:
    """The inverse of spec_map's path, so replays of generated positions rebuild them."""
    parts = spec[len(PREFIX):].split(":")
    try:
        code, sizes = parts[0], parse_heaps(parts[1])
    except (IndexError, UserError):
        raise UserError(f"'{spec}' is not an octal position (octal:CODE:HEAPS[:misere]).") from None
    if parts[2:] not in ([], ["misere"]):
        raise UserError(f"'{spec}': '{':'.join(parts[2:])}' is not a way to play; end the "
                        "position with ':misere' (lower case) or nothing for normal play.")
    return spec_map(code, sizes, misere=parts[2:] == ["misere"])
