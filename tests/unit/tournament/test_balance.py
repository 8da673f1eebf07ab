"""Map balance: the report's numbers add up, the heatmap is the map's size, bad input is refused,
and `generate skirmish --balanced` keeps only a map the balance report calls balanced."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from game.tournament.balance import play_balance_game, summarize
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
    assert s["balanced"] == (abs(red["score"] - 0.5) <= 0.05)
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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "outpost", "--games", "0"], "--games: must be 1 or more, not 0"),
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
