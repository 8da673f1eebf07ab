"""The layers of docs/architecture.md hold: import-linter's contracts in pyproject.toml pass,
and the design's boundaries (no cycles, esper only in the World) are checked on every run."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys

import pytest

from game import ROOT

PACKAGES = ("game", "systems", "components")


def test_the_import_linter_contracts_are_kept():
    command = shutil.which("lint-imports")
    assert command is not None, "import-linter is a test dependency: pip install -e '.[test]'"
    done = subprocess.run([command, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "BROKEN" not in done.stdout


def test_game_keeps_at_most_twelve_modules_at_its_top():
    flat = sorted(p.name for p in (ROOT / "game").glob("*.py"))
    assert len(flat) <= 12, flat


def test_no_module_imports_a_private_name_of_the_world():
    offenders = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path == ROOT / "game" / "world.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module == "game.world" and any(
                        alias.name.startswith("_") for alias in node.names):
                    offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_the_command_line_imports_no_window_code_until_a_window_is_asked_for():
    code = ("import sys, game.cli; game.cli.build_parser(); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pyglet'))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_file_holds_a_leftover_merge_conflict():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout (an installed wheel)")
    markers = ("<<<<<<< ", ">>>>>>> ")
    for name in tracked.stdout.split():
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".yaml", ".txt", ".cfg"} or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            assert not line.startswith(markers), f"{name}:{number} holds a merge conflict marker"


# The packages that must ask the registry instead of naming a ruleset (docs/architecture.md,
# "Who may name a ruleset"): only the ruleset packages and the CLI's own options may.
RULESET_FREE = ("game/encoding", "game/openspiel", "game/envs", "game/text", "game/session",
                "game/tournament", "game/net", "systems/ai")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (a module's, a class's, a function's)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def test_no_package_outside_the_rulesets_names_a_ruleset():
    from game import registry

    names = set(registry.names())
    classes = {spec.factory.partition(":")[2] for spec in registry.specs()}
    words = "|".join(sorted(names))
    import re

    pattern = re.compile(rf"\b({words})\b", re.IGNORECASE)
    offenders = []
    for folder in RULESET_FREE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = _docstrings(tree)
            for node in ast.walk(tree):
                where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
                if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                        and id(node) not in skip and pattern.search(node.value):
                    offenders.append(f"{where} {node.value!r}")
                elif isinstance(node, ast.Name) and node.id in classes:
                    offenders.append(f"{where} {node.id}")
                elif isinstance(node, ast.alias) and node.name.split(".")[-1] in classes:
                    offenders.append(f"{where} imports {node.name}")
                elif isinstance(node, ast.ImportFrom) and node.module \
                        and node.module.startswith("game.rulesets."):
                    offenders.append(f"{where} imports {node.module}")
    assert not offenders, "names a ruleset outside game/rulesets:\n" + "\n".join(offenders)
