"""Start-up: each command imports only what it uses, and `rulefront --help` imports no command."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import game.cli

ROOT = Path(__file__).resolve().parents[3]

# Heavy packages no light command may pull in; the later ones arrive with other commands.
HEAVY = ("numba", "numpy", "pyglet", "ray", "pyspiel", "textual", "pettingzoo", "gymnasium",
         "cma", "imageio", "msgspec", "pydantic", "torch", "llvmlite")

# This checkout first; PATH kept, since the Grundy kernels look for a C compiler on it.
ENV = {"PYTHONPATH": str(ROOT), "PATH": os.environ.get("PATH", "")}


def modules_after(code: str) -> set[str]:
    """The top-level packages imported by a fresh interpreter once `code` has run."""
    script = (f"import io, contextlib, json, sys\n{code}\n"
              "sys.__stdout__.write(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=ENV)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def run_main(argv: list[str]) -> str:
    return ("from game.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try: main({argv!r})\n"
            "    except SystemExit: pass")


def test_importing_the_command_line_and_building_its_parser_imports_no_heavy_package():
    loaded = modules_after("import game.cli; game.cli.build_parser()")
    assert loaded & {*HEAVY, "PIL", "yaml", "esper"} == set()


@pytest.mark.parametrize(("argv", "allowed"), [
    (["--help"], set()),
    (["map", "legend"], {"yaml", "msgspec"}),
    (["grundy", "nim", "--period"], set()),
    (["match", "--json"], {"yaml", "esper", "PIL", "msgspec"}),
])
def test_a_light_command_imports_only_what_it_uses(argv, allowed):
    loaded = modules_after(run_main(argv))
    assert loaded & {*HEAVY, "PIL", "yaml", "esper"} == allowed


def test_a_grundy_proof_loads_the_c_kernels_not_numba_nor_numpy():
    from game.grundy.native import _compiler

    fallback = set() if _compiler() else {"numba", "llvmlite", "numpy"}
    loaded = modules_after(run_main(["grundy", "0.137", "--period"]))
    assert loaded & {*HEAVY, "PIL", "yaml", "esper"} == fallback


def imported_by(argv: list[str]) -> set[str]:
    """The top-level packages `python -X importtime -m game ARGV` imports, as a user runs it."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "game", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=ENV)
    assert done.returncode == 0, done.stderr
    lines = [line.split("|")[-1] for line in done.stderr.splitlines()
             if line.startswith("import time:")]
    return {name.strip().split(".")[0] for name in lines[1:]}  # [0] is the header


@pytest.mark.parametrize("argv", [["grundy", "0.165", "--period"],
                                  ["grundy", "0.6", "--n", "20000"],
                                  ["grundy", "0.137", "--n", "50", "--json"]])
def test_a_small_grundy_job_imports_neither_numpy_nor_pillow(argv):
    from game.grundy.native import _compiler

    # Without a C compiler the kernels are numba's, which brings numpy; Pillow never comes.
    fallback = set() if _compiler() else {"numba", "llvmlite", "numpy"}
    loaded = imported_by(argv)
    assert {"game", "ctypes"} <= loaded  # the probe sees the job's own imports
    assert loaded & {"numpy", "PIL", "numba", "llvmlite"} == fallback


def test_a_plot_brings_pillow_when_it_is_asked_for(tmp_path):
    assert "PIL" in imported_by(["grundy", "0.137", "--n", "50", "--plot",
                                 str(tmp_path / "g.png")])


@pytest.mark.parametrize("name", game.cli.COMMANDS)
def test_each_summary_in_the_top_level_help_is_the_one_the_command_registers(name):
    sub = argparse.ArgumentParser().add_subparsers()
    importlib.import_module(f"game.cli.{name}").register(sub)
    helps = {action.dest: action.help for action in sub._choices_actions}
    assert game.cli.SUMMARIES.get(name, helps[name]) == helps[name]


def test_every_command_is_listed_by_the_top_level_help(capsys):
    with pytest.raises(SystemExit):
        game.cli.main(["--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in game.cli.COMMANDS)
    assert "Sprague-Grundy values" in out


def test_a_command_typed_first_gets_its_own_options_and_the_others_stay_names_only():
    parser = game.cli.build_parser("grundy")
    args = parser.parse_args(["grundy", "0.6", "--n", "5"])
    assert args.code == "0.6" and args.n == 5 and callable(args.func)
    with pytest.raises(SystemExit):
        parser.parse_args(["match", "--json"])  # not built: match's options are unknown here
