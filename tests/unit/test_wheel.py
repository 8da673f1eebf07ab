"""The wheel carries data/ and maps/, and the game it installs finds them from any folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from game import ROOT

# What a developer's checkout may hold that a clean clone would not.
NOT_IN_A_CLONE = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", ".*_cache", ".hypothesis",
                                        "build", "dist", "*.egg-info")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built by pip from a copy of this checkout (a stale build/ never leaks in)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(ROOT, source, ignore=NOT_IN_A_CLONE)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp),
                    str(source)], check=True, capture_output=True)
    return next(tmp.glob("rulefront-*.whl"))


def test_the_wheel_holds_every_data_and_map_file_and_no_tests_or_caches(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"game/assets/data/palette.yaml", "game/assets/maps/duel.png"} <= names
    shipped = {f"game/assets/{p.relative_to(ROOT).as_posix()}"
               for folder in ("data", "maps") for p in (ROOT / folder).rglob("*") if p.is_file()
               and "__pycache__" not in p.parts}
    assert shipped - names == set()
    assert [n for n in names if n.startswith("tests/") or "__pycache__" in n
            or n.endswith(".pyc")] == []


def test_the_wheel_carries_the_spectator_page_as_it_is_in_the_source(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    web = ROOT / "game" / "net" / "web"
    page = {f"game/net/web/{p.relative_to(web).as_posix()}" for p in web.rglob("*")
            if p.is_file()}
    assert {"game/net/web/watch.html", "game/net/web/static/watch.js"} <= page
    assert page - names == set()


def test_the_unpacked_wheel_reads_its_own_maps_from_an_empty_folder(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    empty = tmp_path / "empty"
    empty.mkdir()
    # PYTHONPATH comes before the editable install's finder, so this runs the wheel's game.
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run(
        [sys.executable, "-c", "import game, json; print(json.dumps([str(game.DATA), "
         "str(game.MAPS), game.__file__]))"],
        cwd=empty, env=env, check=True, capture_output=True, text=True)
    data, maps, module = json.loads(where.stdout)
    assert (data, maps) == (str(site / "game/assets/data"), str(site / "game/assets/maps"))
    assert module == str(site / "game" / "__init__.py")
    played = subprocess.run([sys.executable, "-m", "game", "match", "duel", "--json"],
                            cwd=empty, env=env, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["winner"] in ("red", "blue", "draw")


def test_the_wheel_carries_the_kernel_source_and_builds_it_where_it_is_installed(wheel, tmp_path):
    assert "game/grundy/kernels.c" in zipfile.ZipFile(wheel).namelist()
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    code = ("import json, sys; from game.cli import main; main(['grundy', '0.137', '--period', "
            "'--json']); print(json.dumps('numba' in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    proof, numba_loaded = done.stdout.splitlines()
    assert (json.loads(proof)["period"], json.loads(numba_loaded)) == (34, False)
    built = list((site / "game" / "grundy" / "__pycache__").glob("grundy-kernels-*.so"))
    assert len(built) == 1
