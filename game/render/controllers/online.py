"""The window's controller for a seat at a server's game (`rulefront online play`).

It is the hotseat controller (game/render/controllers/match.py: the same clicks, keys,
previews and end screen) with the other side remote: a command the player makes goes to the
server through the Mirror (game/session/remote.py) and shows on the board once the server
broadcasts it; the other seat's commands arrive the same way, one per tick so each animates.
Undo, redo, restart and other maps belong to a game of one's own, so they say so here.
"""

from __future__ import annotations

from dataclasses import replace

from game.commands import Command, EndTurn
from game.render.controllers.match import Controller
from game.render.uiview import UiView
from game.session.match import Seat
from game.session.remote import Mirror

LOCAL_ONLY = "This game is played on a server: it cannot be undone, restarted or changed here."


class OnlineController(Controller):
    """One seat of a server's game in the window; the mirror holds the link."""

    def __init__(self, mirror: Mirror, seats: dict[str, Seat], seed: int) -> None:
        self.mirror = mirror
        super().__init__(mirror.engine, seats, seed, None)

    @property
    def over(self) -> bool:
        return self.mirror.over

    @property
    def human_to_play(self) -> bool:
        return self.mirror.my_turn

    @property
    def hotseat(self) -> bool:
        return False  # one player at this screen: nothing to hide between turns

    def view(self) -> UiView:
        shown = super().view()
        footer = self.mirror.seat_line() + "   H help"
        if not self.over and not self.mirror.my_turn:
            waiting = "the server" if self.engine.side == self.mirror.side \
                else f"{self.engine.side}"
            footer = f"waiting for {waiting}   " + footer
        return replace(shown, footer=footer)

    def end_lines(self) -> tuple[str, ...]:
        self.forfeit = self.mirror.forfeit
        lines = super().end_lines()
        return (*lines[:-1], "Q quit")

    def submit(self, command: Command) -> bool:
        why = self.mirror.send(command)
        if why is not None:
            self._say(why)
            return False
        if isinstance(command, EndTurn):
            self.selected = None
        self._say("sent; waiting for the server")
        return True

    def tick(self) -> bool:
        """Apply what the server played since the last tick (one command, so it animates)."""
        update = self.mirror.pull(limit=1)
        if update.entries:
            self.message = update.notice
            self._after_command()
        elif update.notice:
            self._say(update.notice)
        return bool(update.entries)

    def undo(self) -> None:
        self._say(LOCAL_ONLY)

    def redo(self) -> None:
        self._say(LOCAL_ONLY)

    def restart(self) -> None:
        self._say(LOCAL_ONLY)

    def next_map(self, step: int) -> None:
        self._say(LOCAL_ONLY)

    def save(self, tell: bool = False) -> None:
        if tell:
            self._say("The server keeps this game; `rulefront online replay` downloads it.")

    def close(self) -> None:
        self.mirror.link.close()
