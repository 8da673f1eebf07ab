"""Map balance: the report's numbers add up, the heatmap is the map's size, bad input is refused,
and `generate skirmish --balanced` keeps only a map the balance report calls balanced."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import defaultdict

import pytest
from PIL import Image

from components import Kind, Position, Team, UnitClass
from components.match import DRAW
from game import MAPS
from game.events import RuleBroken, RuleFormed
from game.levels.loader import load_engine
from game.session.match import run_match
from game.tournament.balance import (
    BalanceGame,
    balance_text,
    play_balance_game,
    run_balance,
    summarize,
)
from tests.helpers import OUTPOST, run_cli


def test_the_balance_report_adds_up(capsys, tmp_path) -> None:
    heat = tmp_path / "deaths.png"
    code, out, _err = run_cli(capsys, "balance", OUTPOST, "--games", "3", "--json",
                              "--heatmap", str(heat))
    assert code == 0
    s = json.loads(out)
    red, blue = s["sides"]["red"], s["sides"]["blue"]
    assert red["wins"] + blue["wins"] + s["draws"] == s["games"] == 3
    assert red["score"] + blue["score"] == pytest.approx(1.0)
    for side in (red, blue):
        assert side["ci95"][0] <= side["score"] <= side["ci95"][1]
    rows = s["sources"].values()
    assert sum(r["damage"] for r in rows) == s["damage"] > 0
    assert sum(r["kills"] for r in rows) == s["kills"] > 0
    assert sum(r["damage_share"] for r in rows) == pytest.approx(1.0, abs=1e-3)
    assert sum(r["kills_share"] for r in rows) == pytest.approx(1.0, abs=1e-3)
    for r in rows:
        assert r["by_side"]["red"]["damage"] + r["by_side"]["blue"]["damage"] == r["damage"]
    assert {"duelist", "ranger", "sage"} <= set(s["sources"])  # outpost's hero classes
    assert s["kills"] <= s["deaths"]  # every kill is a death; a death may have no killer
    assert s["balanced"] == (abs(red["score"] - 0.5) <= 0.05 + 1e-9)
    with Image.open(heat) as image:
        assert image.size == (12 * 16, 12 * 16)


def test_every_death_lands_on_a_cell_of_the_map_and_games_repeat() -> None:
    first = play_balance_game(OUTPOST, "heuristic", seed=5)
    again = play_balance_game(OUTPOST, "heuristic", seed=5)
    assert first == again
    assert first.deaths
    assert all(0 <= x < 12 and 0 <= y < 12 for x, y, _side, _kind in first.deaths)
    for side in ("red", "blue"):  # heroes do not come back: each dies at most once
        assert sum(1 for _x, _y, s, kind in first.deaths if s == side and kind == "hero") <= 3
    summary = summarize([first], OUTPOST, "heuristic")
    assert summary["deaths"] == len(first.deaths)


@pytest.mark.parametrize(("red_wins", "balanced"), [(17, False), (18, True), (20, True),
                                                   (22, True), (23, False)])
def test_balanced_takes_in_both_edges_of_0_5_plus_minus_0_05(red_wins, balanced) -> None:
    games = [BalanceGame(seed, "red" if seed < red_wins else "blue", 10) for seed in range(40)]
    summary = summarize(games, OUTPOST, "heuristic")  # 22 of 40 is 0.55: on the edge, inside
    assert summary["balanced"] is balanced


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "outpost", "--games", "0"], "--games: must be from 1 to 100,000, not 0"),
        (["balance", "level-03"], "pits sides against each other"),
        (["balance", "outpost", "--ai", "alphazero"], "unknown AI 'alphazero'"),
    ],
)
def test_bad_balance_arguments_are_one_sentence(capsys, argv: list[str], message: str) -> None:
    code, _out, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_generate_balanced_keeps_a_map_only_when_balance_calls_it_balanced(capsys,
                                                                           tmp_path) -> None:
    out = tmp_path / "gen.png"
    code, stdout, err = run_cli(capsys, "generate", "skirmish", "--size", "12", "--out",
                                str(out), "--balanced", "--balance-games", "2", "--tries", "1",
                                "--seed", "7")
    plain = tmp_path / "plain.png"
    assert run_cli(capsys, "generate", "skirmish", "--size", "12", "--out", str(plain),
                   "--seed", "7")[0] == 0
    judged = json.loads(run_cli(capsys, "balance", str(plain), "--games", "2", "--json",
                                "--heatmap", str(tmp_path / "h.png"))[1])
    if judged["balanced"]:
        assert code == 0 and out.is_file() and "in 2 games" in stdout
        assert out.read_bytes() == plain.read_bytes()
    else:
        assert code == 2 and "no balanced map in 1 tries" in err
        assert not out.exists()


CROSSING = str(MAPS / "crossing.png")
# Where crossing departs from its point mirror (x, y) -> (15 - x, 15 - y), the fix for red's
# 0.31: the river runs to the east edge (one ford, at the west edge, by red's base) and one rock
# on blue's bank at the west edge; and the fix for red's 0.65 once the heuristic pushed words:
# blue's BLOCK IS PUSH and its block one row further from the river (row 11, not 10), so red's
# WATER IS STOP and block at (5..8, 5) face empty cells. docs/ai.md "Map balance" has the
# figures this rests on.
CROSSING_UNMIRRORED = {(15, 7): "water", (15, 8): "water", (0, 13): "rock",
                       (7, 11): "text", (8, 11): "text", (9, 11): "text", (10, 11): "block",
                       (5, 5): "block", (6, 5): "text", (7, 5): "text", (8, 5): "text"}


def _things(engine) -> dict[tuple[int, int], set[tuple[str, str, str]]]:
    world = engine.world
    cells: dict[tuple[int, int], set[tuple[str, str, str]]] = defaultdict(set)
    for entity, (pos, kind) in world.query(Position, Kind):
        team, cls = world.try_get(entity, Team), world.try_get(entity, UnitClass)
        cells[(pos.x, pos.y)].add((kind.name, team.side if team else "", cls.name if cls else ""))
    return cells


def test_crossing_is_its_own_point_mirror_but_for_the_east_ford_a_rock_and_blues_words() -> None:
    cells = _things(load_engine(CROSSING))
    swap = {"red": "blue", "blue": "red", "": ""}
    odd = {}
    for (x, y), things in cells.items():
        mirrored = {(kind, swap[side], cls) for kind, side, cls in cells.get((15 - x, 15 - y), ())}
        if things != mirrored:
            odd[(x, y)] = sorted(kind for kind, _side, _cls in things)
    assert odd == {cell: [kind] for cell, kind in CROSSING_UNMIRRORED.items()}


def test_crossing_has_one_way_across_the_river_and_it_is_the_west_edge() -> None:
    cells = _things(load_engine(CROSSING))
    blocked = {cell for cell, things in cells.items()
               if {kind for kind, _s, _c in things} & {"water", "rock", "wall"}}

    def reachable(closed: set[tuple[int, int]]) -> set[tuple[int, int]]:
        seen, todo = {(1, 1)}, [(1, 1)]  # from red's HQ
        while todo:
            x, y = todo.pop()
            for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if (0 <= nxt[0] < 16 and 0 <= nxt[1] < 16 and nxt not in seen
                        and nxt not in blocked | closed):
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    assert (14, 14) in reachable(set())  # blue's HQ, over the west ford
    assert (14, 14) not in reachable({(0, 7)})  # and no other way while WATER IS STOP
    assert {(15, 7), (15, 8)} <= blocked


@pytest.mark.slow  # 120 games on one core: about 9 s at load 2, more on a shared machine
def test_crossing_stays_balanced_for_heuristic_against_itself() -> None:
    """Seeds 21000-21119 are half of the fresh seeds the map was judged on (0.458 over
    21000-21239, after blue's words moved back a row); a change to the rules or the heuristic
    that tips the map shows up here (the heuristic's word pushes took it to 0.65)."""
    summary = summarize(run_balance(CROSSING, "heuristic", 120, 21000), CROSSING, "heuristic")
    lo, hi = summary["sides"]["red"]["ci95"]
    assert lo <= 0.5 <= hi, summary["sides"]["red"]


FORD = str(MAPS / "ford.png")


@functools.cache
def ford_game_with_a_rule_change() -> BalanceGame:
    """The first game of heuristic against itself on ford, from seed 36, in which a rule
    changes (seed 36 itself when this was written: blue broke WATER IS STOP, red spelled it
    again)."""
    for seed in range(36, 56):
        game = play_balance_game(FORD, "heuristic", seed=seed)
        if game.rules:
            return game
    raise AssertionError("no rule changed in 20 heuristic games on ford")


def test_rule_changes_are_counted_as_the_games_events_tell_them() -> None:
    game = ford_game_with_a_rule_change()
    told: list[tuple[str, str, str]] = []
    mover = ["red"]

    def count(engine, _command) -> None:  # the same game through the match loop
        for event in engine.history[-1].events:
            if isinstance(event, RuleFormed | RuleBroken):
                told.append((event.rule, "formed" if isinstance(event, RuleFormed) else "broken",
                             mover[0]))
        mover[0] = engine.side

    _engine, result = run_match(FORD, {"red": "heuristic", "blue": "heuristic"}, game.seed,
                                on_command=count)
    assert result.winner == game.winner
    assert game.rules == told != []


def test_each_rule_change_is_scored_by_the_result_of_the_side_that_made_it() -> None:
    games = [BalanceGame(1, "red", 9, rules=[("WATER IS STOP", "broken", "red"),
                                             ("WATER IS STOP", "formed", "blue"),
                                             ("WATER IS STOP", "broken", "red")]),
             BalanceGame(2, "blue", 9, rules=[("WATER IS STOP", "broken", "red"),
                                              ("WATER IS STOP", "broken", "blue")]),
             BalanceGame(3, DRAW, 9, rules=[("BLUE IS WEAK", "formed", "red")]),
             BalanceGame(4, "red", 9)]
    s = summarize(games, FORD, "heuristic")
    assert s["rule_games"] == 3
    broken = s["rules"]["WATER IS STOP"]["broken"]
    # red broke it in games 1 (won) and 2 (lost), blue in game 2 (won): 2 of 3
    assert broken == {"times": 4, "games": 2, "by_side": {"red": 3, "blue": 1},
                      "changers": 3, "score": round(2 / 3, 4)}
    assert s["rules"]["WATER IS STOP"]["formed"]["score"] == 0.0  # blue lost game 1
    assert s["rules"]["BLUE IS WEAK"]["formed"]["score"] == 0.5  # a draw
    text = balance_text(s)
    assert "rules changed in 3 of 4 games" in text
    assert any(line.split()[:5] == ["WATER", "IS", "STOP", "broken", "4"]
               for line in text.splitlines())


def test_balance_from_the_command_line_reports_the_rule_changes(tmp_path) -> None:
    game = ford_game_with_a_rule_change()
    heat = tmp_path / "ford-deaths.png"
    run = subprocess.run([sys.executable, "-m", "game", "balance", "ford", "--games", "1",
                          "--seed", str(game.seed), "--json", "--heatmap", str(heat)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)
    assert s["rule_games"] == 1
    assert s["rules"] == summarize([game], FORD, "heuristic")["rules"]
    for rule, change, side in game.rules:
        assert s["rules"][rule][change]["by_side"][side] >= 1
    run = subprocess.run([sys.executable, "-m", "game", "balance", "ford", "--games", "1",
                          "--seed", str(game.seed), "--heatmap", str(heat)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0 and "rules changed in 1 of 1 games" in run.stdout
    assert game.rules[0][0] in run.stdout
    run = subprocess.run([sys.executable, "-m", "game", "balance", "outpost", "--games", "1",
                          "--heatmap", str(heat)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0 and "no rule was formed or broken" in run.stdout
