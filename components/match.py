"""Match-wide state, held on one entity so that it is journaled like everything else."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Turn:
    """Whose go it is, which round, and how the match ended (winner '' while playing)."""

    side: str
    round: int
    winner: str = ""
    reason: str = ""
    over: bool = False
