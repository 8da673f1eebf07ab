"""Octal's edges (RulesetSpec): its action numbers, observation planes and adapter
parameters, read by the OpenSpiel game and the environments, which name no ruleset."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.commands import Command, Take
from game.encoding.actions import Encoding
from game.rulesets.octal.ruleset import heap_sizes, parse_heaps, spec_map

if TYPE_CHECKING:
    from game.engine import Engine
    from game.levels.maps import GameMap
    from game.world import World


class OctalEncoding(Encoding):
    """Take(heap, count, left) is heap*M*M + (count-1)*M + left, M the largest start heap;
    heaps are numbered in reading order, at most as many as the tokens at the start (a split
    adds a heap and takes a token at least)."""

    def __init__(self, sizes: list[int]) -> None:
        self.m = max(sizes, default=1)
        self.heaps = max(1, sum(sizes))
        self.size = self.heaps * self.m * self.m

    def encode(self, world: World, command: Command) -> int:
        if not isinstance(command, Take):
            raise ValueError(f"no action number for {command!r}")
        return (command.heap * self.m + command.count - 1) * self.m + command.left

    def describe(self, action: int) -> str:
        heap, rest = divmod(action, self.m * self.m)
        count, left = divmod(rest, self.m)
        return f"take {count + 1} from heap {heap} after the first {left}"


def encoding(engine: Engine) -> OctalEncoding:
    return OctalEncoding(heap_sizes(engine.world))


def planes() -> tuple[str, ...]:
    return ("kind:block", "to_play")


def from_params(params: dict[str, Any], load: Any) -> GameMap:
    """`code`, `heaps` (sizes separated by spaces or commas) and `misere`."""
    return spec_map(params["code"], parse_heaps(params["heaps"]), params["misere"])


def max_length(engine: Engine, params: dict[str, Any]) -> int:
    """Every take removes a block at least."""
    return max(1, sum(heap_sizes(engine.world)))
