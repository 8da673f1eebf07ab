"""Tuning: CMA-ES improves a toy objective; candidates round-trip through weights files; the
command writes a weights file and a report whose numbers add up."""

from __future__ import annotations

import json

import pytest

from game.tournament.tune import cma_minimize, tuned_fields, weights_of, write_weights
from systems.ai import make_ai
from systems.ai.evaluate import heuristic_weights, heuristic_weights_file
from tests.helpers import OUTPOST, run_cli


def test_cma_es_improves_a_toy_objective() -> None:
    target = [0.8, -0.5, 0.3, 1.2]

    def objective(batch: list[list[float]]) -> list[float]:
        return [sum((xi - ti) ** 2 for xi, ti in zip(x, target, strict=True)) for x in batch]

    start = objective([[0.0] * 4])[0]
    mean, log = cma_minimize(objective, [0.0] * 4, 0.3, generations=25, popsize=8, seed=3)
    assert len(log) == 25
    assert objective([mean])[0] < start / 20
    # the same seed gives the same run
    assert cma_minimize(objective, [0.0] * 4, 0.3, 25, 8, 3)[0] == mean


def test_a_candidate_is_the_old_weights_scaled_and_reads_back_the_same(tmp_path) -> None:
    base = heuristic_weights()
    x = [0.0] * len(tuned_fields())
    assert weights_of(x, base) == base
    x[tuned_fields().index("kill")] = 0.5
    w = weights_of(x, base)
    assert w.kill == pytest.approx(base.kill * 1.6487, rel=1e-3)
    assert w.defend_radius == base.defend_radius  # a distance, never tuned
    path = tmp_path / "w.yaml"
    write_weights(path, w)
    assert heuristic_weights_file(str(path)) == w
    assert make_ai(f"heuristic:weights={path}").w == w


def test_tune_writes_weights_and_a_report_that_adds_up(capsys, tmp_path) -> None:
    out, report = tmp_path / "tuned.yaml", tmp_path / "report.json"
    code, stdout, _err = run_cli(capsys, "tune", "--maps", OUTPOST, "--games", "2",
                                 "--generations", "2", "--popsize", "2", "--validate", "4",
                                 "--out", str(out), "--report", str(report), "--json")
    assert code == 0
    printed = json.loads(stdout)
    assert printed == json.loads(report.read_text())
    assert [row["generation"] for row in printed["generations"]] == [1, 2]
    v = printed["validation"]
    assert v["wins"] + v["draws"] + v["losses"] == v["games"] == 4
    assert v["score"] == pytest.approx((v["wins"] + 0.5 * v["draws"]) / v["games"], abs=1e-4)
    lo, hi = v["ci95"]
    assert lo <= v["score"] <= hi
    assert v["ship"] == (lo > 0.5)
    assert heuristic_weights_file(str(out))  # a loadable weights file
    assert len(list((tmp_path / "tuned-candidates").glob("*.yaml"))) == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tune", "--games", "3"], "--games must be even"),
        (["tune", "--popsize", "1"], "--popsize: must be from 2 to 1,000, not 1"),
        (["tune", "--maps", "no-such-map"], "no-such-map"),
        (["tune", "--sigma", "0"], "--sigma: must be more than 0, not 0"),
    ],
)
def test_bad_tune_arguments_are_one_sentence(capsys, argv: list[str], message: str) -> None:
    code, _out, err = run_cli(capsys, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err
