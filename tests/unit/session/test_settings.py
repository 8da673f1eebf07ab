"""The player's settings file: read whole through its schema, written atomically, refused in
one sentence (exit 2) when broken, never half-loaded."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from game import ROOT
from game.errors import UserError
from game.session.settings import (
    KEY_ACTIONS,
    Settings,
    load_settings,
    save_settings,
    seat_spec,
    settings_path,
)


@pytest.fixture
def config(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path / "rulefront" / "settings.yaml"


def test_no_file_is_the_defaults_and_the_file_lives_under_xdg_config_home(config):
    assert settings_path() == config
    assert load_settings() == Settings()


def test_settings_written_are_the_settings_read_back(config):
    changed = Settings(animate=False, speed=2.0, sound=False, palette="colour-blind",
                       player="ann", keys={"end_turn": "SPACE", "undo": "Z"})
    assert save_settings(changed) == config
    assert load_settings() == changed
    text = config.read_text()
    assert "speed: 2.0" in text and "animate: false" in text
    assert not [p for p in config.parent.iterdir() if p.name.endswith(".tmp")]


def test_only_the_keys_that_differ_from_the_defaults_are_written(config):
    save_settings(Settings(sound=False))
    body = [line for line in config.read_text().splitlines() if not line.startswith("#")]
    assert body == ["sound: false"]


@pytest.mark.parametrize(("text", "words"), [
    ("speed: 9\n", "'speed' must be a number <= 4.0"),
    ("sound: maybe\n", "'sound' must be true or false"),
    ("colour: x\n", "unknown key 'colour'"),
    ("palette: neon\n", "'palette' invalid enum value 'neon' (standard or colour-blind"),
    ("keys: {jump: J}\n", "unknown action 'jump'"),
    ("keys: {undo: E}\n", "gives E to both undo and end_turn"),
    ("keys: {undo: 'ctrl z'}\n", "'keys' binds undo to 'ctrl z'; a key is a capital letter"),
    ("[1, 2]\n", "must be a mapping"),
    ("speed: [\n", "is not valid YAML"),
])
def test_a_broken_file_is_one_sentence_naming_the_file_and_the_key(config, text, words):
    config.parent.mkdir(parents=True)
    config.write_text(text)
    with pytest.raises(UserError) as refused:
        load_settings()
    message = str(refused.value)
    assert message.startswith(f"{config}:") and words in message
    assert "\n" not in message


def test_bindings_translate_pressed_keys_to_the_default_keys_the_controllers_know():
    settings = Settings(keys={"end_turn": "SPACE", "undo": "Y", "redo": "U"})
    table = settings.translation()
    assert table["SPACE"] == "E" and table["E"] == ""  # E no longer ends the turn
    assert table["Y"] == "U" and table["U"] == "Y"  # a swap
    assert set(KEY_ACTIONS) >= set(settings.keys)


def test_difficulty_names_are_search_budgets_from_data_ai_yaml():
    assert seat_spec("Human") == "human"
    for name in ("Easy", "Normal", "Hard"):
        spec = seat_spec(name)
        assert spec.startswith("minimax:nodes=")  # the same search, only the budget differs
    budgets = [int(seat_spec(n).split("=")[1]) for n in ("Easy", "Normal", "Hard")]
    assert budgets == sorted(budgets) and len(set(budgets)) == 3
    assert seat_spec("heuristic") == "heuristic"


@pytest.mark.parametrize("args", [
    ("play",),  # the title menu
    ("play", "outpost", "--plain"),
    ("play", "first-steps", "--plain"),
    ("edit", "new.png", "--new", "8x8"),  # before it finds no display
], ids=["menu", "plain-match", "plain-level", "edit"])
def test_every_client_refuses_a_broken_settings_file_with_exit_2(tmp_path, args):
    folder = tmp_path / "rulefront"
    folder.mkdir()
    (folder / "settings.yaml").write_text("animate: yes please\n")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    done = subprocess.run([sys.executable, "-m", "game", *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, input="q\n")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "settings.yaml: 'animate' must be true or false" in lines[0]


def test_the_editor_takes_only_the_bindings_of_its_own_actions():
    """X erases in the editor whatever end_turn is bound to; a rebound undo moves there too."""
    from game.render.controllers.editor import KEY_ACTIONS as EDITOR

    settings = Settings(keys={"end_turn": "X", "undo": "B"})
    assert settings.translation(EDITOR) == {"U": "", "B": "U"}
    assert settings.label("{undo} / Ctrl+Z undo", "{end_turn} ends") == ("B / Ctrl+Z undo",
                                                                           "X ends")
