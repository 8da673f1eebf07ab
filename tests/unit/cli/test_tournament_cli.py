"""Multi-game matches and tournaments on the command line: JSON shapes, files written, bad seats."""

from __future__ import annotations

import pytest

from game.session.replay import read_record, verify
from tests.helpers import OUTPOST, run_cli, run_json


def test_match_games_json_has_the_documented_shape(capsys, tmp_path) -> None:
    out = run_json(capsys, "match", OUTPOST, "--red", "heuristic", "--blue", "random",
                   "--games", "2", "--json", "--replays", str(tmp_path))
    assert out["games"] == 2
    assert set(out["results"]) == {"heuristic", "random"}
    assert {"wins", "draws", "losses", "score", "ci95"} <= set(out["results"]["heuristic"])
    assert {"difference", "ci95"} <= set(out["elo"])
    replays = sorted(tmp_path.glob("*.json"))
    assert len(replays) == 2
    assert verify(read_record(replays[0]))["verified"]


def test_a_single_match_keeps_its_json_shape(capsys) -> None:
    out = run_json(capsys, "match", OUTPOST, "--red", "heuristic", "--json")
    assert set(out) == {"winner", "reason", "rounds", "commands", "seed"}


def test_tournament_writes_csv_and_plot(capsys, tmp_path) -> None:
    csv_path, png_path = tmp_path / "games.csv", tmp_path / "ratings.png"
    out = run_json(capsys, "tournament", "--ais", "random,heuristic", "--maps", OUTPOST,
                   "--games", "2", "--json", "--csv", str(csv_path), "--plot", str(png_path))
    assert out["games"] == 2
    assert len(csv_path.read_text().splitlines()) == 3
    assert png_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["match", "--red", "alphazero", "--games", "2"], "unknown AI 'alphazero'; known AIs:"),
        (["match", "--red", "minimax:depht=2", "--games", "2"], "its options: think, nodes"),
        (["match", "--red", "minimax:think=fast"], "option think must be a number"),
        (["match", "--games", "0"], "--games: must be from 1 to 100,000, not 0"),
        (["tournament", "--maps", "nowhere/*.png"], "matches no file"),
        (["tournament", "--ais", "random"], "at least two different AIs"),
    ],
)
def test_bad_seats_and_counts_are_one_sentence(capsys, argv, message) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and message in err and "Traceback" not in err
