"""Whole Keke level sets solved one level at a time, every solution re-verified by replaying
it on a fresh engine (what `solve --keke` and the bench's keke.solved count)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from game.commands import Command, Step, Wait
from game.engine import Engine
from game.errors import UserError
from game.registry import PLAYER
from game.rulesets.puzzle.keke import KekeLevel, level_map, read_set
from systems.ai.solver import moves_text, solve


def commands_of(moves: str) -> list[Command]:
    return [Wait() if m == "s" else Step(m) for m in moves.lower() if m in "udlrs"]


def replay_wins(path: Path, level: KekeLevel, moves: str) -> tuple[bool, str]:
    """Play `moves` on a fresh engine: (won?, how it ended)."""
    engine = Engine.from_game_map(level_map(path, level))
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


def solve_levels(path: Path, budget: float, method: str = "auto",
                 workers: int = 1, only: list[str] | None = None) -> Iterator[dict[str, Any]]:
    """Solve each level of a Keke set in turn (or the levels `only` names), re-verifying every
    solution on a fresh engine: one row per level (the table of `solve --keke`, and the bench's
    keke.solved). The set is read (and a broken one refused) before the first level is solved."""
    levels = chosen(path, read_set(path), only)

    def rows() -> Iterator[dict[str, Any]]:
        for level in levels:
            engine = Engine.from_game_map(level_map(path, level))
            solution = solve(engine, budget, method, workers=workers)
            moves = moves_text(solution.commands)
            yield {"id": level.id,
                   "solved": solution.solved and replay_wins(path, level, moves)[0],
                   "length": solution.length, "stored_length": len(level.solution),
                   "states": solution.states, "seconds": round(solution.seconds, 2),
                   "method": solution.method if solution.solved else "", "moves": moves,
                   "unsolvable": solution.exhausted}

    return rows()


def chosen(path: Path, levels: list[Any], only: list[str] | None) -> list[Any]:
    """The levels whose ids `only` names, in the set's order (all of them when it is None)."""
    if only is None:
        return levels
    known = {level.id for level in levels}
    missing = [level_id for level_id in only if level_id not in known]
    if missing:
        raise UserError(f"{path}: has no level '{missing[0]}'; its ids run "
                        f"{levels[0].id}..{levels[-1].id}.")
    return [level for level in levels if level.id in only]
