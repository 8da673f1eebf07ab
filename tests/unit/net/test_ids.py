"""Game ids and seat tokens are typed on command lines: none starts with '-', which argparse
would read as an option (`online play URL -Xy... --token T` failed one game in 64)."""

from __future__ import annotations

from game.net.protocol import GAME_ID
from game.net.server import command_word


def test_no_id_or_token_starts_with_a_dash_and_ids_keep_their_pattern():
    ids = [command_word(9) for _ in range(4000)]  # unfiltered, about 60 would start with '-'
    tokens = [command_word(24) for _ in range(1000)]
    assert not any(word.startswith("-") for word in ids + tokens)
    assert all(GAME_ID.fullmatch(word) for word in ids)
    assert any("-" in word for word in ids)  # the alphabet is otherwise the same
