"""A fifth ruleset, written for the tests: one heap of tokens, two sides take one to three in
turn, and whoever takes the last token wins.

It lives here rather than in game/rulesets/ so that test_a_fifth_ruleset.py can register it
for one test and show that the conformance suite plays any ruleset that registers. Positions
are described, "counting:7" for a heap of seven.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any

from components import Kind, Position
from components.resources import SIZE_KEY
from game.commands import Command, Take
from game.encoding.actions import Encoding
from game.errors import UserError
from game.events import Destroyed, Event, Won
from game.levels.maps import GameMap
from game.registry import Capabilities, Outcome, Param, RulesetSpec
from game.world import World

PREFIX = "counting:"
SIDE = "counting.side"  # resource: the side to play
WINNER = "counting.winner"  # resource: the side that took the last token, once one has

SPEC = RulesetSpec(
    name="counting",
    factory="tests.conformance.counting:Counting",
    summary="one heap; take 1 to 3 tokens in turn; who takes the last token wins",
    prefix=PREFIX,
    prefix_reader="tests.conformance.counting:read_position",
    examples=("counting:7", "counting:2"),
    encoding="tests.conformance.counting:encoding",
    planes="tests.conformance.counting:planes",
    params=(Param("tokens", 7, "tokens on the heap at the start"),),
    from_params="tests.conformance.counting:from_params",
    max_length="tests.conformance.counting:max_length",
    capabilities=Capabilities(players=2, impartial=True),
    input_mode="heaps",  # the terminal's keys: left/right choose how many, Enter takes
    evaluator="tests.conformance.counting:Evaluation",
)


def read_position(text: str) -> GameMap:
    """'counting:7' -> a one-row map of seven tokens."""
    try:
        tokens = int(text[len(PREFIX):])
    except ValueError:
        raise UserError(f"'{text}' is not a counting position (counting:TOKENS).") from None
    if tokens < 1:
        raise UserError(f"'{text}': a heap needs at least one token.")
    return GameMap(Path(text), tokens, 1, [], {"name": text, "ruleset": "counting",
                                               "tokens": tokens},
                   hashlib.sha256(text.encode()).hexdigest())


class Counting:
    """Implements game.registry.Ruleset, and nothing else."""

    name = "counting"
    sides = ("red", "blue")

    def __init__(self, config: dict[str, Any]) -> None:
        self.most = int(config.get("most", 3))

    def setup(self, world: World, game_map: GameMap) -> None:
        for x in range(int(game_map.sidecar["tokens"])):
            world.spawn(Position(x, 0), Kind("token"))
        world.set_resource(SIZE_KEY, (game_map.width, game_map.height))  # one row, for views
        world.set_resource(SIDE, self.sides[0])

    def tokens(self, world: World) -> list[int]:
        return [entity for entity, _kind in world.query(Kind)]

    def side_to_play(self, world: World) -> str:
        return str(world.resource(SIDE))

    def legal_actions(self, world: World) -> list[Command]:
        return [Take(0, count, 0) for count in range(1, min(self.most, len(self.tokens(world))) + 1)]

    def why_illegal(self, world: World, command: Command) -> str | None:
        if not isinstance(command, Take):
            return f"{type(command).__name__} is not a counting move; use Take."
        if command.heap != 0 or command.left != 0:
            return "There is one heap, numbered 0, and tokens are taken from its end."
        if command not in self.legal_actions(world):
            return f"Take 1 to {min(self.most, len(self.tokens(world)))} tokens."
        return None

    def perform(self, world: World, command: Command) -> list[Event]:
        assert isinstance(command, Take)
        events: list[Event] = []
        for entity in self.tokens(world)[-command.count:]:
            world.destroy(entity)
            events.append(Destroyed(entity, "token", "taken"))
        mover = self.side_to_play(world)
        if self.tokens(world):
            world.set_resource(SIDE, self.sides[1 - self.sides.index(mover)])
        else:
            world.set_resource(WINNER, mover)
            events.append(Won(mover, f"{mover} took the last token"))
        return events

    def outcome(self, world: World) -> Outcome | None:
        winner = world.resource(WINNER)
        return None if winner is None else Outcome(winner, f"{winner} took the last token")

    def state_key(self, world: World) -> Hashable:
        return (len(self.tokens(world)), self.side_to_play(world), world.resource(WINNER))

    def text_board(self, world: World) -> str:
        return "o" * len(self.tokens(world)) or "(no tokens left)"

    def status_lines(self, world: World) -> list[str]:
        return [f"take 1 to {self.most}; who takes the last token wins"]

    def describe(self, world: World) -> str:
        return f"{len(self.tokens(world))} tokens, {self.side_to_play(world)} to play"

    def describe_command(self, world: World, command: Command) -> str:
        return f"take {command.count}" if isinstance(command, Take) else str(command.to_json())

    def report(self, world: World) -> dict[str, Any]:
        return {"tokens": len(self.tokens(world)), "side": self.side_to_play(world),
                "winner": world.resource(WINNER)}


# -- its edges: what the OpenSpiel game, the environments and the text client read ----------


class TakeEncoding(Encoding):
    """Taking n tokens is action n - 1."""

    size = 3

    def encode(self, world: World, command: Command) -> int:
        if not isinstance(command, Take):
            raise ValueError(f"no action number for {command!r}")
        return command.count - 1

    def describe(self, action: int) -> str:
        return f"take {action + 1}"


def encoding(engine: Any) -> TakeEncoding:
    return TakeEncoding()


def planes() -> tuple[str, ...]:
    return ("kind:token", "to_play")


def from_params(params: dict[str, Any], load: Any) -> GameMap:
    return read_position(f"{PREFIX}{params['tokens']}")


def max_length(engine: Any, params: dict[str, Any]) -> int:
    return int(params["tokens"])


class Evaluation:
    """The evaluator edge, exact: the side to move loses when the tokens left are a multiple
    of four (whatever it takes, the other side takes four minus that); a decided game is
    +-(WIN - ply)."""

    win = 1_000_000.0
    tie = 0.5
    scale = 1.0
    exact = True

    def __call__(self, engine: Any, side: str, ply: int = 0) -> float:
        outcome = engine.outcome
        if outcome is not None:
            return (self.win - ply) if outcome.winner == side else (ply - self.win)
        rules = engine.ruleset
        mover_wins = len(rules.tokens(engine.world)) % (rules.most + 1) != 0
        return 1.0 if mover_wins == (side == engine.side) else -1.0
