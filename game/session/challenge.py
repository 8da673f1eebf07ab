"""Skirmish challenges: a map whose sidecar asks one side to win within a few turns against a
set opponent, and the search that solves it or proves it cannot be won.

A challenge's sidecar holds `challenge: {brief, turns, side, opponent, seed, stars}`
(game/schemas.py: ChallengeGoal); the ruleset ends the game for the other side when the
player's last turn ends without a win, so a challenge plays the same in a window, in the
terminal and here. `solve(engine, goal)` searches every line of the player's commands through
the Engine (so every rule, word and push applies), depth first, with the opponent's turns played
by its seat exactly as in a match (the one seat step, the seat's RNG from the challenge's seed).
States already searched are skipped by the ruleset's state hash (with the opponent's RNG state,
which decides its ties): a state is searched again only when it is reached with fewer of the
player's commands spent, so the line found is a shortest one (in the player's commands, end of
turn aside). With `words=False` the player's pushes of word tiles are left out
(systems/ai/wordless.py), and a search that ends without a win is the proof that no line
without words exists.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.commands import Command, EndTurn
from game.errors import UserError
from game.events import TurnEnded
from game.session.seat import Forfeited, make_seats, step
from systems.ai import Budget
from systems.ai.wordless import pushes_word

if TYPE_CHECKING:
    from game.engine import Engine
    from game.levels.maps import GameMap

UNBOUNDED = 1 << 30


@dataclass(frozen=True)
class Goal:
    """A challenge as its sidecar states it."""

    brief: str
    turns: int = 1
    side: str = "red"
    opponent: str = "heuristic"
    seed: int = 0
    stars: dict[int, int] = field(default_factory=dict)

    def stars_for(self, actions: int) -> int:
        """Stars a win in `actions` of the player's commands earns (one at least)."""
        earned = [int(k) for k, limit in self.stars.items() if actions <= int(limit)]
        return max(earned, default=1)

    def seats(self, sides: tuple[str, ...]) -> dict[str, str]:
        """Seat specs: the player is human, every other side the opponent."""
        return {s: "human" if s == self.side else self.opponent for s in sides}


def goal_of(game_map: GameMap | None) -> Goal | None:
    """The challenge a map's sidecar states (checked by its schema when loaded), or None."""
    raw: Any = game_map.sidecar.get("challenge") if game_map is not None else None
    if not isinstance(raw, dict):
        return None
    return Goal(str(raw["brief"]), int(raw.get("turns", 1)), str(raw.get("side", "red")),
                str(raw.get("opponent", "heuristic")), int(raw.get("seed", 0)),
                {int(k): int(v) for k, v in (raw.get("stars") or {}).items()})


@dataclass
class Solution:
    """What a search found: the whole game's commands to the win (the opponent's with them),
    the player's commands in it, and whether every line was searched."""

    won: bool
    commands: list[Command]
    actions: int
    exhausted: bool
    states: int
    seconds: float
    words: bool


class _Spent(Exception):
    """The search's time or state budget ran out."""


def actions_in(engine: Engine, side: str) -> int:
    """How many commands `side` played in the engine's game so far, end of turn aside: what a
    challenge's stars count. Each EndTurn's TurnEnded event says whose turn it closed; the
    commands after the last one are the side's now to play."""
    count = pending = 0
    for entry in engine.history:
        if isinstance(entry.command, EndTurn):
            ended = next((e.side for e in entry.events if isinstance(e, TurnEnded)), None)
            count += pending if ended == side else 0
            pending = 0
        else:
            pending += 1
    return count + (pending if engine.side == side else 0)


class _Search:
    def __init__(self, engine: Engine, goal: Goal, words: bool, seconds: float | None,
                 states: int | None) -> None:
        sides = tuple(engine.ruleset.sides)
        if goal.side not in sides:
            raise UserError(f"the challenge's side '{goal.side}' is not one of "
                            f"{', '.join(sides)}.")
        self.engine = engine
        self.goal = goal
        self.words = words
        try:
            self.seats = make_seats(engine, goal.seats(sides), goal.seed)
        except UserError as exc:
            where = f"{engine.map.path}: " if engine.map is not None else ""
            raise UserError(f"{where}the challenge's opponent '{goal.opponent}' cannot "
                            f"play: {str(exc)[0].lower()}{str(exc)[1:]}") from None
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.max_states = states
        self.seen: dict[Hashable, int] = {}
        self.states = 0
        self.bound = UNBOUNDED  # the player's commands in the shortest win found so far
        self.best: list[Command] = []
        self.start = len(engine.history)
        self.rng_token: Hashable = ()

    def run(self) -> None:
        self.play_others(0)

    def play_others(self, used: int) -> None:
        """The opponent's turns (by its seat), then the player's, from here; put back after."""
        engine = self.engine
        depth = len(engine.history)
        rngs = {side: seat.rng.getstate() for side, seat in self.seats.items() if seat.ai}
        token = self.rng_token
        try:
            while not engine.over and engine.side != self.goal.side:
                seat = self.seats[engine.side]
                chosen = step(seat, engine, Budget())
                if isinstance(chosen, Forfeited):
                    raise UserError(f"the challenge's opponent cannot play it: "
                                    f"{chosen.sentence}.")
                engine.apply(chosen.command)
            self.rng_token = tuple(hash(seat.rng.getstate()) for seat in self.seats.values()
                                   if seat.ai)
            if engine.over:
                self.settle(used)
            else:
                self.turn(used)
        finally:
            engine.retract_to(depth)
            for side, state in rngs.items():
                self.seats[side].rng.setstate(state)
            self.rng_token = token

    def settle(self, used: int) -> None:
        """The game is over here: keep the line if the player won in fewer commands."""
        outcome = self.engine.outcome
        if outcome is not None and outcome.winner == self.goal.side and used < self.bound:
            self.bound = used
            self.best = self.engine.commands()[self.start:]

    def turn(self, used: int) -> None:
        """Every command of the player's from here (the player to play, the game not over)."""
        engine = self.engine
        key = (engine.ruleset.state_key(engine.world), self.rng_token)
        before = self.seen.get(key)
        if before is not None and before <= used:
            return
        self.seen[key] = used
        self.states += 1
        if self.max_states is not None and self.states > self.max_states:
            raise _Spent
        if self.deadline is not None and self.states % 64 == 0 \
                and time.perf_counter() > self.deadline:
            raise _Spent
        for command in engine.legal_actions():
            ends = isinstance(command, EndTurn)
            spent = used if ends else used + 1
            if spent >= self.bound:
                continue
            if not self.words and pushes_word(engine, command):
                continue
            engine.apply(command)
            try:
                if engine.over:
                    self.settle(spent)
                elif engine.side == self.goal.side:
                    self.turn(spent)
                else:
                    self.play_others(spent)
            finally:
                engine.retract()


def solve(engine: Engine, goal: Goal, words: bool = True, seconds: float | None = None,
          states: int | None = None) -> Solution:
    """The shortest win (in the player's commands) of `goal` from the engine's state, or the
    proof that none exists (`exhausted` without a win); `words=False` forbids the player to
    push a word tile. The engine is left as it was."""
    began = time.perf_counter()
    search = _Search(engine, goal, words, seconds, states)
    exhausted = True
    try:
        if engine.over:
            search.settle(0)
        else:
            search.run()
    except _Spent:
        exhausted = False
    won = search.bound < UNBOUNDED
    return Solution(won, search.best, search.bound if won else 0, exhausted, search.states,
                    time.perf_counter() - began, words)


def score_key(title: str) -> str:
    """The score table's row of a challenge (data/menu.yaml's and the shipped ones alike)."""
    return f"challenge: {title}"


def record_win(engine: Engine, goal: Goal, title: str, player: str) -> str | None:
    """A finished challenge in one sentence, its win kept in the score table (the fewest of the
    player's commands per player name); None while the game goes on."""
    from game.session.scores import record_score

    outcome = engine.outcome
    if outcome is None:
        return None
    if outcome.winner != goal.side:
        return f"Challenge lost: {outcome.reason}."
    actions = actions_in(engine, goal.side)
    stars = goal.stars_for(actions)
    best = record_score(score_key(title), player, actions)
    return (f"Challenge won in {actions} command{'s' if actions != 1 else ''}: {stars} "
            f"star{'s' if stars != 1 else ''}{' (a new best)' if best else ''}.")
