"""The Grundy kernels: the C library is built once per machine and cached, falls back to a user
cache folder and then to numba, and every build computes the same values."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from game.grundy import kernels, native
from game.grundy.codes import parse_code
from game.grundy.solver import Solver, grundy_reference

ROOT = Path(__file__).resolve().parents[3]
HAVE_CC = native._compiler() is not None


def test_the_c_kernels_load_whenever_a_c_compiler_is_there():
    assert (native.load() is not None) == HAVE_CC


def fresh_load(monkeypatch, folders):
    monkeypatch.setattr(native, "cache_folders", lambda: folders)
    monkeypatch.setattr(native, "_loaded", [])
    return native.load()


@pytest.mark.skipif(not HAVE_CC, reason="needs a C compiler")  # the numba test covers the rest
def test_the_library_is_built_on_first_use_then_loaded_without_building(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    assert fresh_load(monkeypatch, [folder]) is not None
    built = list(folder.glob("grundy-kernels-*.so"))
    assert len(built) == 1
    stamp = built[0].stat().st_mtime_ns
    monkeypatch.setattr(native, "_build", lambda *_: pytest.fail("built twice"))
    assert fresh_load(monkeypatch, [folder]) is not None
    assert built[0].stat().st_mtime_ns == stamp


@pytest.mark.skipif(not HAVE_CC, reason="needs a C compiler")
def test_a_folder_that_cannot_be_written_falls_back_to_the_next(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where a folder should be")
    spare = tmp_path / "user-cache"
    assert fresh_load(monkeypatch, [blocked / "sub", spare]) is not None
    assert len(list(spare.glob("grundy-kernels-*.so"))) == 1


def test_without_a_compiler_there_is_no_library_and_the_solver_still_works(monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    monkeypatch.setattr(native, "cache_folders", lambda: [])
    monkeypatch.setattr(native, "_loaded", [])
    assert native.load() is None


def test_the_kernels_refuse_arrays_of_the_wrong_type():
    if native.load() is None:
        pytest.skip("the numba build types its own arguments")
    moves = np.array([1], np.int64)
    with pytest.raises(TypeError):
        kernels.dense_extend(np.zeros(10, np.int64), 1, 5, moves, moves, moves)


@pytest.mark.parametrize("code", ["0.6", "0.137", "0.16", "0.77", "0.127", "0.4"])
def test_the_c_kernels_match_the_reference_in_both_methods(code):
    game = parse_code(code)
    solver = Solver(game)
    assert solver.extend_to(4001).tolist() == grundy_reference(game, 4000)


def test_the_z_function_matches_its_definition():
    rng = np.random.default_rng(7)
    s = rng.integers(0, 3, 300).astype(np.int32)
    z = kernels.z_function(s)
    for i in range(s.size):
        k = 0
        while i + k < s.size and s[k] == s[i + k]:
            k += 1
        assert z[i] == k


SCRIPT = """
import json, sys
from game.grundy.codes import parse_code
from game.grundy.periodicity import prove_period
from game.grundy.solver import Solver
out = {}
for code in ("0.6", "0.16", "0.137", "0.77"):
    values = Solver(parse_code(code)).extend_to(3001)
    proof = prove_period(parse_code(code), 20000)
    out[code] = [values.tolist(), proof.period and [proof.period.preperiod, proof.period.period]]
print(json.dumps([out, "numba" in sys.modules]))
"""


def run_with(choice: str) -> tuple[dict, bool]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), native.CHOICE: choice}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out, numba_loaded = json.loads(done.stdout)
    return out, numba_loaded


@pytest.mark.slow  # numba compiles the fallback kernels on a fresh machine (~10 s)
def test_the_numba_fallback_and_the_c_kernels_give_the_same_values_and_periods():
    jit, jit_used_numba = run_with("numba")
    c, c_used_numba = run_with("native")
    assert jit_used_numba
    assert c_used_numba is False or not HAVE_CC
    assert jit == c


def test_a_compiler_that_fails_is_remembered_so_later_runs_do_not_compile_again(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CC", str(tmp_path / "broken-cc"))
    (tmp_path / "broken-cc").write_text("#!/bin/sh\nexit 1\n")
    (tmp_path / "broken-cc").chmod(0o755)
    folder = tmp_path / "cache"
    assert fresh_load(monkeypatch, [folder]) is None
    assert len(list(folder.glob("grundy-kernels-*.failed"))) == 1
    monkeypatch.setattr(native, "_build", lambda *_: pytest.fail("compiled again"))
    assert fresh_load(monkeypatch, [folder]) is None
