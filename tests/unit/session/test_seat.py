"""The one seat step: every way an AI can fail its side forfeits, with a sentence in the result
and in a replay that verifies; plug-ins play on a replica in a process of their own, stopped
past their time limit; an AI that cannot play a ruleset is refused before the game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.commands import Command, Move
from game.levels.loader import load_engine
from game.session.seat import Chosen, Forfeited, Seat, seat_rng, step
from systems.ai import Budget
from tests.helpers import MAPS, OUTPOST

ROOT = Path(__file__).resolve().parents[3]
KAYLES = str(MAPS / "octal" / "kayles.png")

PLUGINS = '''
import sys
import time


class Applier:
    """Plays one move on the engine it is given and answers another."""

    def choose(self, engine, rng, budget):
        actions = engine.legal_actions()
        engine.apply(actions[0])
        return actions[-1]


class Exiter:
    def choose(self, engine, rng, budget):
        if len(engine.history) >= 2:
            sys.exit(3)
        return engine.legal_actions()[0]


class Sleeper:
    def choose(self, engine, rng, budget):
        time.sleep(30)
        return engine.legal_actions()[0]


class Searcher:
    """Looks one move ahead by apply and retract, then plays: allowed."""

    def choose(self, engine, rng, budget):
        actions = engine.legal_actions()
        for action in actions[:3]:
            engine.apply(action)
            engine.retract()
        return actions[rng.randrange(len(actions))]


class Impartial:
    NEEDS = ("impartial",)

    def choose(self, engine, rng, budget):
        return engine.legal_actions()[0]
'''

REASONS = {
    "Applier": "AI plug-in '{m}:Applier' left the game it was given changed",
    "Exiter": "AI plug-in '{m}:Exiter' exited (sys.exit(3))",
    "Sleeper": "AI plug-in '{m}:Sleeper' took more than its 1.3 s (it was stopped)",
}


@pytest.fixture
def plugins(tmp_path: Path) -> tuple[str, dict[str, str]]:
    """A plug-in module in tmp_path, its name, and an environment that puts it on PYTHONPATH."""
    name = f"plugins_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(PLUGINS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    return name, env


def rulefront(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """The real `rulefront` command (the venv's script; `python -m game` where there is none).
    The timeout only keeps a hung run from hanging the suite."""
    script = shutil.which("rulefront", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "game"]
    return subprocess.run([*command, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=240)


def verified(env: dict[str, str], replay: Path) -> dict[str, Any]:
    proc = rulefront(env, "replay", str(replay), "--json")
    assert proc.returncode == 0, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    assert report["verified"]
    return report


@pytest.mark.parametrize(("cls", "map_path"), [("Applier", OUTPOST), ("Applier", KAYLES),
                                               ("Exiter", OUTPOST), ("Sleeper", KAYLES)])
def test_a_plugin_that_cheats_exits_or_sleeps_forfeits_with_a_replay_that_verifies(
        plugins: tuple[str, dict[str, str]], cls: str, map_path: str, tmp_path: Path) -> None:
    module, env = plugins
    replay = tmp_path / "game.json"
    proc = rulefront(env, "match", map_path, "--red", "random", "--blue", f"{module}:{cls}",
                     "--think", "0.2", "--json", "--replay", str(replay))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["winner"] == "red"
    assert result["forfeit"]["side"] == "blue"
    assert result["forfeit"]["reason"].startswith(REASONS[cls].format(m=module))
    assert result["reason"] == f"blue forfeits: {result['forfeit']['reason']}"
    report = verified(env, replay)
    assert report["recorded"]["reason"] == result["reason"]


@pytest.mark.parametrize("cls", ["Applier", "Exiter", "Sleeper"])
def test_each_forfeit_holds_with_two_workers_and_every_replay_verifies(
        plugins: tuple[str, dict[str, str]], cls: str, tmp_path: Path) -> None:
    module, env = plugins
    replays = tmp_path / "replays"
    proc = rulefront(env, "match", OUTPOST, "--red", "random", "--blue", f"{module}:{cls}",
                     "--games", "2", "--workers", "2", "--think", "0.2", "--json",
                     "--replays", str(replays))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["errors"] == 0 and summary["games"] == 2
    assert summary["results"][f"{module}:{cls}"]["losses"] == 2
    files = sorted(replays.glob("*.json"))
    assert len(files) == 2
    for path in files:
        report = verified(env, path)
        assert "forfeits: " + REASONS[cls].format(m=module) in report["recorded"]["reason"]


def test_a_plugin_that_searches_by_apply_and_retract_plays_to_the_end(
        plugins: tuple[str, dict[str, str]], tmp_path: Path) -> None:
    module, env = plugins
    replay = tmp_path / "game.json"
    proc = rulefront(env, "match", KAYLES, "--red", f"{module}:Searcher", "--json",
                     "--replay", str(replay))
    assert proc.returncode == 0, proc.stderr
    assert "forfeit" not in json.loads(proc.stdout)
    verified(env, replay)


def test_an_ai_whose_needs_the_ruleset_lacks_is_refused_before_the_game(
        plugins: tuple[str, dict[str, str]]) -> None:
    module, env = plugins
    proc = rulefront(env, "match", OUTPOST, "--red", f"{module}:Impartial", "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == (
        f"rulefront: AI '{module}:Impartial' cannot play skirmish games: it needs impartial, "
        "which the skirmish ruleset does not offer (`rulefront ais` lists what each AI needs).")
    played = rulefront(env, "match", KAYLES, "--red", f"{module}:Impartial", "--json")
    assert played.returncode == 0, played.stderr
    assert "forfeit" not in json.loads(played.stdout)


PERFECT_REFUSED = ("rulefront: AI 'perfect' cannot play skirmish games: it needs impartial, "
                   "which the skirmish ruleset does not offer (`rulefront ais` lists what each "
                   "AI needs).")


@pytest.mark.parametrize("args", [
    ("match", OUTPOST, "--red", "perfect", "--json"),
    ("match", OUTPOST, "--blue", "perfect", "--games", "2", "--json"),
    ("play", OUTPOST, "--red", "perfect", "--plain"),
    ("tournament", "--ais", "random,perfect", "--maps", OUTPOST, "--games", "2", "--json"),
], ids=["match", "match --games", "play", "tournament"])
def test_the_perfect_ai_is_refused_on_a_skirmish_map_before_any_game(
        plugins: tuple[str, dict[str, str]], args: tuple[str, ...]) -> None:
    _, env = plugins
    proc = rulefront(env, *args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == PERFECT_REFUSED


def test_the_perfect_ai_plays_an_octal_map_and_wins_a_won_start(
        plugins: tuple[str, dict[str, str]]) -> None:
    _, env = plugins
    proc = rulefront(env, "match", KAYLES, "--red", "perfect", "--blue", "minimax:nodes=200",
                     "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["winner"] == "red"


def test_rulefront_ais_shows_what_each_ai_needs(plugins: tuple[str, dict[str, str]]) -> None:
    _, env = plugins
    proc = rulefront(env, "ais", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    assert all(isinstance(row["needs"], list) for row in rows)
    text = rulefront(env, "ais").stdout
    assert "; needs: " in text.splitlines()[0]


# -- built-in AIs play in this process, under the same checks ----------------------------------


class Built:
    """A stand-in for a built-in AI: `how` says what it does wrong."""

    def __init__(self, how: str) -> None:
        self.name = how
        self.how = how

    def choose(self, engine: Any, rng: Any, budget: Budget) -> Any:
        actions = engine.legal_actions()
        if self.how == "raise":
            raise KeyError("no such hero")
        if self.how == "exit":
            raise SystemExit(4)
        if self.how == "words":
            return "attack!"
        if self.how == "illegal":
            return Move(9999, 0, 0)
        if self.how == "apply":
            engine.apply(actions[0])
            return actions[-1]
        if self.how == "undo":
            engine.undo()
            return actions[0]
        for action in actions:  # "search": apply and retract, then answer
            engine.apply(action)
            engine.retract()
        return actions[0]


@pytest.mark.parametrize(("how", "reason"), [
    ("raise", "AI 'x' raised KeyError: 'no such hero'"),
    ("exit", "AI 'x' exited (sys.exit(4))"),
    ("words", "AI 'x' answered 'attack!', which is not a command"),
    ("illegal", "AI 'x' chose an illegal command {'type': 'Move', 'unit': 9999, 'x': 0, 'y': 0}"),
    ("apply", "AI 'x' left the game changed"),
    ("undo", "AI 'x' left the game changed"),
])
def test_a_built_in_ai_forfeits_the_same_ways_and_the_engine_is_put_back(
        how: str, reason: str) -> None:
    engine = load_engine(OUTPOST, seed=2)
    engine.submit(engine.legal_actions()[0])
    before = engine.world.state_key()
    seat = Seat("red" if engine.side == "red" else "blue", "x", Built(how), seat_rng(2, 0))
    outcome = step(seat, engine, Budget(seconds=0.5))
    assert isinstance(outcome, Forfeited)
    assert outcome.reason.startswith(reason)
    assert outcome.sentence == f"{seat.side} forfeits: {outcome.reason}"
    assert engine.world.state_key() == before and len(engine.history) == 1


def test_a_built_in_ai_that_searches_and_puts_the_engine_back_is_chosen() -> None:
    engine = load_engine(OUTPOST, seed=2)
    seat = Seat(engine.side, "search", Built("search"), seat_rng(2, 0))
    outcome = step(seat, engine, Budget())
    assert isinstance(outcome, Chosen) and isinstance(outcome.command, Command)
    assert engine.why_illegal(outcome.command) is None
    assert seat.actions == 1


def test_the_textual_client_ends_the_game_at_a_forfeit_and_saves_it(
        plugins: tuple[str, dict[str, str]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio

    from game.session.replay import read_record, verify
    from game.session.seat import make_seats
    from game.text.app import RulefrontApp

    module, _ = plugins
    monkeypatch.syspath_prepend(str(tmp_path))
    engine = load_engine(OUTPOST, seed=1)
    seats = make_seats(engine, {"red": f"{module}:Exiter", "blue": "random"}, 1)
    save = tmp_path / "save.json"
    app = RulefrontApp(engine, seats, 1, save, ai_delay=0.01)

    async def run() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(500):
                if app.forfeit is not None:
                    break
                await pilot.pause(0.02)
            played = len(engine.history)
            await pilot.pause(0.2)
            assert len(engine.history) == played  # no AI is asked again
            await pilot.press("q")

    asyncio.run(run())
    assert app.forfeit is not None and app.forfeit.side == "red"
    assert app.forfeit.reason == f"AI plug-in '{module}:Exiter' exited (sys.exit(3))"
    record = read_record(save)
    assert record.result is not None and record.result["forfeit"] == app.forfeit.to_json()
    assert verify(record, save)["verified"]
