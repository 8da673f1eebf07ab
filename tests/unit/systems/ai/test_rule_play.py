"""The AIs fight over the rules: the evaluation values the rules in force for each side, the
searches and the heuristic take a push that forms a winning sentence, `words=off` never does,
and `rulefront tune rules` measures what each property is worth by simulation."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from components import Health, Kind, Position
from components.resources import RULES_KEY
from game import DATA
from game.commands import EndTurn, Move
from game.data import properties
from game.engine import Engine
from game.levels.loader import load_engine
from game.rulesets.skirmish.evaluate import Evaluation, rule_values, rule_values_of
from game.session.replay import read_record
from systems.ai import Budget, make_ai
from systems.ai.pushes import push_lines
from systems.ai.rulevalue import property_worth
from systems.ai.wordless import pushes_word
from tests.helpers import draw_cells

ROOT = Path(__file__).resolve().parents[4]
SIDECAR = {"name": "t", "base_rules": ["ROCK IS STOP", "TEXT IS PUSH"]}


def rock_map(tmp_path: Path) -> Path:
    """BLUE IS _ with ROCK one cell below its place: a red bulwark two steps from the cell
    under ROCK can walk there and push it up, turning every blue unit and building to rock."""
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (4, 4): "red bulwark", (8, 7): "blue bulwark",
             (3, 1): "word BLUE", (4, 1): "word IS", (5, 2): "word ROCK"}
    return draw_cells(tmp_path / "rock.png", 10, 10, cells, SIDECAR)


def match(tmp_path: Path, path: Path, red: str) -> tuple[dict, Path]:
    replay = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "game", "match", str(path), "--red", red, "--blue", "random",
         "--seed", "1", "--json", "--replay", str(replay)],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), replay


def red_word_pushes(path: Path, replay: Path) -> int:
    record = read_record(replay)
    engine = load_engine(path, seed=record.seed)
    made = 0
    for command in record.commands:
        if engine.side == "red":
            made += pushes_word(engine, command)
        engine.apply(command)
    return made


@pytest.mark.parametrize("seat", ["heuristic", "mcts:sims=5", "minimax:nodes=300"])
def test_an_ai_walks_to_a_word_and_pushes_it_to_spell_blue_is_rock_and_win(
        tmp_path: Path, seat: str) -> None:
    path = rock_map(tmp_path)
    result, replay = match(tmp_path, path, seat)
    assert result["winner"] == "red" and result["rounds"] == 1, result
    assert red_word_pushes(path, replay) == 1


@pytest.mark.parametrize("seat", ["heuristic", "mcts:sims=5"])
def test_with_words_off_the_same_ai_leaves_the_winning_word_alone(tmp_path: Path,
                                                                  seat: str) -> None:
    path = rock_map(tmp_path)
    result, replay = match(tmp_path, path, seat + ("," if ":" in seat else ":") + "words=off")
    assert not (result["winner"] == "red" and result["rounds"] == 1)
    assert red_word_pushes(path, replay) == 0


def sink_position(tmp_path: Path) -> Engine:
    """Blue's last hero wades in water (WATER IS STOP is not in force); WATER IS _ waits for
    SINK, one cell out of line and two steps from the red bulwark."""
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (4, 5): "red bulwark", (0, 9): "red ranger",
             (7, 1): "water", (7, 2): "water", (7, 3): "water", (6, 6): "blue bulwark",
             (3, 2): "word WATER", (4, 2): "word IS", (5, 3): "word SINK"}
    engine = load_engine(draw_cells(tmp_path / "sink.png", 10, 10, cells, SIDECAR), seed=1)
    world = engine.world
    blue = next(e for e in world.at(6, 6) if world.get(e, Kind).name == "hero")
    world.update(blue, Position, x=7, y=2)
    world.forget_history()
    return engine


@pytest.mark.parametrize("seat", ["heuristic", "mcts:sims=5", "minimax:nodes=300",
                                  "minimax:nodes=300,plan=action"])
def test_a_search_takes_the_push_that_forms_a_sentence_sinking_the_enemys_last_hero(
        tmp_path: Path, seat: str) -> None:
    engine = sink_position(tmp_path)
    ai = make_ai(seat)
    for _ in range(4):
        if engine.over or engine.side != "red":
            break
        engine.apply(ai.choose(engine, random.Random(1), Budget()))
    assert "WATER IS SINK" in engine.world.resource(RULES_KEY)
    assert engine.outcome is not None and engine.outcome.winner == "red"


def test_push_lines_list_the_walk_and_push_that_change_the_rules_and_leave_the_engine_be(
        tmp_path: Path) -> None:
    engine = sink_position(tmp_path)
    before = engine.world.state_key()
    lines = push_lines(engine, Evaluation(), 3)
    assert engine.world.state_key() == before and not engine.history
    bulwark = next(e for e in engine.world.at(4, 5))
    assert lines[0][1] == (Move(bulwark, 5, 4), Move(bulwark, 5, 3))
    assert lines[0][0] >= Evaluation().win - 10_000  # the line wins the game


def fast_board(tmp_path: Path, noun: str, formed: bool) -> Engine:
    """NOUN IS FAST spelled in a row (or with a gap, so no rule), armies far apart."""
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (1, 1): "red bulwark", (8, 8): "blue bulwark",
             (2, 5): f"word {noun}", (3, 5): "word IS", ((4 if formed else 5), 5): "word FAST"}
    return load_engine(draw_cells(tmp_path / f"{noun}{formed}.png", 10, 10, cells, SIDECAR))


@pytest.mark.parametrize("noun, favoured", [("RED", "red"), ("BLUE", "blue")])
def test_the_evaluation_scores_a_rule_favouring_a_side_higher_for_that_side(
        tmp_path: Path, noun: str, favoured: str) -> None:
    with_rule, without = fast_board(tmp_path, noun, True), fast_board(tmp_path, noun, False)
    assert f"{noun} IS FAST" in with_rule.world.resource(RULES_KEY)
    valued, plain = Evaluation(rules={"FAST": 50.0}), Evaluation(rules={})
    other = "blue" if favoured == "red" else "red"
    assert valued(with_rule, favoured) == pytest.approx(valued(without, favoured) + 50.0)
    assert valued(with_rule, other) == pytest.approx(valued(without, other) - 50.0)
    assert plain(with_rule, favoured) == plain(without, favoured)  # the rule is all it counts


def test_a_rule_naming_both_sides_heroes_alike_is_worth_nothing_to_either(tmp_path: Path) -> None:
    with_rule, without = fast_board(tmp_path, "HERO", True), fast_board(tmp_path, "HERO", False)
    valued = Evaluation(rules={"FAST": 50.0})
    assert valued(with_rule, "red") == pytest.approx(valued(without, "red"))


def test_the_shipped_rule_values_name_every_property() -> None:
    assert set(rule_values()) == set(properties())


def test_a_property_that_loses_the_game_when_a_unit_falls_is_worth_less_than_nothing_where_one_is_about_to(  # noqa: E501
        tmp_path: Path) -> None:
    cells = {(0, 0): "red hq", (9, 9): "blue hq", (4, 4): "red sage", (0, 8): "red bulwark",
             (5, 4): "blue sage", (9, 0): "blue bulwark"}
    engine = load_engine(draw_cells(tmp_path / "win.png", 10, 10, cells, SIDECAR))
    world = engine.world
    sage = next(e for e in world.at(4, 4) if world.get(e, Kind).name == "hero")
    world.update(sage, Health, hp=1)
    world.forget_history()
    engine.apply(EndTurn())  # blue to play, its sage beside the wounded red one
    before = world.state_key()
    worth = property_worth(engine, ["WIN", "FAST"], ("red", "blue"), 2, 7, Evaluation(rules={}))
    assert worth["WIN"] < 0
    assert world.state_key() == before and len(engine.history) == 1


def test_tune_rules_writes_the_rules_section_and_keeps_every_other_line(tmp_path: Path) -> None:
    out = tmp_path / "ai.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "game", "tune", "rules", "--maps", "duel", "--games", "1",
         "--turns", "2", "--every", "0.3", "--seed", "3", "--out", str(out), "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["positions"] > 0 and set(report["rules"]) == set(properties())
    text = out.read_text()
    kept = (DATA / "ai.yaml").read_text().split("\nrules:")[0]
    assert text.startswith(kept)
    assert "rulefront tune rules --maps duel" in text
    assert rule_values_of(__import__("yaml").safe_load(text), out) == report["rules"]


def test_tune_rules_refuses_a_chance_above_one_in_a_sentence() -> None:
    done = subprocess.run([sys.executable, "-m", "game", "tune", "rules", "--every", "2"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and "--every must be at most 1" in done.stderr
