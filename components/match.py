"""Match-wide state, held on one entity so that it is journaled like everything else."""

from __future__ import annotations

from dataclasses import dataclass

# Winners that are not a side of sides (red, blue), each named once.
DRAW = "draw"  # a game nobody won
PLAYER = "player"  # the one side of a one-player ruleset
LOST = "lost"  # the winner of a one-player game the player lost


@dataclass(slots=True)
class Turn:
    """Whose go it is, which round, and how the match ended (winner '' while playing)."""

    side: str
    round: int
    winner: str = ""
    reason: str = ""
    over: bool = False
