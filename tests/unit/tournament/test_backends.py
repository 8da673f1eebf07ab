"""Backends for many games: map bytes, the same games everywhere, retries, results, Ctrl-C."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from game.cli import main
from game.levels.maps import load_map, map_from_bytes, sidecar_path
from game.session.replay import read_record, verify
from game.tournament.backends import (
    Interrupted,
    LocalBackend,
    TaskResult,
    _accept,
    map_content,
    play_task,
    run_games,
)
from game.tournament.games import summarize_match, summarize_tournament
from game.tournament.results import recorded
from tests.helpers import OUTPOST, comparable, outpost_games, run_cli, run_json


def test_a_map_built_from_bytes_is_the_map_loaded_from_disk() -> None:
    path = Path(OUTPOST)
    disk = load_map(path)
    sent = map_from_bytes(path.read_bytes(), sidecar_path(path).read_bytes(), OUTPOST)
    assert (sent.sha256, sent.sidecar, sent.cells, sent.path) == (
        disk.sha256, disk.sidecar, disk.cells, disk.path)


def test_a_game_task_needs_no_map_file(tmp_path, monkeypatch) -> None:
    content = map_content(OUTPOST)
    monkeypatch.chdir(tmp_path)  # the map path means nothing here; the bytes travel
    result = play_task(outpost_games(1)[0], replace(content, label="elsewhere/outpost.png"))
    assert isinstance(result, TaskResult) and result.outcome.winner in ("red", "blue", "draw")
    assert json.loads(result.record)["map"] == content.portable


def test_one_worker_and_a_pool_play_the_same_games() -> None:
    one = run_games(outpost_games(), workers=1)
    two = run_games(outpost_games(), workers=2)
    assert [comparable(o) for o in one] == [comparable(o) for o in two]


def test_the_driver_writes_replays_that_verify(tmp_path) -> None:
    outcomes = run_games(outpost_games(2, str(tmp_path)), workers=2)
    for outcome in outcomes:
        record = read_record(Path(outcome.replay))
        assert verify(record)["verified"] and record.map_path == map_content(OUTPOST).portable


def test_a_replay_damaged_on_the_way_back_is_refused() -> None:
    spec = outpost_games(1)[0]
    result = play_task(spec, map_content(OUTPOST))
    result.record = result.record.replace('"seed"', '"Seed"')
    assert "sha256 does not match" in _accept(spec, result)


@pytest.mark.parametrize(
    ("workers", "fault", "error"),
    [
        (1, "raise-once", None),
        (1, "raise", "failed twice: RuntimeError: injected fault on attempt 2"),
        (2, "exit-once", None),
        (2, "exit", "failed twice: its worker process died"),
    ],
)
def test_a_failing_game_is_retried_once_then_reported(workers, fault, error) -> None:
    outcomes = run_games(outpost_games(), workers=workers, faults={1: fault})
    assert [o.index for o in outcomes] == [0, 1, 2, 3]
    assert outcomes[1].error == error
    assert all(o.error is None for o in outcomes if o.index != 1)
    if error:
        assert outcomes[1].winner == "error"
        assert summarize_match(outcomes, "heuristic", "random")["errors"] == 1


def test_errors_are_counted_per_pairing_in_the_tournament_summary() -> None:
    outcomes = run_games(outpost_games(), faults={0: "raise", 2: "raise"})
    summary = summarize_tournament(outcomes, ["heuristic", "random"])
    assert summary["games"] == 2
    assert summary["errors"] == [{"map": OUTPOST, "pair": ["heuristic", "random"], "errors": 2,
                                  "games": [1, 3],
                                  "error": "failed twice: RuntimeError: injected fault on "
                                           "attempt 2"}]


def test_resume_plays_only_the_games_not_yet_recorded(tmp_path, capsys) -> None:
    results = tmp_path / "games.jsonl"
    common = ["tournament", "--ais", "heuristic,random", "--maps", OUTPOST, "--seed", "3",
              "--json", "--results", str(results)]
    assert run_cli(capsys, *common, "--games", "2")[0] == 0
    with results.open("a") as handle:
        handle.write('{"index": 9, "torn')  # a crash mid-line
    six = outpost_games(6)
    kept = recorded(results, six)
    assert [o.index for o in kept] == [0, 1]
    # the recorded games would fail if they were played again
    outcomes = run_games(six, done=kept, faults={0: "raise", 1: "raise"})
    assert all(o.error is None for o in outcomes)
    assert run_json(capsys, *common, "--games", "6", "--resume")["games"] == 6
    assert len(results.read_text().splitlines()) == 6


def test_a_results_file_is_appended_to_and_never_emptied(tmp_path, capsys) -> None:
    results = tmp_path / "games.jsonl"
    common = ["tournament", "--ais", "heuristic,random", "--maps", OUTPOST, "--games", "2",
              "--json", "--results", str(results)]
    assert run_cli(capsys, *common, "--seed", "3")[0] == 0
    first = results.read_text()
    with results.open("a") as handle:
        handle.write('{"index": 9, "torn')  # a crash mid-line
    assert run_cli(capsys, *common, "--seed", "4")[0] == 0  # no --resume: appended
    lines = results.read_text().splitlines(keepends=True)
    assert "".join(lines[:2]) == first and len(lines) == 4 and "torn" not in "".join(lines)
    assert [o.seed for o in recorded(results, outpost_games(2))] == [3, 3]
    code, _, err = run_cli(capsys, *common[:-1], str(tmp_path / "no" / "such" / "r.jsonl"))
    assert code == 2 and "cannot append to the results file" in err


def test_a_recorded_game_with_another_seed_is_played_again(tmp_path) -> None:
    results = tmp_path / "games.jsonl"
    assert main(["match", OUTPOST, "--red", "heuristic", "--games", "2", "--json",
                 "--results", str(results)]) == 0
    assert recorded(results, outpost_games(2)) == []  # seed 3, recorded with seed 0


class InterruptingBackend(LocalBackend):
    """Plays one game, then behaves as if Ctrl-C came."""

    def __init__(self) -> None:
        super().__init__(1)
        self.cancelled: list = []

    def wait(self, handles):
        if self.count > 1:
            raise KeyboardInterrupt
        return super().wait(handles)

    def cancel(self, handles):
        self.cancelled = handles


def test_ctrl_c_cancels_the_rest_and_keeps_what_finished() -> None:
    backend = InterruptingBackend()
    with pytest.raises(Interrupted) as stop:
        run_games(outpost_games(), backend=backend)
    assert [o.index for o in stop.value.outcomes] == [0] and len(backend.cancelled) == 1


def test_ctrl_c_prints_the_partial_table_and_exits_130(capsys, monkeypatch, tmp_path) -> None:
    # The CLI imports the backends when it plays, so the patch goes where it reads them from.
    monkeypatch.setattr("game.tournament.backends.make_backend", lambda *a: InterruptingBackend())
    code, out, err = run_cli(capsys, "tournament", "--ais", "heuristic,random", "--maps", OUTPOST,
                             "--games", "4", "--results", str(tmp_path / "r.jsonl"))
    assert code == 130 and out.startswith("1 games on")
    assert "interrupted: 1 of 4 games finished; --resume from" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tournament", "--resume"], "--resume needs --results FILE"),
        (["match", "--red", "heuristic", "--games", "2", "--address", "auto"], "--address only applies to --backend"),
    ],
)
def test_bad_backend_options_are_one_sentence(capsys, argv, message) -> None:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and message in err


def test_the_ray_backend_without_ray_says_how_to_install_it(capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    code, _, err = run_cli(capsys, "match", OUTPOST, "--red", "heuristic", "--games", "2",
                           "--backend", "ray")
    assert code == 2
    assert "the ray backend needs Ray: pip install -e '.[cluster]'" in err
