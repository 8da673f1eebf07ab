"""Commands: the JSON form they travel in through replays and saves, and what is refused."""

from __future__ import annotations

from game.commands import EndTurn, Move, from_json
from game.errors import UserError


def test_commands_round_trip_through_json():
    for command in [Move(3, 4, 5), EndTurn()]:
        assert from_json(command.to_json()) == command


def test_malformed_commands_are_user_errors():
    for raw in [{"type": "Fly"}, {"type": "Move", "unit": 1}, [], {"unit": 3}]:
        try:
            from_json(raw)
        except UserError:
            continue
        raise AssertionError(f"{raw} was accepted")
