"""AIs as plug-ins: a class named module:Class, or an entry point of an installed package,
plays like a built-in; every way a plug-in can fail is one sentence naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.errors import UserError
from game.levels.loader import load_engine
from game.session.match import make_seats, play_match
from game.session.replay import read_record, record_of, verify, write_record
from game.session.seat import Chosen, step
from systems.ai import Budget, make_ai, parse_spec
from systems.ai.plugins import Plugin
from tests.helpers import OUTPOST, run_cli, run_json, until

ROOT = Path(__file__).resolve().parents[4]

BOTS = '''
from game.commands import Command, Move


class Greedy:
    """Attacks when it can, else the first legal action; counts its calls."""

    def __init__(self, depth="1"):
        self.depth = int(depth)

    def choose(self, engine, rng, budget):
        actions = engine.legal_actions()
        attacks = [a for a in actions if type(a).__name__ == "Attack"]
        return (attacks or actions)[rng.randrange(len(attacks or actions))]


class Raiser:
    def choose(self, engine, rng, budget):
        if len(engine.history) >= 3:
            raise ValueError("lost its way")
        return engine.legal_actions()[0]


class Cheater:
    def choose(self, engine, rng, budget):
        return Move(9999, 0, 0)


class Mumbler:
    def choose(self, engine, rng, budget):
        return "attack!"


class Silent:
    pass


class Fussy:
    def __init__(self, depth="1"):
        raise RuntimeError("needs a GPU")

    def choose(self, engine, rng, budget):
        return engine.legal_actions()[0]
'''


@pytest.fixture
def bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A plug-in module written to a folder on sys.path; its name, unique per test."""
    name = f"bots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    return name


def test_a_plugin_seat_is_module_class_then_options() -> None:
    assert parse_spec("mypkg.bots:Greedy") == ("mypkg.bots:Greedy", {})
    assert parse_spec("mypkg.bots:Greedy:depth=3,x=y") == ("mypkg.bots:Greedy",
                                                          {"depth": "3", "x": "y"})
    assert parse_spec("minimax:think=0.5") == ("minimax", {"think": "0.5"})


def test_a_plugin_from_a_folder_on_pythonpath_plays_a_match_via_the_cli(tmp_path: Path) -> None:
    (tmp_path / "mybots.py").write_text(BOTS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    proc = subprocess.run([sys.executable, "-m", "game", "match", OUTPOST, "--red",
                           "mybots:Greedy:depth=3", "--blue", "random", "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["winner"] in ("red", "blue", "draw") and "forfeit" not in result
    assert result["commands"] > 10


def test_a_plugin_that_cannot_be_loaded_exits_2_before_the_game(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "game", "match", OUTPOST, "--red",
                           "no_such_pkg.bots:Greedy"], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == ("rulefront: AI plug-in 'no_such_pkg.bots:Greedy' cannot be "
                                   "imported: ModuleNotFoundError: No module named "
                                   "'no_such_pkg'.")


@pytest.mark.parametrize(("cls", "sentence"), [
    ("Silent", "AI plug-in '{m}:Silent' has no choose(engine, rng, budget) method."),
    ("Absent", "AI plug-in '{m}:Absent': module {m} has no Absent."),
    ("Fussy", "AI plug-in '{m}:Fussy' failed to start: RuntimeError: needs a GPU."),
    ("Greedy:speed=2", "AI '{m}:Greedy' does not take the options ['speed']; its options: "
                       "depth."),
])
def test_each_way_a_plugin_fails_to_load_is_one_sentence(bots: str, cls: str,
                                                         sentence: str) -> None:
    with pytest.raises(UserError) as caught:
        make_ai(f"{bots}:{cls}")
    assert str(caught.value) == sentence.format(m=bots)


@pytest.mark.parametrize(("cls", "reason"), [
    ("Raiser", "AI plug-in '{m}:Raiser' raised ValueError: lost its way"),
    ("Cheater", "AI plug-in '{m}:Cheater' chose an illegal command {{'type': 'Move', "
                "'unit': 9999, 'x': 0, 'y': 0}}: "),
    ("Mumbler", "AI plug-in '{m}:Mumbler' answered 'attack!', which is not a command"),
])
def test_a_plugin_that_fails_during_a_game_forfeits_and_the_replay_says_why(
        bots: str, cls: str, reason: str, tmp_path: Path) -> None:
    engine = load_engine(OUTPOST, seed=4)
    specs = {"red": "random", "blue": f"{bots}:{cls}"}
    result = play_match(engine, make_seats(engine, specs, 4), 4)
    assert result.winner == "red"
    assert result.forfeit is not None and result.forfeit["side"] == "blue"
    assert result.forfeit["reason"].startswith(reason.format(m=bots))
    assert result.reason == f"blue forfeits: {result.forfeit['reason']}"
    assert not engine.over  # the game stopped where the plug-in gave up
    path = tmp_path / "forfeit.json"
    write_record(path, record_of(engine, 4, specs, result.forfeit, result.winner))
    record = read_record(path)
    assert record.result is not None and record.result["forfeit"] == result.forfeit
    assert verify(record, path)["verified"]


def test_a_plugin_plays_a_ruleset_registered_at_run_time_and_an_undo_on_its_replica(
        bots: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its child learns the ruleset from the game it is sent (systems/ai/remote.py), and
    takes back what the game took back: the same child answers after the undo."""
    from tests.conformance.test_a_fifth_ruleset import register_counting

    register_counting(monkeypatch)
    engine = load_engine("counting:9", seed=1)
    seats = make_seats(engine, {"red": f"{bots}:Greedy", "blue": "random"}, 1)
    plugin = seats["red"].ai
    assert isinstance(plugin, Plugin)
    try:
        chosen = step(seats["red"], engine, Budget())
        assert isinstance(chosen, Chosen), chosen
        assert engine.submit(chosen.command).ok
        child = plugin.remote.process
        engine.undo()
        again = step(seats["red"], engine, Budget())
        assert isinstance(again, Chosen), again
        assert engine.why_illegal(again.command) is None
        assert plugin.remote.process is child and child.is_alive()
        result = play_match(engine, seats, 1)
        assert result.forfeit is None and result.winner in engine.ruleset.sides
    finally:
        plugin.close()


def test_a_forfeit_shows_in_the_json_of_a_match(bots: str, capsys: pytest.CaptureFixture[str]) \
        -> None:
    result = run_json(capsys, "match", OUTPOST, "--red", f"{bots}:Raiser", "--json")
    assert result["winner"] == "blue"
    assert result["forfeit"]["seat"] == f"{bots}:Raiser"


def write_dist(folder: Path, dist: str, entry_points: dict[str, str]) -> None:
    """A fake installed distribution: a dist-info folder with METADATA and entry_points.txt."""
    info = folder / f"{dist}-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.2\n")
    lines = "\n".join(f"{k} = {v}" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[rulefront.ais]\n{lines}\n")


def test_an_entry_point_appears_in_ais_and_plays(bots: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    write_dist(tmp_path, "fakebots", {"greedy": f"{bots}:Greedy", "broken": "nowhere:Bot"})
    rows = {row["name"]: row for row in run_json(capsys, "ais", "--json")}
    assert rows["minimax"]["source"] == "built-in"
    assert "think" in rows["minimax"]["options"]
    greedy = rows["greedy"]
    assert greedy == {"name": "greedy", "options": ["depth"], "needs": [], "source": "entry point",
                      "module": f"{bots}:Greedy", "distribution": "fakebots 1.2", "error": None}
    assert "cannot be imported" in rows["broken"]["error"]
    code, out, _ = run_cli(capsys, "ais")
    assert code == 0
    assert "greedy" in out and "entry point of fakebots 1.2" in out
    result = run_json(capsys, "match", OUTPOST, "--red", "greedy:depth=2", "--blue", "random",
                      "--json")
    assert result["commands"] > 0 and "forfeit" not in result


def test_an_unknown_name_lists_the_entry_points_too(bots: str, tmp_path: Path) -> None:
    write_dist(tmp_path, "morebots", {"greedy2": f"{bots}:Greedy"})
    with pytest.raises(UserError, match=r"known AIs: greedy2, heuristic, .*random \(or human"):
        make_ai("alphazero")


def test_a_plugin_seat_plays_in_terminal_play_and_forfeits_there(
        bots: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run_cli(capsys, "play", "--text", OUTPOST, "--red", f"{bots}:Raiser",
                           "--blue", "random", "--save", str(tmp_path / "s.json"))
    assert code == 0
    assert (f"game over: red forfeits (AI plug-in '{bots}:Raiser' raised "
                           "ValueError: lost its way)") in out


@pytest.mark.parametrize(("cls", "words"), [("Raiser", "raised ValueError: lost its way"),
                                            ("Cheater", "chose an illegal command")])
def test_a_failing_plugin_ends_the_window_game_with_the_reason_in_its_save(
        bots: str, cls: str, words: str, tmp_path: Path) -> None:
    from game.render.controllers.match import Controller

    engine = load_engine(OUTPOST)
    seats = make_seats(engine, {"red": f"{bots}:{cls}", "blue": "human"}, 0)
    ctrl = Controller(engine, seats, 0, tmp_path / "save.json")  # its thinking process, too
    try:
        def ticked() -> bool:  # the answer comes from the child (which runs the plug-in's)
            ctrl.tick()
            return ctrl.over

        until(ticked, "the plug-in's forfeit", 120)
    finally:
        ctrl.close()
    assert ctrl.over and not engine.over and not ctrl.human_to_play
    assert ctrl.message.startswith(f"red forfeits: AI plug-in '{bots}:{cls}' ")
    assert words in ctrl.message
    assert ctrl.view().modal[:2] == ("blue wins", ctrl.message.rstrip("."))
    record = read_record(tmp_path / "save.json")
    assert record.result is not None and record.result["forfeit"]["side"] == "red"
    assert verify(record, tmp_path / "save.json")["verified"]


def test_an_entry_point_named_like_a_built_in_is_listed_as_shadowed(bots: str, tmp_path: Path,
                                                                    capsys) -> None:
    write_dist(tmp_path, "clashbots", {"random": f"{bots}:Greedy"})
    rows = [r for r in run_json(capsys, "ais", "--json") if r["name"] == "random"]
    assert [r["source"] for r in rows] == ["built-in", "entry point"]
    assert rows[1]["error"] == "shadowed by the built-in AI 'random'"
    assert make_ai("random").name == "random"  # the built-in still takes the seat
