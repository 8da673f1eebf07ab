"""The Textual client on a seat at a server's game (`rulefront online play --text`).

The hotseat app (game/text/app.py: the same board, cursor, panel, log and keys) with the other
side remote: the player's commands go to the server through the Mirror
(game/session/remote.py) and are applied, and logged in sentences, when the server broadcasts
them, as the other seat's are. Undo and redo belong to a game of one's own.
"""

from __future__ import annotations

from textual.binding import Binding

from game.commands import Command
from game.session.match import Seat
from game.session.remote import Mirror
from game.text.app import RulefrontApp

POLL = 0.1  # seconds between reads of the link
LOCAL_ONLY = "This game is played on a server: it cannot be undone or redone here."


class OnlineApp(RulefrontApp):
    """One seat of a server's game in the terminal."""

    BINDINGS = [  # the footer leaves out what a game on a server cannot do
        Binding("u", "undo", "undo", show=False),
        Binding("r", "redo", "redo", show=False),
        Binding("s", "save", "save", show=False),
        Binding("space", "skip", "skip", show=False),
    ]

    def __init__(self, mirror: Mirror, seats: dict[str, Seat], seed: int) -> None:
        super().__init__(mirror.engine, seats, seed, None, ai_delay=POLL)
        self.mirror = mirror
        self.humans = [mirror.side]
        self.last_human = mirror.side

    def on_mount(self) -> None:
        # Textual calls the hotseat app's on_mount too (handlers run along the MRO)
        self.title = f"Rulefront online: {self.mirror.side}"

    def ai_to_play(self) -> bool:
        return False  # the other seat is remote: nothing local plays for it

    def ai_step(self) -> None:
        """Apply what the server played since the last tick, logged as sentences."""
        update = self.mirror.pull(limit=1)
        for line in update.lines:
            self.log_line(line)
        if update.entries:
            self.cursor.after(None)
            self.cursor.message = ""
        if update.notice:
            self.cursor.message = update.notice
            self.log_line(update.notice)
        if update.entries or update.notice:
            self.refresh_view()

    def act(self, command: Command | None) -> None:
        if command is not None:
            why = self.mirror.send(command)
            self.cursor.message = why or "sent; waiting for the server"
        self.refresh_view()

    def prompt(self) -> str:
        mirror = self.mirror
        if mirror.over:
            return f"game over: {mirror.end_sentence()}; q leaves"
        if not mirror.my_turn:
            who = "the server" if self.engine.side == mirror.side else self.engine.side
            return f"waiting for {who}   {mirror.seat_line()}"
        return super().prompt()

    def action_undo(self) -> None:
        self.cursor.message = LOCAL_ONLY
        self.refresh_view()

    def action_redo(self) -> None:
        self.action_undo()

    def action_save(self) -> None:
        self.cursor.message = "The server keeps this game; `rulefront online replay` downloads it."
        self.refresh_view()

    def action_quit_game(self) -> None:
        self.exit(0)
