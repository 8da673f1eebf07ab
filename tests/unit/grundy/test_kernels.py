"""The Grundy kernels: the C library is built once per machine and cached, falls back to a user
cache folder and then to numba, every build computes the same values and periods, and the
period search agrees with the Z-function definition it replaced."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from game.grundy import kernels, native
from game.grundy.codes import parse_code
from game.grundy.periodicity import find_period
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
    moves = array("q", [1])
    with pytest.raises(TypeError):
        kernels.dense_extend(array("q", bytes(80)), 1, 5, moves, moves, moves)
    with pytest.raises(TypeError):
        kernels.dense_extend(array("B", bytes(10)), 1, 5, array("i", [1]), moves, moves)


@pytest.mark.parametrize("code", ["0.6", "0.137", "0.16", "0.77", "0.127", "0.4"])
def test_the_c_kernels_match_the_reference_in_both_methods(code):
    game = parse_code(code)
    solver = Solver(game)
    assert solver.extend_to(4001).tolist() == grundy_reference(game, 4000)


def test_values_start_one_byte_wide_and_widen_when_a_value_passes_255():
    solver = Solver(parse_code("0.6"))
    assert solver.extend_to(10_000).typecode == "B"
    values = solver.extend_to(12_000)  # Officers reaches 256 at heap 10 344
    assert values.typecode == "H" and max(values) > 255
    assert values.tolist()[:10_000] == Solver(parse_code("0.6")).extend_to(10_000).tolist()


@pytest.mark.parametrize("typecode", ["H", "I"])
@pytest.mark.parametrize("code", ["0.6", "0.16", "0.127"])
def test_the_kernels_give_the_same_values_in_wider_arrays(code, typecode):
    game = parse_code(code)
    solver = Solver(game)
    solver.values = array(typecode, solver.values)  # as if a value had needed the room
    assert solver.extend_to(3001).tolist() == grundy_reference(game, 3000)


def z_function(s):
    """z[i] = length of the longest common prefix of s and s[i:], by its definition."""
    z = []
    for i in range(len(s)):
        k = 0
        while i + k < len(s) and s[k] == s[i + k]:
            k += 1
        z.append(k)
    return z


def by_definition(values, max_take):
    """The old Z-function formulas: (proven period, preperiod, needed) and (promising
    period, needed), each None when there is none."""
    last = len(values) - 1
    z = z_function(values[::-1])
    proven = promising = None
    for p in range(1, last + 1):
        preperiod = last - z[p] - p + 1
        needed = 2 * preperiod + 2 * p + max_take
        if proven is None and needed <= len(values):
            proven = (p, preperiod, needed)
        if z[p] >= p and (promising is None or needed < promising[1]):
            promising = (p, needed)
    return proven, promising


def sequences():
    rng = random.Random(7)
    for _ in range(300):
        size, alphabet = rng.randint(1, 60), rng.choice([1, 2, 3, 300, 70_000])
        if rng.random() < 0.5:  # periodic tails, where the search has something to find
            period = rng.randint(1, 8)
            head = [rng.randrange(alphabet) for _ in range(rng.randint(0, 12))]
            cycle = [rng.randrange(alphabet) for _ in range(period)]
            yield head + [cycle[i % period] for i in range(size)], rng.randint(0, 4)
        else:
            yield [rng.randrange(alphabet) for _ in range(size)], rng.randint(0, 4)
    for code in ("0.07", "0.137", "0.16", "0.6"):
        values = Solver(parse_code(code)).extend_to(700).tolist()
        for size in (50, 177, 400, 700):
            yield values[:size], parse_code(code).max_take


def test_the_period_search_agrees_with_the_z_function_definition_in_every_width():
    for values, max_take in sequences():
        proven, promising = by_definition(values, max_take)
        for typecode in "BHI":
            if max(values) > kernels.LARGEST[typecode]:
                continue
            g = array(typecode, values)
            found = kernels.proven_period(g, len(g), max_take)
            assert (found if found[0] else None) == proven, (values, max_take)
            best = kernels.promising(g, len(g), max_take)
            assert (best if best[0] else None) == promising, (values, max_take)


def test_a_proven_period_is_the_smallest_that_fits_its_window():
    values = array("B", [5, 1, 2, 3] + [0, 1, 2] * 30)  # G(n) = G(n - 3) from n = 7
    found = find_period(values, 2)
    assert found is not None and (found.period, found.preperiod) == (3, 4)


SCRIPT = """
import json, sys
from game.grundy.codes import parse_code
from game.grundy.periodicity import prove_period
from game.grundy.solver import Solver
out = {}
for code in ("0.6", "0.16", "0.137", "0.77"):
    values = Solver(parse_code(code)).extend_to(12001 if code == "0.6" else 3001)
    proof = prove_period(parse_code(code), 20000)
    out[code] = [values.tolist(), values.typecode,
                 proof.period and [proof.period.preperiod, proof.period.period],
                 proof.candidate, proof.computed]
print(json.dumps([out, "numba" in sys.modules, "numpy" in sys.modules]))
"""


def run_with(choice: str) -> tuple[dict, bool, bool]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), native.CHOICE: choice}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out, numba_loaded, numpy_loaded = json.loads(done.stdout)
    return out, numba_loaded, numpy_loaded


@pytest.mark.slow  # numba compiles the fallback kernels on a fresh machine (~10 s)
def test_the_numba_fallback_and_the_c_kernels_give_the_same_values_and_periods():
    jit, jit_used_numba, _ = run_with("numba")
    c, c_used_numba, c_used_numpy = run_with("native")
    assert jit_used_numba
    assert (c_used_numba, c_used_numpy) == (False, False) or not HAVE_CC
    assert jit == c
    assert jit["0.6"][1] == "H"  # past heap 10 344 both widened the values to two bytes


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
