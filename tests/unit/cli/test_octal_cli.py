"""Octal games on the command line: described positions replay; bad codes and heaps are one
sentence."""

from __future__ import annotations

import pytest


def test_a_replay_of_a_described_position_rebuilds_and_verifies(tmp_path, capsys):
    from game.cli import main

    replay = tmp_path / "o.json"
    assert main(["match", "octal:0.137:7,9,12", "--red", "perfect", "--blue", "random",
                 "--replay", str(replay)]) == 0
    assert main(["replay", str(replay), "--json"]) == 0
    assert '"verified": true' in capsys.readouterr().out


@pytest.mark.parametrize("args, words", [
    (["play", "--text", "--octal", "0.9"], "is not an octal game code"),
    (["play", "--text", "--octal", "0.137", "--heaps", "3,x"], "must be heap sizes"),
    (["play", "--text", "--octal", "0.137", "--heaps", "0"], "heap sizes from 1 to 128"),
    (["match", "octal:0.137:7", "--red", "perfect"], None),
])
def test_octal_command_line_errors_are_one_sentence(capsys, args, words):
    from game.cli import main

    code = main(args)
    err = capsys.readouterr().err
    if words is None:
        assert code == 0
    else:
        assert code == 2 and words in err
