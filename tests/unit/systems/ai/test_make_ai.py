"""The AI registry: every name resolves, and bad names and options are one sentence."""

from __future__ import annotations

import pytest

from game.errors import UserError
from systems.ai import make_ai


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown AI 'alphazero'; known AIs: heuristic, mcts, minimax, openspiel-mcts, perfect, random"),
        ("minimax:speed=3", "its options: think, nodes, depth, width, tt, ordering, plan, turns"),
        ("minimax:nodes=-5", "option nodes must be a whole number from 1 to 100,000,000, not '-5'"),
        ("minimax:tt=maybe", "option tt must be on or off"),
        ("minimax:think", "must be written key=value"),
        ("heuristic:x=1", "its options: weights"),
        ("heuristic:weights=no/such.yaml", "weights file no/such.yaml: no such file"),
        ("minimax:plan=sideways", "option plan must be turn or action"),
        ("mcts:sims=0", "option sims must be a whole number from 1 to 1,000,000, not '0'"),
        ("mcts:depth=nan", "its options: think, sims, c, widen, turns"),
        ("mcts:depth=2", "its options: think, sims, c, widen, turns"),
    ],
)
def test_bad_ai_names_and_options_are_one_sentence(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=message.replace("(", r"\(")):
        make_ai(spec)


@pytest.mark.parametrize("spec", ["random", "heuristic", "minimax", "minimax:think=0.5",
                                  "minimax:nodes=5000", "minimax:nodes=100,width=0,tt=off",
                                  "minimax:plan=action", "mcts", "mcts:sims=50,c=0.7"])
def test_every_ai_name_resolves_the_same_way(spec: str) -> None:
    assert make_ai(spec).name == spec.split(":")[0]
