"""`rulefront grundy`: output forms, files written, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.cli import main
from tests.helpers import run_cli, run_json


def test_json_prints_code_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "grundy", "0.137", "--n", "5", "--json")
    assert out["code"] == "0.137" and out["values"] == [0, 1, 1, 2, 0, 3]


def test_period_json_reports_preperiod_period_and_proof(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "grundy", "0.07", "--period", "--json")
    assert (out["preperiod"], out["period"], out["proven"]) == (53, 34, True)


def test_unproven_period_says_so_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "grundy", "0.6", "--period", "--max-n", "500")
    assert code == 0 and "no period proven" in out


def test_nim_period_says_it_never_becomes_periodic(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "grundy", "nim", "--period")
    assert code == 0 and "never periodic" in out


def test_bad_code_is_one_line_on_stderr_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "grundy", "0.8", "--n", "3")
    assert code == 2
    assert err.count("\n") == 1 and "'0.8'" in err


def test_csv_and_plot_files_are_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv, png = tmp_path / "g.csv", tmp_path / "g.png"
    assert main(["grundy", "0.137", "--n", "3", "--csv", str(csv), "--plot", str(png)]) == 0
    assert csv.read_text().splitlines() == ["n,g", "0,0", "1,1", "2,1", "3,2"]
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.csv", "g.png"]


def test_plot_into_a_missing_folder_is_a_user_error(tmp_path: Path) -> None:
    assert main(["grundy", "0.137", "--n", "3", "--plot", str(tmp_path / "no" / "g.png")]) == 2


def test_without_max_n_a_proof_stops_where_memory_would_run_out(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from game.grundy import periodicity

    monkeypatch.setattr(periodicity, "available_memory", lambda: 6000 * periodicity.BYTES_PER_HEAP)
    code, out, _ = run_cli(capsys, "grundy", "0.6", "--period")
    assert code == 0
    assert out.count("\n") == 1
    assert "no period proven within G(0..5999)" in out and "GB of memory" in out
    out_json = run_json(capsys, "grundy", "0.6", "--period", "--json")
    assert (out_json["proven"], out_json["n"], out_json["limit"]) == (False, 6000, "memory")


def test_a_period_within_the_memory_limit_is_proven_without_a_flag(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from game.grundy import periodicity

    # 0.127 needs 93 167 heaps: past the old first checks, within a 100 000-heap memory.
    monkeypatch.setattr(periodicity, "available_memory", lambda: 100_000 * periodicity.BYTES_PER_HEAP)
    out = run_json(capsys, "grundy", "0.127", "--period", "--json")
    assert (out["preperiod"], out["period"], out["proven"]) == (46578, 4, True)


def test_max_n_still_caps_a_proof_and_the_sentence_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "grundy", "0.16", "--period", "--max-n", "3000")
    assert code == 0 and "G(0..2999), the --max-n limit" in out


@pytest.mark.slow  # about 20 M values: 20-60 s on two shared cores
def test_0354_proves_with_no_flag(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "grundy", "0.354", "--period", "--json")
    assert out["proven"] is True and out["n"] > 10_000_000
