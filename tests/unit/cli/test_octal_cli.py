"""Octal games on the command line: described positions replay; bad codes and heaps are one
sentence."""

from __future__ import annotations

import pytest

from tests.helpers import run_cli, run_json


def test_a_replay_of_a_described_position_rebuilds_and_verifies(tmp_path, capsys):
    replay = tmp_path / "o.json"
    assert run_cli(capsys, "match", "octal:0.137:7,9,12", "--red", "perfect", "--blue", "random",
                   "--replay", str(replay))[0] == 0
    assert run_json(capsys, "replay", str(replay), "--json")["verified"] is True


@pytest.mark.parametrize("args, words", [
    (["play", "--text", "--octal", "0.9"], "is not an octal game code"),
    (["play", "--text", "--octal", "0.137", "--heaps", "3,x"], "must be heap sizes"),
    (["play", "--text", "--octal", "0.137", "--heaps", "0"], "heap sizes from 1 to 128"),
    (["match", "octal:0.137:7", "--red", "perfect"], None),
])
def test_octal_command_line_errors_are_one_sentence(capsys, args, words):
    code, _, err = run_cli(capsys, *args)
    if words is None:
        assert code == 0
    else:
        assert code == 2 and words in err
