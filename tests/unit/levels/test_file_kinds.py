"""Every command recognises the file it is given through one loader, and refuses a kind it
cannot use with one sentence and exit code 2."""

from __future__ import annotations

import json

import pytest

from game import MAPS, registry
from game.cli import main
from game.errors import UserError
from game.levels.loader import FileKind, load_engine, load_game_map, recognise

OUTPOST = str(MAPS / "outpost.png")
DESCENT = str(MAPS / "descent" / "level-03.txt")
PUZZLE = str(MAPS / "puzzles" / "first-steps.keke")


@pytest.fixture
def replay(tmp_path, capsys):
    path = tmp_path / "game.json"
    assert main(["match", OUTPOST, "--seed", "2", "--replay", str(path)]) == 0
    capsys.readouterr()
    return path


@pytest.fixture
def save(tmp_path, capsys, monkeypatch):
    path = tmp_path / "save.json"
    monkeypatch.setattr("builtins.input", lambda _prompt="": "q")
    assert main(["play", "--text", OUTPOST, "--save", str(path)]) == 0
    capsys.readouterr()
    return path


@pytest.mark.parametrize("source, kind", [
    (OUTPOST, FileKind.LEVEL),
    (DESCENT, FileKind.LEVEL),
    (str(MAPS / "descent" / "tower.png"), FileKind.LEVEL),
    (PUZZLE, FileKind.LEVEL),
    (str(MAPS / "octal" / "kayles.png"), FileKind.LEVEL),
    ("octal:0.137:7,9", FileKind.LEVEL),
])
def test_levels_of_every_ruleset_are_recognised_as_levels(source, kind):
    assert recognise(source) is kind


def test_replays_saves_and_level_sets_are_told_apart_by_their_content(replay, save, tmp_path):
    assert recognise(replay) is FileKind.REPLAY
    assert recognise(save) is FileKind.SAVE
    keke_set = tmp_path / "set.json"
    keke_set.write_text(json.dumps({"levels": [{"id": 1, "ascii": "____\n_b3_\n____"}]}))
    assert recognise(keke_set) is FileKind.LEVEL_SET


def test_each_shipped_example_loads_with_the_ruleset_that_registered_it():
    for spec in registry.specs():
        for example in spec.examples:
            source = example if ":" in example else MAPS / example
            assert load_game_map(source).ruleset == spec.name
            assert load_engine(source).ruleset.name == spec.name


def test_a_file_no_ruleset_reads_is_refused_with_the_kinds_there_are(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("hello")
    with pytest.raises(UserError) as info:
        recognise(path)
    assert "is not a file Rulefront reads" in str(info.value)
    assert ".keke" in str(info.value) and ".txt" in str(info.value)


def test_a_sidecar_naming_an_unknown_ruleset_is_refused_naming_the_sidecar(tmp_path):
    (tmp_path / "m.png").write_bytes((MAPS / "outpost.png").read_bytes())
    (tmp_path / "m.yaml").write_text("ruleset: chess\n")
    with pytest.raises(UserError) as info:
        load_game_map(tmp_path / "m.png")
    assert str(tmp_path / "m.yaml") in str(info.value) and "unknown ruleset 'chess'" in str(info.value)


@pytest.mark.parametrize("args, words", [
    (["match", DESCENT], "is a one-player descent level; `rulefront match` pits sides"),
    (["match", PUZZLE, "--games", "2"], "is a one-player puzzle level"),
    (["solve", OUTPOST], "solve works on"),
    (["replay", OUTPOST], "is a level; `rulefront replay` takes a replay or save"),
    (["play", "--text", OUTPOST, "--moves", "rr"], "--moves is for one-player levels"),
    (["map", "check", "octal:0.137:7,9", "--level", "3"], "--level only applies to level sets"),
])
def test_a_command_refuses_a_kind_of_file_it_cannot_use_in_one_sentence(capsys, args, words):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_play_resumes_a_save_and_refuses_a_replay_as_a_save(capsys, replay, save):
    assert main(["play", "--text", "--resume", str(replay)]) == 2
    assert "is a replay; `rulefront play --resume` takes a save" in capsys.readouterr().err


def test_map_check_reads_levels_of_every_kind(capsys):
    for source in (DESCENT, PUZZLE, "octal:0.137:7,9"):
        assert main(["map", "check", source, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["ok"] is True
