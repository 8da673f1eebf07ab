"""The Ray backend against a local Ray: the same games as local, retries, Ctrl-C (marked ray)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from game.tournament.backends import Interrupted, RayBackend, run_games
from tests.helpers import OUTPOST, comparable, outpost_games, run_json

try:
    import ray
except ImportError:
    if os.environ.get("CI"):
        raise  # CI installs the cluster extra: these tests must run there
    pytest.skip("Ray is not installed (pip install -e '.[cluster]')", allow_module_level=True)

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One small local Ray for the module; the backends find it running and leave it be."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    yield
    ray.shutdown()


def test_local_and_ray_play_the_same_games_and_write_the_same_replays(tmp_path) -> None:
    local = run_games(outpost_games(4, str(tmp_path / "local")), workers=2)
    remote = run_games(outpost_games(4, str(tmp_path / "ray")), backend=RayBackend())
    assert [comparable(o) for o in local] == [comparable(o) for o in remote]
    for a, b in zip(local, remote, strict=True):
        assert Path(a.replay).read_bytes() == Path(b.replay).read_bytes()


def test_ray_retries_a_failing_game_once_then_reports_it() -> None:
    faults = {0: "raise-once", 1: "raise", 2: "exit-once", 3: "exit"}
    outcomes = run_games(outpost_games(4), backend=RayBackend(), faults=faults)
    assert [o.index for o in outcomes] == [0, 1, 2, 3]
    assert outcomes[0].error is None and outcomes[2].error is None
    assert outcomes[1].error == "failed twice: RuntimeError: injected fault on attempt 2"
    assert outcomes[3].error.startswith("failed twice: ") and outcomes[3].winner == "error"


class InterruptingRay(RayBackend):
    """Takes one finished game, then behaves as if Ctrl-C came."""

    def __init__(self) -> None:
        super().__init__()
        self.seen = 0
        self.cancelled: list = []

    def wait(self, handles):
        if self.seen:
            raise KeyboardInterrupt
        finished = super().wait(handles)
        self.seen += len(finished)
        return finished

    def cancel(self, handles):
        self.cancelled = list(handles)
        super().cancel(handles)


def test_ctrl_c_cancels_the_outstanding_ray_tasks() -> None:
    backend = InterruptingRay()
    with pytest.raises(Interrupted) as stop:
        run_games(outpost_games(6), backend=backend)
    assert 1 <= len(stop.value.outcomes) < 6
    assert len(backend.cancelled) == 6 - len(stop.value.outcomes)


def test_the_tournament_command_runs_on_ray(capsys) -> None:
    out = run_json(capsys, "tournament", "--ais", "heuristic,random", "--maps", OUTPOST,
                   "--games", "2", "--backend", "ray", "--json")
    assert out["games"] == 2
