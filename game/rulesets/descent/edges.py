"""Descent's edges (RulesetSpec): four steps as action numbers (there is no wait); the
heights, the ball and the exit as planes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.encoding.actions import StepEncoding

if TYPE_CHECKING:
    from game.engine import Engine


def encoding(engine: Engine) -> StepEncoding:
    return StepEncoding(wait=False)


def planes() -> tuple[str, ...]:
    return ("height", "kind:ball", "exit")
