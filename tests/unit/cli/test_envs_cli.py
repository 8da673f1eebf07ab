"""`rulefront envs`: the environment a map or level becomes, and its library's own check."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from tests.helpers import run_cli, run_json


@pytest.mark.parametrize(("source", "library", "make", "actions", "shape"), [
    # skirmish: 19 kinds, other, 45 words, own, other side, hp, moves, ready, to_play, 18 props
    ("duel", "PettingZoo", "game.envs.env('skirmish', source='duel')", 1 + 6 * 2 * 24 * 24, [89, 24, 24]),
    # octal: tokens * M * M; planes kind:block, to_play over one row per heap
    ("octal:0.137:5,7", "PettingZoo", "game.envs.env('octal', source='octal:0.137:5,7')", 12 * 7 * 7,
     [2, 2, 7]),
    ("octal:0.6:3,4:misere", "PettingZoo", "game.envs.env('octal', source='octal:0.6:3,4:misere')",
     7 * 4 * 4, [2, 2, 4]),
    # kayles is a shipped PNG: its planes cover the whole picture (9 x 5)
    ("kayles", "PettingZoo", "game.envs.env('octal', source='kayles')", 19 * 9 * 9, [2, 5, 9]),
    ("first-steps", "Gymnasium", "gymnasium.make('rulefront/Puzzle-v0', source='first-steps')",
     5, [83, 5, 8]),
    ("level-03", "Gymnasium", "gymnasium.make('rulefront/Descent-v0', source='level-03')", 4,
     [3, 5, 5]),
])
def test_envs_describes_the_environment_of_each_ruleset(capsys, source, library, make, actions,
                                                        shape) -> None:
    report = run_json(capsys, "envs", source, "--json")
    assert report["library"] == library and report["make"] == make
    assert report["actions"] == actions and report["observation"] == shape
    assert 0 < report["legal_now"] <= actions


@pytest.mark.parametrize(("source", "check"), [("octal:0.137:5,7", "pettingzoo api_test"),
                                               ("level-03", "gymnasium check_env")])
def test_envs_check_runs_the_librarys_own_test(capsys, source, check) -> None:
    code, out, _ = run_cli(capsys, "envs", source, "--check")
    assert code == 0
    assert f"{check} passed" in out


def test_a_failing_check_is_one_sentence(capsys, monkeypatch) -> None:
    from game.envs.levels import LevelEnv

    monkeypatch.setattr(LevelEnv, "_observe", lambda self: np.zeros(3, dtype=np.float32))
    code, _, err = run_cli(capsys, "envs", "level-03", "--check")
    assert code == 2
    assert err.startswith("rulefront: gymnasium check_env failed: ")
    assert len(err.strip().splitlines()) == 1


def test_without_the_envs_extra_envs_says_what_to_install(capsys, monkeypatch) -> None:
    for name in [m for m in sys.modules if m == "game.envs" or m.startswith("game.envs.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    code, _, err = run_cli(capsys, "envs", "duel")
    assert code == 2
    assert err.strip() == "rulefront: rulefront envs needs pettingzoo: pip install -e '.[envs]'."
