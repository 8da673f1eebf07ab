"""Word goals (systems/ai/goals.py): pushes that would change the rules, found wherever the
heroes stand, valued by the evaluation, walked toward by a candidate turn, and counted in
MCTS's leaves, so MCTS goes to a sentence off its heroes' road and spells it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from components import Kind, Position, Team
from components.match import Turn
from components.resources import RULES_KEY
from game.commands import Move
from game.engine import Engine
from game.events import RuleFormed
from game.levels.loader import load_engine
from game.rulesets.skirmish.evaluate import rule_values
from game.session.replay import read_record
from systems.ai.base import evaluator_for
from systems.ai.goals import Goals, find_goals
from systems.ai.turns import TurnSearch
from systems.ai.wordless import WordlessEngine
from tests.helpers import draw_cells
from tests.unit.systems.ai.test_rule_play import match

ROOT = Path(__file__).resolve().parents[4]
SIDECAR = {"name": "t", "base_rules": ["ROCK IS STOP", "TEXT IS PUSH"]}
SPOT = (9, 3)  # where red's bulwark stands to push FAST up under IS


def fast_map(tmp_path: Path) -> Path:
    """RED IS _ in the top row, FAST one cell below the gap: pushed up from (9, 3) it spells
    RED IS FAST. Red's bulwark stands seven steps from that cell (three turns' walk), blue's
    far off."""
    cells = {(0, 0): "red hq", (11, 11): "blue hq", (2, 3): "red bulwark",
             (10, 9): "blue bulwark", (7, 1): "word RED", (8, 1): "word IS",
             (9, 2): "word FAST"}
    return draw_cells(tmp_path / "fast.png", 12, 12, cells, SIDECAR)


def test_a_push_that_would_spell_a_rule_is_a_goal_worth_the_rule_to_each_side(
        tmp_path: Path) -> None:
    engine = load_engine(fast_map(tmp_path), seed=0)
    goals = find_goals(engine, evaluator_for(engine))
    assert [(g.spot, g.tile) for g in goals] == [(SPOT, (9, 2))]
    # every red unit and building would be FAST: the whole of the property's measured worth
    assert goals[0].gain("red") == pytest.approx(rule_values()["FAST"])
    assert goals[0].gain("blue") == pytest.approx(-rule_values()["FAST"])
    assert engine.world.resource(RULES_KEY) == ("ROCK IS STOP", "TEXT IS PUSH")  # rolled back


def test_a_goal_is_worth_more_to_a_leaf_as_the_nearest_hero_comes_nearer(tmp_path: Path) -> None:
    engine = load_engine(fast_map(tmp_path), seed=0)
    goals = Goals(evaluator_for(engine))
    fast = rule_values()["FAST"]
    # seven steps at three a turn: three turns, then the push
    assert goals.potential(engine, "red") == pytest.approx(fast * 0.5 ** 4)
    assert goals.potential(engine, "blue") == pytest.approx(-fast * 0.5 ** 4)
    engine.apply(Move(bulwark(engine), 5, 3))  # four steps left: two turns
    assert goals.potential(engine, "red") == pytest.approx(fast * 0.5 ** 3)
    assert Goals(evaluator_for(engine), 0.0).potential(engine, "red") == 0.0


def test_a_side_playing_words_off_has_no_goal(tmp_path: Path) -> None:
    engine = load_engine(fast_map(tmp_path), seed=0)
    view = WordlessEngine(engine, "red")
    goals = Goals(evaluator_for(engine))
    assert goals.best(view, "red") == (0.0, None)
    assert goals.potential(view, "red") == 0.0  # blue's goals: none here
    assert goals.best(engine, "red")[1] is not None


def test_the_whole_turn_search_offers_a_turn_that_walks_toward_the_goal(tmp_path: Path) -> None:
    engine = load_engine(fast_map(tmp_path), seed=0)
    search = TurnSearch(engine, random.Random(0))
    walks = [b for b in search.builders(4, None) if b.toward is not None]
    assert [b.toward for b in walks] == [SPOT]
    start = len(engine.history)
    turn = search.play(walks[0])
    assert turn is not None and isinstance(turn[0], Move)
    assert abs(turn[0].x - SPOT[0]) + abs(turn[0].y - SPOT[1]) == 4  # three of seven steps
    engine.retract_to(start)
    assert engine.world.get(bulwark(engine), Position).x == 2


def bulwark(engine: Engine) -> int:
    """Red's one hero."""
    return next(e for e, (kind, team) in engine.world.query(Kind, Team)
                if kind.name == "hero" and team.side == "red")


def formed_by_red(path: Path, replay: Path) -> list[tuple[int, str]]:
    """(round, rule) of each rule a red command formed in the replay."""
    record = read_record(replay)
    engine = load_engine(path, seed=record.seed)
    found = []
    for command in record.commands:
        side, rounds = engine.side, next(t.round for _e, t in engine.world.query(Turn))
        found += [(rounds, e.rule) for e in engine.apply(command)
                  if isinstance(e, RuleFormed) and side == "red"]
    return found


@pytest.mark.parametrize("seat, formed", [("mcts:sims=30", True),
                                          ("mcts:sims=30,goals=0", False)])
def test_mcts_walks_three_turns_to_a_sentence_and_spells_it_only_with_goals(
        tmp_path: Path, seat: str, formed: bool) -> None:
    path = fast_map(tmp_path)
    result, replay = match(tmp_path, path, seat)  # a real `rulefront match` against random
    assert result["winner"] == "red"
    rules = formed_by_red(path, replay)
    if formed:
        assert rules and rules[0][1] == "RED IS FAST" and rules[0][0] <= 4, rules
    else:
        assert rules == []


def test_mcts_refuses_a_goal_share_of_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", "duel", "--red", "mcts:goals=1", "--blue",
         "random"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode != 0
    assert "option goals must be a number from 0 to 0.99" in done.stderr
    assert "Traceback" not in done.stderr
