"""The AIs score positions by the ruleset's own evaluator (its spec's `evaluator` edge) and say
what they need of a ruleset (NEEDS), so a seat that cannot play is refused before the game and
a ruleset registered by a test (counting) is played by `perfect` and `minimax` unchanged."""

from __future__ import annotations

import dataclasses
import random

import pytest

from game import registry
from game.errors import UserError
from game.levels.loader import load_engine
from game.rulesets.skirmish.evaluate import evaluate, evaluation_weights
from game.session.match import make_seats, play_match
from systems.ai import Budget, make_ai
from systems.ai.base import evaluator_for, needs_of
from tests.conformance.test_a_fifth_ruleset import register_counting
from tests.helpers import MAPS, octal_engine


@pytest.mark.parametrize("name", ["heuristic", "minimax", "mcts", "perfect"])
def test_the_searching_ais_need_an_evaluator(name: str) -> None:
    assert "evaluator" in needs_of(make_ai(name))


def test_perfect_needs_an_impartial_ruleset() -> None:
    assert needs_of(make_ai("perfect")) == ("impartial", "evaluator")


@pytest.mark.parametrize("spec", [s for s in registry.specs() if s.capabilities.players >= 2],
                         ids=lambda spec: spec.name)
def test_every_ruleset_of_sides_declares_an_evaluator(spec) -> None:
    assert spec.has("evaluator")


def test_the_skirmish_evaluator_is_the_skirmish_evaluation() -> None:
    engine = load_engine(MAPS / "duel.png")
    evaluate_edge = evaluator_for(engine)
    assert evaluate_edge.win == evaluation_weights().win and not evaluate_edge.exact
    for side in ("red", "blue"):
        assert evaluate_edge(engine, side) == evaluate(engine, side)


def test_the_octal_evaluator_is_perfect_play() -> None:
    engine = octal_engine("nim", [3, 5])  # xor 6: the side to move wins
    evaluate_edge = evaluator_for(engine)
    assert evaluate_edge.exact
    assert evaluate_edge(engine, engine.side) == 1.0
    assert evaluate_edge(engine, "blue" if engine.side == "red" else "red") == -1.0


def test_a_ruleset_without_an_evaluator_refuses_minimax_before_the_game(monkeypatch) -> None:
    engine = octal_engine("0.137", [3, 5])
    bare = dataclasses.replace(registry.spec("octal"), evaluator="")
    monkeypatch.setitem(registry._SPECS, "octal", bare)
    with pytest.raises(UserError, match="^AI 'minimax' cannot play octal games: it needs "
                                        "evaluator, which the octal ruleset does not offer"):
        make_seats(engine, {"red": "minimax", "blue": "random"}, 0)


@pytest.mark.parametrize("tokens", [5, 6, 7, 9, 10, 11])
def test_perfect_wins_every_winning_start_of_a_ruleset_registered_by_a_test(
        monkeypatch, tokens: int) -> None:
    register_counting(monkeypatch)
    for seed in range(3):
        engine = load_engine(f"counting:{tokens}", seed=seed)
        seats = make_seats(engine, {"red": "perfect", "blue": "minimax:depth=2"}, seed)
        result = play_match(engine, seats, seed, Budget())
        assert result.winner == "red", (tokens, seed)


def test_minimax_plays_the_counting_ruleset_by_its_evaluator(monkeypatch) -> None:
    register_counting(monkeypatch)
    engine = load_engine("counting:7")
    ai = make_ai("minimax:depth=1")
    command = ai.choose(engine, random.Random(0), Budget())
    assert command.count == 3  # type: ignore[attr-defined]  # leaves 4: the other side loses
