"""`rulefront bench server`: bot games against a real `rulefront serve` on loopback."""

from __future__ import annotations

from game.bench import GROUPS
from tests.helpers import run_json


def test_bench_server_plays_concurrent_games_and_reports_rate_and_latency(capsys):
    assert "server" in GROUPS
    figures = run_json(capsys, "bench", "server", "--repeat", "1", "--games", "3", "--json")
    assert set(figures) == {"server.concurrent_games", "server.commands_per_s",
                            "server.p50_ms", "server.p99_ms"}
    assert figures["server.concurrent_games"] == 3
    assert figures["server.commands_per_s"] > 0
    assert 0 < figures["server.p50_ms"] <= figures["server.p99_ms"]
