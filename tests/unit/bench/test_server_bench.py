"""`rulefront bench server`: bot games against a real `rulefront serve` on loopback."""

from __future__ import annotations

from game.bench import GROUPS
from tests.helpers import run_json

RUN = {"concurrent_games", "think_ms", "commands_per_s", "p50_ms", "p99_ms",
       "cpu_ms_per_command", "client_cpu_ms_per_command"}


def test_bench_server_reports_paced_games_beside_the_saturated_closed_loop(capsys):
    assert "server" in GROUPS
    figures = run_json(capsys, "bench", "server", "--repeat", "1", "--games", "3",
                       "--think-ms", "10", "--json")
    closed = RUN - {"concurrent_games", "think_ms"}
    assert set(figures) == ({f"server.{key}" for key in RUN}
                            | {f"server.closed_loop.{key}" for key in closed})
    assert figures["server.concurrent_games"] == 3
    assert figures["server.think_ms"] == 10
    for prefix in ("server.", "server.closed_loop."):
        assert figures[prefix + "commands_per_s"] > 0
        assert 0 < figures[prefix + "p50_ms"] <= figures[prefix + "p99_ms"]
        assert figures[prefix + "cpu_ms_per_command"] >= 0  # counted in 10 ms ticks
        assert figures[prefix + "client_cpu_ms_per_command"] > 0
