"""A seat at a server's game: the local engine applies only what the server played, in its
order, and a command goes out only when the player may make it."""

from __future__ import annotations

import random

from game.commands import EndTurn
from game.session.remote import Mirror
from tests.helpers import OUTPOST, load_engine


class FakeLink:
    """What the server would say, queued by the test; what the client sent, kept."""

    def __init__(self) -> None:
        self.said: list[dict] = []
        self.sent: list = []

    def send(self, command) -> None:
        self.sent.append(command)

    def poll(self) -> list[dict]:
        said, self.said = self.said, []
        return said

    def close(self) -> None:
        pass


def server_game(commands: int):
    """A game the 'server' played: its commands as `played` messages."""
    engine = load_engine(OUTPOST, seed=2)
    rng = random.Random(2)
    said = []
    for n in range(1, commands + 1):
        side = engine.side
        command = rng.choice(engine.legal_actions())
        engine.apply(command)
        said.append({"type": "played", "n": n, "side": side, "id": f"x{n}",
                     "command": command.to_json(), "events": [], "to_play": engine.side})
    return engine, said


def test_the_mirror_applies_the_servers_commands_once_each_in_order():
    server, said = server_game(12)
    link = FakeLink()
    mirror = Mirror(load_engine(OUTPOST, seed=2), "blue", link)
    link.said = said[:5] + said[3:]  # a reconnect's catch-up repeats some
    update = mirror.pull(limit=None)
    assert len(update.entries) == 12 and update.lines
    assert mirror.engine.world.state_key() == server.world.state_key()


def test_a_window_takes_the_other_seats_commands_one_at_a_time():
    _server, said = server_game(3)
    link = FakeLink()
    mirror = Mirror(load_engine(OUTPOST, seed=2), "blue", link)
    link.said = said
    assert [len(mirror.pull().entries) for _ in range(4)] == [1, 1, 1, 0]


def test_a_command_goes_to_the_server_and_waits_for_its_broadcast():
    link = FakeLink()
    engine = load_engine(OUTPOST, seed=2)
    mirror = Mirror(engine, "red", link)
    assert mirror.my_turn
    assert mirror.send(EndTurn()) is None
    assert link.sent == [EndTurn()] and len(engine.history) == 0  # not applied before the server
    assert not mirror.my_turn
    assert mirror.send(EndTurn()) == "Waiting for the server to answer the last command."
    link.said = [{"type": "accepted", "id": "a", "n": 1},
                 {"type": "played", "n": 1, "side": "red", "id": "a",
                  "command": EndTurn().to_json(), "events": [], "to_play": "blue"}]
    mirror.pull()
    assert len(engine.history) == 1 and mirror.pending is None
    assert mirror.send(EndTurn()) == "It is blue's turn: wait for their move."


def test_an_illegal_command_is_refused_here_with_the_engines_reason_and_never_sent():
    link = FakeLink()
    engine = load_engine(OUTPOST, seed=2)
    mirror = Mirror(engine, "red", link)
    hero = next(c.unit for c in engine.legal_actions() if hasattr(c, "unit"))
    from game.commands import Move

    why = mirror.send(Move(hero, 0, 0))
    assert why and link.sent == []


def test_a_refusal_frees_the_seat_and_says_why():
    link = FakeLink()
    mirror = Mirror(load_engine(OUTPOST, seed=2), "red", link)
    mirror.send(EndTurn())
    link.said = [{"type": "refused", "id": "a", "reason": "the game moved on"}]
    assert mirror.pull().notice == "the game moved on"
    assert mirror.my_turn


def test_a_resignation_ends_the_game_with_its_sentence():
    link = FakeLink()
    mirror = Mirror(load_engine(OUTPOST, seed=2), "red", link)
    link.said = [{"type": "ended", "game": "g", "result": {
        "winner": "red", "reason": "blue forfeits: resigned",
        "forfeit": {"side": "blue", "seat": "online", "reason": "resigned"}}}]
    notice = mirror.pull().notice
    assert mirror.over and not mirror.my_turn
    assert notice == "blue forfeits: resigned."
