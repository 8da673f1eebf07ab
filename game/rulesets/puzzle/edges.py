"""The puzzle's edges (RulesetSpec): steps and waits as action numbers, the board's things and
words as planes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.encoding.actions import StepEncoding
from game.encoding.planes import board_planes, rule_planes

if TYPE_CHECKING:
    from game.engine import Engine


def encoding(engine: Engine) -> StepEncoding:
    return StepEncoding(wait=True)


def planes() -> tuple[str, ...]:
    return (*board_planes(), *rule_planes())
