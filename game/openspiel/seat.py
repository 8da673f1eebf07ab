"""`openspiel-mcts`: OpenSpiel's own MCTSBot as a seat, so our AIs meet an outside reference.

The seat builds an OpenSpiel game on the match's Engine itself (no copy: the search walks the
Engine by apply and retract, and hands it back where it found it), runs MCTSBot and returns
the command of the action it chose. Options: `sims=N` simulations per action, `think=S`
seconds per action (the match's budget when neither is given; rollouts stop at the clock),
`rollouts=R` random rollouts per leaf, `eval=random|heuristic` (random rollouts to the end of
the game, which the turn limit caps; or systems/ai/evaluate.py's score squashed into [-1, 1]),
`uct=C` exploration.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any

import numpy as np
from open_spiel.python.algorithms import mcts

from game.data import SIDES
from game.openspiel.games import RulefrontState, game_for
from systems.ai import Budget, options_float

if TYPE_CHECKING:
    from game.commands import Command
    from game.engine import Engine

DEFAULT_SIMS = 200  # when neither the seat nor the match gives a budget
HEURISTIC_SCALE = 300.0  # evaluation points that make tanh reach 0.76 (about a hero's worth)


class _TimeUp(Exception):
    """The clock ran out between two simulations (the tree is whole: each one is backed up)."""


class TimedMCTSBot(mcts.MCTSBot):
    """MCTSBot that also stops at a deadline, after at least two simulations (the first
    evaluates the root, the second expands it: only then is there a child to pick)."""

    def __init__(self, *args: Any, seconds: float | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = seconds
        self.deadline: float | None = None
        self._root: Any = None

    def mcts_search(self, state: Any) -> Any:
        self.deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        try:
            return super().mcts_search(state)
        except _TimeUp:
            return self._root

    def _apply_tree_policy(self, root: Any, state: Any) -> Any:
        self._root = root
        if (self.deadline is not None and root.explore_count >= 2
                and time.perf_counter() > self.deadline):
            raise _TimeUp
        return super()._apply_tree_policy(root, state)


class TimedRolloutEvaluator(mcts.RandomRolloutEvaluator):
    """Random rollouts to the end of the game, cut off at the seat's deadline: a rollout the
    clock stops counts as a draw, so a `think` budget is kept even when one rollout is longer
    than the whole budget (a random game on duel is about a thousand actions)."""

    def __init__(self, rollouts: int, random_state: np.random.RandomState,
                 bot: TimedMCTSBot) -> None:
        super().__init__(rollouts, random_state)
        self.bot = bot

    def evaluate(self, state: RulefrontState) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            working = state.clone()
            while not working.is_terminal():
                deadline = self.bot.deadline
                if deadline is not None and time.perf_counter() > deadline:
                    break
                actions = working.legal_actions()
                working.apply_action(actions[self._random_state.randint(len(actions))])
            total += np.array(working.returns())
        return total / self.n_rollouts


class HeuristicEvaluator(mcts.Evaluator):
    """Leaves scored by our static evaluation (red's view), squashed into [-1, 1]."""

    def evaluate(self, state: RulefrontState) -> np.ndarray:
        from systems.ai.evaluate import evaluate

        value = math.tanh(evaluate(state.engine(), SIDES[0]) / HEURISTIC_SCALE)
        return np.array([value, -value])

    def prior(self, state: RulefrontState) -> list[tuple[int, float]]:
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]


class OpenSpielMCTS:
    name = "openspiel-mcts"
    OPTIONS = ("sims", "think", "rollouts", "eval", "uct")

    def __init__(self, sims: str | int | None = None, think: str | float | None = None,
                 rollouts: str | int = 1, eval: str = "random", uct: str | float = 2.0) -> None:
        self.sims = None if sims is None else _positive_int(sims, "sims")
        self.think = None if think is None else options_float(think, "think")
        if self.think is not None and self.think <= 0:
            raise ValueError("option think must be more than 0 seconds")
        self.rollouts = _positive_int(rollouts, "rollouts")
        if eval not in ("random", "heuristic"):
            raise ValueError(f"option eval must be random or heuristic, not {eval!r}")
        self.eval = eval
        self.uct = options_float(uct, "uct")

    def choose(self, engine: Engine, rng: random.Random, budget: Budget) -> Command:
        game = game_for(engine)
        state = game.new_initial_state()
        try:
            actions = state.legal_actions()
            if len(actions) == 1:
                return state.command(actions[0])
            seconds = self.think if self.think is not None else budget.seconds
            sims = self.sims or (budget.nodes if seconds is None else None)
            if sims is None:
                sims = DEFAULT_SIMS if seconds is None else 10**9
            random_state = np.random.RandomState(rng.getrandbits(32))
            bot = TimedMCTSBot(game, self.uct, sims, HeuristicEvaluator(),
                               random_state=random_state, solve=True, seconds=seconds)
            if self.eval == "random":
                bot.evaluator = TimedRolloutEvaluator(self.rollouts, random_state, bot)
            action = bot.step(state)
            return state.command(action)
        finally:
            game.pool.reset()  # the match's Engine goes back exactly where it was


def _positive_int(value: Any, name: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"option {name} must be a whole number, not {value!r}") from None
    if number < 1:
        raise ValueError(f"option {name} must be at least 1")
    return number
