"""Whole level sets solved one level at a time, every solution re-verified by replaying it on
a fresh engine (what `solve --keke` and the bench's keke.solved count). A level is anything
with an `id`, the stored `solution` (moves as letters u d l r, s to wait) and `game_map()`;
the set's reader (game/rulesets/puzzle/sets.py for Keke sets) makes them, so nothing here
names a ruleset."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from game.commands import Command, Step, Wait
from game.engine import Engine
from game.errors import UserError
from game.levels.maps import GameMap
from game.registry import PLAYER
from systems.ai.solver import moves_text, solve


class Level(Protocol):
    """One level of a set, as the set's reader gives it."""

    @property
    def id(self) -> str: ...

    @property
    def solution(self) -> str: ...

    def game_map(self) -> GameMap: ...


def commands_of(moves: str) -> list[Command]:
    return [Wait() if m == "s" else Step(m) for m in moves.lower() if m in "udlrs"]


def replay_wins(game_map: GameMap, moves: str) -> tuple[bool, str]:
    """Play `moves` on a fresh engine: (won?, how it ended)."""
    engine = Engine.from_game_map(game_map)
    played = 0
    for command in commands_of(moves):
        if engine.over:
            break
        engine.submit(command)
        played += 1
    outcome = engine.outcome
    if outcome is None:
        return False, f"still playing after all {played} moves"
    if outcome.winner == PLAYER:
        extra = "" if played == len(commands_of(moves)) else f" after {played} moves"
        return True, "won" + extra
    return False, f"lost at move {played} (nothing IS YOU)"


def solve_levels(levels: Sequence[Level], budget: float, method: str = "auto",
                 workers: int = 1, max_states: int | None = None) -> Iterator[dict[str, Any]]:
    """Solve each level in turn (within `budget` seconds, and `max_states` states when
    given), re-verifying every solution on a fresh engine: one row per level (the table of
    `solve --keke`, and the bench's keke.solved)."""
    for level in levels:
        engine = Engine.from_game_map(level.game_map())
        solution = solve(engine, budget, method, max_states, workers)
        moves = moves_text(solution.commands)
        yield {"id": level.id,
               "solved": solution.solved and replay_wins(level.game_map(), moves)[0],
               "length": solution.length, "stored_length": len(level.solution),
               "states": solution.states, "seconds": round(solution.seconds, 2),
               "method": solution.method if solution.solved else "", "moves": moves,
               "unsolvable": solution.exhausted}


def chosen(path: Any, levels: Sequence[Level], only: list[str] | None) -> list[Level]:
    """The levels whose ids `only` names, in the set's order (all of them when it is None)."""
    if only is None:
        return list(levels)
    known = {level.id for level in levels}
    missing = [level_id for level_id in only if level_id not in known]
    if missing:
        raise UserError(f"{path}: has no level '{missing[0]}'; its ids run "
                        f"{levels[0].id}..{levels[-1].id}.")
    return [level for level in levels if level.id in only]
