"""A seat played by an AI over the network (`rulefront online bot`): the same seat step as
every other front end (game/session/seat.py), on the Follower's replica of the game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from game.net import protocol as p
from game.net.client import Follower
from game.session.seat import Forfeited, Seat, check_needs, close_seats, seat_rng, step
from systems.ai import Budget, make_ai


async def play_seat(follower: Follower, spec: str, budget: Budget, seed: int | None = None,
                    say: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """Play `follower`'s seat with the AI `spec` until the game ends; returns its result. The
    AI thinks in a worker thread, so the connection keeps answering pings meanwhile."""
    ai = make_ai(spec)
    seats: dict[str, Seat] = {}

    async def act(follower: Follower, message: p.ServerMessage) -> None:
        engine = follower.engine
        if engine is None or not isinstance(message, p.Joined | p.Played):
            return
        if not seats:
            check_needs(engine, spec, ai)
            side = follower.seat or ""
            base = engine.seed if seed is None else seed
            seats[side] = Seat(side, spec, ai, seat_rng(base, engine.ruleset.sides.index(side)))
        if not follower.my_turn:
            return
        outcome = await asyncio.to_thread(step, seats[follower.seat or ""], engine, budget)
        if isinstance(outcome, Forfeited):
            if say is not None:
                say(outcome.sentence)
            await follower.resign(outcome.reason)
        else:
            await follower.submit(outcome.command)

    try:
        return await follower.run(act)
    finally:
        close_seats(seats)
