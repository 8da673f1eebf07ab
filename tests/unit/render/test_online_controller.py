"""The window's controller on a server's seat, without a display: clicks make the same
commands as hotseat, but they go to the link, and the board changes when the server plays
them; what belongs to a game of one's own is refused with a sentence."""

from __future__ import annotations

from components import Position
from game.commands import EndTurn, Move
from game.levels.loader import load_engine
from game.render.controllers.online import LOCAL_ONLY, OnlineController
from game.session.match import make_seats
from game.session.remote import Mirror
from tests.helpers import draw_map
from tests.unit.session.test_remote import FakeLink

ROWS = ["D.d...", "......", "Q....q"]


def online(tmp_path, side: str = "red") -> tuple[OnlineController, FakeLink]:
    engine = load_engine(draw_map(tmp_path / "tiny.png", ROWS))
    link = FakeLink()
    seats = make_seats(engine, {"red": "human", "blue": "human"}, 0)
    return OnlineController(Mirror(engine, side, link), seats, 0), link


def played(n: int, side: str, command) -> dict:
    return {"type": "played", "n": n, "side": side, "id": f"c{n}", "command": command.to_json(),
            "events": [], "to_play": side}


def test_a_move_clicked_goes_to_the_server_and_shows_when_the_server_plays_it(tmp_path):
    ctrl, link = online(tmp_path)
    hero = ctrl.engine.world.at(0, 0)[0]
    ctrl.click((0, 0))
    ctrl.click((1, 0))
    assert link.sent == [Move(hero, 1, 0)]
    assert ctrl.engine.world.get(hero, Position) == Position(0, 0)  # not before the server
    assert not ctrl.human_to_play
    link.said = [played(1, "red", Move(hero, 1, 0))]
    assert ctrl.tick()
    assert ctrl.engine.world.get(hero, Position) == Position(1, 0)
    assert ctrl.human_to_play


def test_the_other_seat_is_remote_no_hand_over_and_no_undo(tmp_path):
    ctrl, link = online(tmp_path, side="blue")
    assert not ctrl.human_to_play and not ctrl.hotseat
    ctrl.key("E")
    assert link.sent == []  # red's turn: nothing to send from blue's seat
    link.said = [played(1, "red", EndTurn())]
    ctrl.tick()
    assert ctrl.engine.side == "blue" and ctrl.human_to_play
    assert not ctrl.view().hide_board
    ctrl.key("U")
    assert ctrl.message == LOCAL_ONLY and len(ctrl.engine.history) == 1
    assert "blue: you" in ctrl.view().footer
