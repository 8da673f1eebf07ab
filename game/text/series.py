"""A series of games between the same two players: a running tally, and the loser starts next.

From the MTG engine's game manager: after each game the tally is shown, and the player who lost
takes the first move (red) in the next one; after a draw the seats stay as they were. Each game
gets its own seed (seed, seed + 1, ...), so a series replays exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from components.match import DRAW
from game.engine import Engine
from game.levels.loader import load_engine
from game.session.match import Seat, make_seats
from game.session.settings import Settings
from game.text.play import TextGame


@dataclass
class Player:
    label: str
    spec: str
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws


def tally_line(players: list[Player]) -> str:
    return "; ".join(f"{p.label} ({p.spec}) {p.wins}-{p.draws}-{p.losses}" for p in players)


def run_series(map_path: str | Path, red: str, blue: str, games: int, seed: int,
               save_path: Path, read: Callable[[str], str], out: TextIO,
               play: Callable[[Engine, dict[str, Seat], int], object] | None = None,
               settings: Settings | None = None) -> list[Player]:
    """Play up to `games` games in the terminal; stops early when a human quits. `play` runs
    one game (the full-screen client); by default the plain client reads `read`."""
    players = [Player("player 1", red), Player("player 2", blue)]
    on_red, on_blue = players
    for number in range(1, games + 1):
        game_seed = seed + number - 1
        engine = load_engine(map_path, seed=game_seed)
        seats = make_seats(engine, {"red": on_red.spec, "blue": on_blue.spec}, game_seed)
        print(f"== game {number} of {games}: {on_red.label} ({on_red.spec}) is red and moves "
              f"first, {on_blue.label} ({on_blue.spec}) is blue; seed {game_seed}", file=out)
        if play is None:
            TextGame(engine, seats, game_seed, save_path, read, out, settings).run()
        else:
            play(engine, seats, game_seed)
        if engine.outcome is None:
            print(f"series stopped after {number - 1} games: {tally_line(players)}", file=out)
            return players
        winner = engine.outcome[0]
        if winner == DRAW:
            on_red.draws += 1
            on_blue.draws += 1
        else:
            won, lost = (on_red, on_blue) if winner == "red" else (on_blue, on_red)
            won.wins += 1
            lost.losses += 1
            on_red, on_blue = lost, won  # the loser starts the next game
        print(f"== after game {number}: {tally_line(players)}", file=out)
    best = max(players, key=lambda p: p.score)
    other = players[1] if best is players[0] else players[0]
    verdict = ("the series is drawn" if best.score == other.score
               else f"{best.label} ({best.spec}) wins the series")
    print(f"== series over: {verdict}, {best.score:g} to {other.score:g}", file=out)
    return players
